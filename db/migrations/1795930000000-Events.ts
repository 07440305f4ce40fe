import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The events module's tables (docs/decisions/0069-materialized-bounded-event-occurrences.md): events, their occurrence overrides, the materialized
 * occurrences and the horizon they cover. Also the spaces module's published view
 * `discoverable_spaces`: the spaces `GET /v1/spaces` lists (live, public profile, some recorded
 * activity), which the cross-space upcoming feed joins.
 */
export class Events1795930000000 implements MigrationInterface {
  name = 'Events1795930000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "events" ("id" uuid NOT NULL, "space_id" uuid NOT NULL, "title" character varying(200) NOT NULL, "description" text, "location" character varying(500), "type" character varying(16) NOT NULL, "mode" character varying(16), "url" character varying(2048), "is_all_day" boolean NOT NULL, "starts_at" TIMESTAMP(3) WITH TIME ZONE, "ends_at" TIMESTAMP(3) WITH TIME ZONE, "time_zone" character varying(64), "start_date" character varying(10), "end_date" character varying(10), "rrule" character varying(500), "cover_media_id" uuid, "requires_ticket" boolean NOT NULL DEFAULT false, "ticket_product_ids" jsonb NOT NULL DEFAULT \'[]\', "visibility" character varying(16) NOT NULL, "window_span_ms" bigint NOT NULL, "first_start" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "last_end" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_40731c7151fe4be3116e45ddf73" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE INDEX "idx_events_window_span" ON "events"  ("window_span_ms") ');
    await queryRunner.query('CREATE INDEX "idx_events_space" ON "events"  ("space_id") ');
    await queryRunner.query(
      'CREATE TABLE "event_occurrences" ("event_id" uuid NOT NULL, "recurrence_id" character varying(19) COLLATE "C" NOT NULL, "space_id" uuid NOT NULL, "starts_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "ends_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "PK_09a0b556c82bcc253f1d2df7ac0" PRIMARY KEY ("event_id", "recurrence_id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_event_occurrences_space_order" ON "event_occurrences"  ("space_id", "starts_at", "event_id", "recurrence_id") ',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_event_occurrences_order" ON "event_occurrences"  ("starts_at", "event_id", "recurrence_id") ',
    );
    await queryRunner.query(
      'CREATE TABLE "event_occurrence_horizon" ("id" smallint NOT NULL, "materialized_from" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "materialized_until" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_bcc51ccb96ec5cfbe5d0ea235b0" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE TABLE "event_occurrence_overrides" ("event_id" uuid NOT NULL, "recurrence_id" character varying(19) COLLATE "C" NOT NULL, "cover_media_id" uuid, "canceled" boolean NOT NULL DEFAULT false, CONSTRAINT "PK_949872e2bb4dc60e15fe45c0cd5" PRIMARY KEY ("event_id", "recurrence_id"))',
    );
    await queryRunner.query(
      'ALTER TABLE "events" ADD CONSTRAINT "FK_6250c2b994c6e51ddf775838f8d" FOREIGN KEY ("space_id") REFERENCES "spaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "event_occurrences" ADD CONSTRAINT "FK_2ea7174f7a236c487a87519cecd" FOREIGN KEY ("event_id") REFERENCES "events"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "event_occurrence_overrides" ADD CONSTRAINT "FK_5710c754e880d7ec71d3b559ddc" FOREIGN KEY ("event_id") REFERENCES "events"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'CREATE VIEW "discoverable_spaces" AS SELECT "id", "did", "domain", "display_name" FROM "spaces" WHERE "deleted_at" IS NULL AND "is_public" AND "last_activity_at" IS NOT NULL',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP VIEW "discoverable_spaces"');
    await queryRunner.query(
      'ALTER TABLE "event_occurrence_overrides" DROP CONSTRAINT "FK_5710c754e880d7ec71d3b559ddc"',
    );
    await queryRunner.query(
      'ALTER TABLE "event_occurrences" DROP CONSTRAINT "FK_2ea7174f7a236c487a87519cecd"',
    );
    await queryRunner.query('ALTER TABLE "events" DROP CONSTRAINT "FK_6250c2b994c6e51ddf775838f8d"');
    await queryRunner.query('DROP TABLE "event_occurrence_overrides"');
    await queryRunner.query('DROP TABLE "event_occurrence_horizon"');
    await queryRunner.query('DROP INDEX "public"."idx_event_occurrences_order"');
    await queryRunner.query('DROP INDEX "public"."idx_event_occurrences_space_order"');
    await queryRunner.query('DROP TABLE "event_occurrences"');
    await queryRunner.query('DROP INDEX "public"."idx_events_space"');
    await queryRunner.query('DROP INDEX "public"."idx_events_window_span"');
    await queryRunner.query('DROP TABLE "events"');
  }
}
