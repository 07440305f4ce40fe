import { MigrationInterface, QueryRunner } from 'typeorm';

export class IdempotencyKeys1795601512484 implements MigrationInterface {
  name = 'IdempotencyKeys1795601512484';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "idempotency_keys" ("principal_did" character varying(64) NOT NULL, "client_did" character varying(64) NOT NULL, "key" character varying(255) NOT NULL, "reservation" uuid NOT NULL, "fingerprint" bytea NOT NULL, "state" character varying(16) NOT NULL, "status" smallint, "headers" jsonb, "body" bytea, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "expires_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_577c256445c263b3a8b4dab2fd3" PRIMARY KEY ("principal_did", "client_did", "key"))',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_idempotency_keys_expires_at" ON "idempotency_keys"  ("expires_at") ',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."idx_idempotency_keys_expires_at"');
    await queryRunner.query('DROP TABLE "idempotency_keys"');
  }
}
