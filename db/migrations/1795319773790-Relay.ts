import { MigrationInterface, QueryRunner } from 'typeorm';

export class Relay1795319773790 implements MigrationInterface {
  name = 'Relay1795319773790';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "relay_content_chains" ("content_id" character varying(64) COLLATE "C" NOT NULL, "creator_did" character varying(64) COLLATE "C" NOT NULL, "genesis_cid" character varying(64) COLLATE "C" NOT NULL, "head_cid" character varying(64) COLLATE "C" NOT NULL, "genesis_at" character varying(24) COLLATE "C" NOT NULL, "head_at" character varying(24) COLLATE "C" NOT NULL, "op_count" integer NOT NULL, "is_deleted" boolean NOT NULL, "current_document_cid" character varying(64) COLLATE "C", "state" jsonb NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_40d4b699704798853c73d35aaab" PRIMARY KEY ("content_id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_relay_content_chains_creator" ON "relay_content_chains" ("creator_did") ',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_relay_content_chains_document" ON "relay_content_chains" ("current_document_cid") ',
    );
    await queryRunner.query(
      'CREATE TABLE "relay_identity_chains" ("did" character varying(64) COLLATE "C" NOT NULL, "genesis_cid" character varying(64) COLLATE "C" NOT NULL, "head_cid" character varying(64) COLLATE "C" NOT NULL, "genesis_at" character varying(24) COLLATE "C" NOT NULL, "head_at" character varying(24) COLLATE "C" NOT NULL, "op_count" integer NOT NULL, "is_deleted" boolean NOT NULL, "state" jsonb NOT NULL, "key_history" jsonb NOT NULL, "profile_anchor" character varying(64) COLLATE "C", "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_c8c5a97d9a1a5aa46302b1a636a" PRIMARY KEY ("did"))',
    );
    await queryRunner.query(
      'CREATE TABLE "relay_origin_keys" ("public_key" character varying(64) NOT NULL, "key_id" character varying(64) NOT NULL, "did" character varying(64) NOT NULL, "seed" bytea, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_86f7266fe03869ba3dfced10923" PRIMARY KEY ("public_key"))',
    );
    await queryRunner.query(
      'CREATE TABLE "relay_documents" ("document_cid" character varying(64) COLLATE "C" NOT NULL, "document" jsonb NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_7ba7242553eb3105f2603083f2a" PRIMARY KEY ("document_cid"))',
    );
    await queryRunner.query(
      'CREATE TABLE "relay_operations" ("cid" character varying(64) COLLATE "C" NOT NULL, "seq" BIGSERIAL NOT NULL, "kind" character varying(16) NOT NULL, "chain_id" character varying(64) COLLATE "C" NOT NULL, "jws" text NOT NULL, "signer_did" character varying(64) COLLATE "C" NOT NULL, "created_at" character varying(24) COLLATE "C" NOT NULL, "previous_cid" character varying(64) COLLATE "C", "op_type" character varying(16), "document_cid" character varying(64) COLLATE "C", "ingested_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_64152037714773c5f4d961d5ea0" PRIMARY KEY ("cid"))',
    );
    await queryRunner.query('CREATE UNIQUE INDEX "uq_relay_operations_seq" ON "relay_operations" ("seq") ');
    await queryRunner.query(
      'CREATE INDEX "idx_relay_operations_signer" ON "relay_operations" ("signer_did", "kind", "chain_id") ',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_relay_operations_previous" ON "relay_operations" ("previous_cid") ',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_relay_operations_chain_time" ON "relay_operations" ("chain_id", "kind", "created_at", "cid") ',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_relay_operations_chain_seq" ON "relay_operations" ("chain_id", "kind", "seq") ',
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "uq_relay_operations_identity_parent" ON "relay_operations" ("chain_id", "previous_cid") WHERE "kind" = \'identity-op\' AND "previous_cid" IS NOT NULL',
    );
    await queryRunner.query(
      'CREATE TABLE "relay_revocations" ("credential_cid" character varying(64) COLLATE "C" NOT NULL, "issuer_did" character varying(64) COLLATE "C" NOT NULL, "revocation_cid" character varying(64) COLLATE "C" NOT NULL, "created_at" character varying(24) COLLATE "C" NOT NULL, CONSTRAINT "PK_f25eede46154f159a925f09dd6b" PRIMARY KEY ("credential_cid", "issuer_did"))',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_relay_revocations_issuer" ON "relay_revocations" ("issuer_did", "credential_cid") ',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."idx_relay_revocations_issuer"');
    await queryRunner.query('DROP TABLE "relay_revocations"');
    await queryRunner.query('DROP INDEX "public"."uq_relay_operations_identity_parent"');
    await queryRunner.query('DROP INDEX "public"."idx_relay_operations_chain_seq"');
    await queryRunner.query('DROP INDEX "public"."idx_relay_operations_chain_time"');
    await queryRunner.query('DROP INDEX "public"."idx_relay_operations_previous"');
    await queryRunner.query('DROP INDEX "public"."idx_relay_operations_signer"');
    await queryRunner.query('DROP INDEX "public"."uq_relay_operations_seq"');
    await queryRunner.query('DROP TABLE "relay_operations"');
    await queryRunner.query('DROP TABLE "relay_documents"');
    await queryRunner.query('DROP TABLE "relay_origin_keys"');
    await queryRunner.query('DROP TABLE "relay_identity_chains"');
    await queryRunner.query('DROP INDEX "public"."idx_relay_content_chains_document"');
    await queryRunner.query('DROP INDEX "public"."idx_relay_content_chains_creator"');
    await queryRunner.query('DROP TABLE "relay_content_chains"');
  }
}
