import { MigrationInterface, QueryRunner } from 'typeorm';

export class RelayPendingOperations1795335465374 implements MigrationInterface {
  name = 'RelayPendingOperations1795335465374';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "relay_pending_operations" ("cid" character varying(64) COLLATE "C" NOT NULL, "jws" text NOT NULL, "kind" character varying(16) NOT NULL, "received_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_4d8464d6d1fac449334607168f4" PRIMARY KEY ("cid"))',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_relay_pending_operations_received" ON "relay_pending_operations" ("received_at", "cid") ',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."idx_relay_pending_operations_received"');
    await queryRunner.query('DROP TABLE "relay_pending_operations"');
  }
}
