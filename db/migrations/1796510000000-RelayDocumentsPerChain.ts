import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Relay documents belong to the chain that stored them
 * (docs/decisions/0120-relay-documents-per-chain.md), and carry their index projections so the index
 * filters use indexes (docs/decisions/0121-relay-index-filters.md).
 *
 * Existing rows move to the origin-created chains whose current head commits to them and are not
 * deleted: only the origin's own publishing ever brought documents, and a chain now holds only its
 * head document. Everything else (superseded versions, documents of deleted or retracted chains) is
 * dropped, and no chain created by anyone else gets a document.
 */
export class RelayDocumentsPerChain1796510000000 implements MigrationInterface {
  name = 'RelayDocumentsPerChain1796510000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    await queryRunner.query('ALTER TABLE "relay_documents" RENAME TO "relay_documents_by_cid"');
    await queryRunner.query(
      'CREATE TABLE "relay_documents" ("content_id" character varying(64) COLLATE "C" NOT NULL, "document_cid" character varying(64) COLLATE "C" NOT NULL, "document" jsonb NOT NULL, "doc_schema" text, "display_name" text, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_ce017f29c15bd9dbc302d0fb70b" PRIMARY KEY ("content_id", "document_cid"))',
    );
    // The projections as relay-document-projection.ts computes them for new documents.
    await queryRunner.query(
      `INSERT INTO "relay_documents" ("content_id", "document_cid", "document", "doc_schema", "display_name", "created_at")
       SELECT c.content_id, d.document_cid, d.document,
              CASE WHEN jsonb_typeof(d.document->'$schema') = 'string' THEN d.document->>'$schema' END,
              CASE
                WHEN d.document->>'$schema' = 'https://schemas.dfos.com/profile/v1'
                     AND jsonb_typeof(d.document->'name') = 'string' AND d.document->>'name' <> ''
                  THEN d.document->>'name'
                WHEN d.document->>'$schema' = 'https://schemas.dfos.com/post/v1'
                     AND jsonb_typeof(d.document->'title') = 'string' AND d.document->>'title' <> ''
                  THEN d.document->>'title'
              END,
              d.created_at
       FROM "relay_content_chains" c
       JOIN "relay_documents_by_cid" d ON d.document_cid = c.current_document_cid
       WHERE NOT c.is_deleted AND c.creator_did IN (SELECT did FROM "relay_origin_keys")`,
    );
    await queryRunner.query('DROP TABLE "relay_documents_by_cid"');
    await queryRunner.query('CREATE INDEX "idx_relay_documents_schema" ON "relay_documents" ("doc_schema") ');
    // fastupdate off: documents arrive one publish at a time, and a GIN pending list (flushed only by
    // vacuum) makes the planner price the index above a scan of every document until then.
    await queryRunner.query(
      'CREATE INDEX "idx_relay_documents_display_name_trgm" ON "relay_documents" USING gin (lower("display_name") gin_trgm_ops) WITH (fastupdate = off)',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_relay_identity_chains_profile_anchor" ON "relay_identity_chains" ("profile_anchor") ',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."idx_relay_identity_chains_profile_anchor"');
    await queryRunner.query('ALTER TABLE "relay_documents" RENAME TO "relay_documents_by_chain"');
    await queryRunner.query(
      'CREATE TABLE "relay_documents" ("document_cid" character varying(64) COLLATE "C" NOT NULL, "document" jsonb NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_7ba7242553eb3105f2603083f2a" PRIMARY KEY ("document_cid"))',
    );
    await queryRunner.query(
      `INSERT INTO "relay_documents" ("document_cid", "document", "created_at")
       SELECT DISTINCT ON (document_cid) document_cid, document, created_at FROM "relay_documents_by_chain"
       ORDER BY document_cid, created_at`,
    );
    await queryRunner.query('DROP TABLE "relay_documents_by_chain"');
  }
}
