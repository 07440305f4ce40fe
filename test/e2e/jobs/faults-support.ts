import { Client } from 'pg';

/** Acknowledged posts whose announcement never ran (docs/decisions/0125-no-background-work-lost.md). */
export const UNANNOUNCED_POSTS = `SELECT count(*)::int AS unannounced FROM posts p
  LEFT JOIN notification_fanouts f ON f.key = 'notify.post.created:' || p.id::text
  WHERE f.key IS NULL`;

/** SQL on the app's database over a connection of its own (outside the app's pool). */
export async function directClient(databaseUrl: string): Promise<Client> {
  const url = new URL(process.env.TEST_DATABASE_ADMIN_URL!);
  url.pathname = new URL(databaseUrl).pathname;
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  return client;
}
