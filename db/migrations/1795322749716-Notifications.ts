import { MigrationInterface, QueryRunner } from 'typeorm';

export class Notifications1795322749716 implements MigrationInterface {
  name = 'Notifications1795322749716';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "notifications" ("id" uuid NOT NULL, "recipient_did" character varying(64) NOT NULL, "type" character varying(64) NOT NULL, "space_id" uuid NOT NULL, "audience" character varying(16) NOT NULL, "group_key" character varying(200) NOT NULL, "scope" jsonb NOT NULL, "aggregation_type" character varying(16) NOT NULL, "people" jsonb NOT NULL DEFAULT \'[]\', "read_state" character varying(8) NOT NULL, "first_activity_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "last_activity_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "last_read_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_6a72c3c0f683f6462415e653c3a" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_notifications_recipient_space" ON "notifications" ("recipient_did", "space_id", "last_activity_at") ',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_notifications_recipient_activity" ON "notifications" ("recipient_did", "last_activity_at", "id") ',
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "uq_notifications_unread_group" ON "notifications" ("recipient_did", "group_key") WHERE "read_state" = \'unread\'',
    );
    await queryRunner.query(
      'ALTER TABLE "notifications" ADD CONSTRAINT "FK_e6ed86b7c19415b9a925c2814c9" FOREIGN KEY ("space_id") REFERENCES "spaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "notifications" DROP CONSTRAINT "FK_e6ed86b7c19415b9a925c2814c9"');
    await queryRunner.query('DROP INDEX "public"."uq_notifications_unread_group"');
    await queryRunner.query('DROP INDEX "public"."idx_notifications_recipient_activity"');
    await queryRunner.query('DROP INDEX "public"."idx_notifications_recipient_space"');
    await queryRunner.query('DROP TABLE "notifications"');
  }
}
