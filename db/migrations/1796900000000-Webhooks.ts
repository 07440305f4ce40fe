import { MigrationInterface, QueryRunner } from 'typeorm';

/** `webhooks` and `webhook_deliveries`: the webhooks module's tables (src/webhooks/entities/). */
export class Webhooks1796900000000 implements MigrationInterface {
  name = 'Webhooks1796900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "webhooks" ("id" uuid NOT NULL, "space_id" uuid NOT NULL, "url" character varying(2048) NOT NULL, "events" text array NOT NULL, "description" character varying(500), "include_members_only" boolean NOT NULL, "enabled" boolean NOT NULL, "disabled_reason" character varying(16), "secret" character varying(80) NOT NULL, "previous_secret" character varying(80), "previous_secret_until" TIMESTAMP(3) WITH TIME ZONE, "failing_since" TIMESTAMP(3) WITH TIME ZONE, "created_by_did" character varying(64) NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_9e8795cfc899ab7bdaa831e8527" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE INDEX "idx_webhooks_space" ON "webhooks"  ("space_id", "id") ');
    await queryRunner.query(
      'CREATE TABLE "webhook_deliveries" ("id" uuid NOT NULL, "webhook_id" uuid NOT NULL, "message_id" character varying(64) NOT NULL, "event_type" character varying(64) NOT NULL, "body" text NOT NULL, "status" character varying(16) NOT NULL, "attempts" integer NOT NULL, "next_attempt_at" TIMESTAMP(3) WITH TIME ZONE, "last_status_code" integer, "last_error" character varying(300), "last_latency_ms" integer, "last_attempt_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_535dd409947fb6d8fc6dfc0112a" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_webhook_deliveries_due" ON "webhook_deliveries"  ("next_attempt_at") WHERE "status" = \'pending\'',
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "uq_webhook_deliveries_message" ON "webhook_deliveries"  ("webhook_id", "message_id") ',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_webhook_deliveries_webhook" ON "webhook_deliveries"  ("webhook_id", "id") ',
    );
    await queryRunner.query(
      'ALTER TABLE "webhooks" ADD CONSTRAINT "FK_068d5e6029be1791955152235a3" FOREIGN KEY ("space_id") REFERENCES "spaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "FK_a0286aeb96db651efd1ae2966f2" FOREIGN KEY ("webhook_id") REFERENCES "webhooks"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "FK_a0286aeb96db651efd1ae2966f2"',
    );
    await queryRunner.query('ALTER TABLE "webhooks" DROP CONSTRAINT "FK_068d5e6029be1791955152235a3"');
    await queryRunner.query('DROP INDEX "public"."idx_webhook_deliveries_webhook"');
    await queryRunner.query('DROP INDEX "public"."uq_webhook_deliveries_message"');
    await queryRunner.query('DROP INDEX "public"."idx_webhook_deliveries_due"');
    await queryRunner.query('DROP TABLE "webhook_deliveries"');
    await queryRunner.query('DROP INDEX "public"."idx_webhooks_space"');
    await queryRunner.query('DROP TABLE "webhooks"');
  }
}
