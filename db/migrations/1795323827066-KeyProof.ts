import { MigrationInterface, QueryRunner } from 'typeorm';

export class KeyProof1795323827066 implements MigrationInterface {
  name = 'KeyProof1795323827066';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "key_proof_ceremonies" ("code" character varying(8) NOT NULL, "owner_did" character varying(64) NOT NULL, "role_set" character varying(32) NOT NULL, "prev_cid" character varying(128) NOT NULL, "nonce" character varying(64) NOT NULL, "status" character varying(16) NOT NULL, "presented_key" character varying(128), "description" character varying(200), "envelope" text, "expires_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "adopted_key_id" character varying(128), "chain_op_cid" character varying(128), "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_2cf94f20f4d744795259623bf66" PRIMARY KEY ("code"))',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_key_proof_ceremonies_presented_key" ON "key_proof_ceremonies" ("presented_key") ',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_key_proof_ceremonies_owner" ON "key_proof_ceremonies" ("owner_did") ',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."idx_key_proof_ceremonies_owner"');
    await queryRunner.query('DROP INDEX "public"."idx_key_proof_ceremonies_presented_key"');
    await queryRunner.query('DROP TABLE "key_proof_ceremonies"');
  }
}
