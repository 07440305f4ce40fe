export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __embeddedPostgres?: { stop(): Promise<void> } }).__embeddedPostgres?.stop();
}
