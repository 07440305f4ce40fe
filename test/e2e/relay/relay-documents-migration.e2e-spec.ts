import { DataSource } from 'typeorm';
import { MIGRATIONS } from '../../../db/migrations';
import { RelayDocumentsPerChain1796510000000 } from '../../../db/migrations/1796510000000-RelayDocumentsPerChain';
import { createTestDatabase } from '../../support/database';

const ORIGIN = 'did:plat:origin';
const POST = 'https://schemas.dfos.com/post/v1';

async function migrated(url: string, migrations: typeof MIGRATIONS): Promise<DataSource> {
  const dataSource = await new DataSource({ type: 'postgres', url, migrations }).initialize();
  await dataSource.runMigrations({ transaction: 'each' });
  return dataSource;
}

/**
 * The migration keys existing documents by the chain that stored them
 * (docs/decisions/0120-relay-documents-per-chain.md): each live origin chain keeps its head document,
 * with its projections; superseded documents, those of deleted chains and any other creator's claim
 * are gone.
 */
describe('relay documents migration (e2e)', () => {
  it('moves head documents of live origin chains to their chain and drops the rest', async () => {
    const database = await createTestDatabase();
    const before = MIGRATIONS.indexOf(RelayDocumentsPerChain1796510000000);
    let dataSource = await migrated(database.url, MIGRATIONS.slice(0, before));
    try {
      await dataSource.query(
        `INSERT INTO relay_origin_keys (public_key, key_id, did) VALUES ('z6Mk-origin', 'k', $1)`,
        [ORIGIN],
      );
      const chain = (contentId: string, creator: string, documentCid: string | null, isDeleted: boolean) =>
        dataSource.query(
          `INSERT INTO relay_content_chains (content_id, creator_did, genesis_cid, head_cid, genesis_at, head_at,
             op_count, is_deleted, current_document_cid, state)
           VALUES ($1, $2, 'g', 'h', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', 1, $4, $3, '{}')`,
          [contentId, creator, documentCid, isDeleted],
        );
      await chain('live', ORIGIN, 'head-doc', false);
      await chain('deleted', ORIGIN, 'deleted-doc', true);
      await chain('claimer', 'did:plat:attacker', 'head-doc', false);
      await chain('claimer-of-old', 'did:plat:attacker', 'old-doc', false);
      for (const [cid, document] of [
        ['head-doc', { $schema: POST, title: 'Head' }],
        ['old-doc', { $schema: POST, title: 'Superseded' }],
        ['deleted-doc', { $schema: POST, title: 'Deleted' }],
      ] as const) {
        await dataSource.query(
          'INSERT INTO relay_documents (document_cid, document) VALUES ($1, $2::jsonb)',
          [cid, JSON.stringify(document)],
        );
      }
      await dataSource.destroy();

      dataSource = await migrated(database.url, MIGRATIONS);
      expect(
        await dataSource.query(
          'SELECT content_id, document_cid, doc_schema, display_name FROM relay_documents ORDER BY content_id',
        ),
      ).toEqual([{ content_id: 'live', document_cid: 'head-doc', doc_schema: POST, display_name: 'Head' }]);
    } finally {
      if (dataSource.isInitialized) await dataSource.destroy();
      await database.drop();
    }
  });
});
