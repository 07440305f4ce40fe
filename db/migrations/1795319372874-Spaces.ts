import { MigrationInterface, QueryRunner } from 'typeorm';

export class Spaces1795319372874 implements MigrationInterface {
  name = 'Spaces1795319372874';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "spaces" ("id" uuid NOT NULL, "did" character varying(64) NOT NULL, "domain" character varying(63) NOT NULL, "display_name" character varying(100), "description" character varying(1000), "avatar_media_id" uuid, "header_media_id" uuid, "background_media_id" uuid, "links" jsonb NOT NULL DEFAULT \'[]\'::jsonb, "join_mode" character varying(16) NOT NULL DEFAULT \'closed\', "is_public" boolean NOT NULL DEFAULT false, "site_mode" character varying(16) NOT NULL DEFAULT \'join\', "subscribe_enabled" boolean NOT NULL DEFAULT false, "category" character varying(64), "discovery_opt_in" boolean NOT NULL DEFAULT false, "verified_domain" character varying(253), "application_questions" jsonb NOT NULL DEFAULT \'[]\'::jsonb, "member_count" integer NOT NULL DEFAULT \'0\', "profile_content_id" character varying(31), "profile_head_cid" character varying(80), "last_activity_at" TIMESTAMP(3) WITH TIME ZONE, "deleted_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_dbe542974aca57afcb60709d4c8" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE UNIQUE INDEX "uq_spaces_did" ON "spaces" ("did") ');
    await queryRunner.query(
      'CREATE INDEX "idx_spaces_directory_opt_in" ON "spaces" ("discovery_opt_in", "last_activity_at", "id") WHERE "is_public" AND "deleted_at" IS NULL',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_spaces_directory_category" ON "spaces" ("category", "last_activity_at", "id") WHERE "is_public" AND "deleted_at" IS NULL',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_spaces_directory_join_mode" ON "spaces" ("join_mode", "last_activity_at", "id") WHERE "is_public" AND "deleted_at" IS NULL',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_spaces_directory" ON "spaces" ("last_activity_at", "id") WHERE "is_public" AND "deleted_at" IS NULL',
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "uq_spaces_domain" ON "spaces" ("domain") WHERE "deleted_at" IS NULL',
    );
    await queryRunner.query(
      'CREATE TABLE "space_memberships" ("space_id" uuid NOT NULL, "member_did" character varying(64) NOT NULL, "role" character varying(16) NOT NULL, "status" character varying(16) NOT NULL, "joined_at" TIMESTAMP(3) WITH TIME ZONE, "status_message" character varying(280), "banned_at" TIMESTAMP(3) WITH TIME ZONE, "banned_by_did" character varying(64), "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_3e1db4089f987caa6b4ca036786" PRIMARY KEY ("space_id", "member_did"))',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_space_memberships_banned" ON "space_memberships" ("space_id", "banned_at", "member_did") WHERE "status" = \'banned\'',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_space_memberships_active_by_member" ON "space_memberships" ("member_did", "joined_at", "space_id") WHERE "status" = \'active\'',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_space_memberships_active_by_space" ON "space_memberships" ("space_id", "joined_at", "member_did") WHERE "status" = \'active\'',
    );
    await queryRunner.query(
      'CREATE TABLE "space_invites" ("id" uuid NOT NULL, "space_id" uuid NOT NULL, "creator_did" character varying(64) NOT NULL, "code" character varying(32) NOT NULL, "max_uses" integer NOT NULL, "uses" integer NOT NULL DEFAULT \'0\', "join_mode_override" character varying(16) NOT NULL, "expires_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "revoked_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_ea96fe3395e9b35d6b561884939" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE UNIQUE INDEX "uq_space_invites_code" ON "space_invites" ("code") ');
    await queryRunner.query(
      'CREATE UNIQUE INDEX "uq_space_invites_current" ON "space_invites" ("space_id", "creator_did") WHERE "revoked_at" IS NULL',
    );
    await queryRunner.query(
      'CREATE TABLE "space_applications" ("id" uuid NOT NULL, "space_id" uuid NOT NULL, "applicant_did" character varying(64) NOT NULL, "status" character varying(16) NOT NULL, "responses" jsonb NOT NULL DEFAULT \'[]\'::jsonb, "invite_id" uuid, "submitted_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "decided_at" TIMESTAMP(3) WITH TIME ZONE, "decided_by_did" character varying(64), "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_627068e95258cb81b356e85fc36" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_space_applications_applicant" ON "space_applications" ("applicant_did", "space_id", "submitted_at") ',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_space_applications_queue" ON "space_applications" ("space_id", "status", "submitted_at", "id") ',
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "uq_space_applications_pending" ON "space_applications" ("space_id", "applicant_did") WHERE "status" = \'pending\'',
    );
    await queryRunner.query(
      'ALTER TABLE "space_memberships" ADD CONSTRAINT "FK_705734d9b67963690b3ae303071" FOREIGN KEY ("space_id") REFERENCES "spaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "space_invites" ADD CONSTRAINT "FK_cb68cb74961b099054c1f0f6998" FOREIGN KEY ("space_id") REFERENCES "spaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "space_applications" ADD CONSTRAINT "FK_900c9188d45340932c1a9af4723" FOREIGN KEY ("space_id") REFERENCES "spaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE "space_applications" DROP CONSTRAINT "FK_900c9188d45340932c1a9af4723"',
    );
    await queryRunner.query('ALTER TABLE "space_invites" DROP CONSTRAINT "FK_cb68cb74961b099054c1f0f6998"');
    await queryRunner.query(
      'ALTER TABLE "space_memberships" DROP CONSTRAINT "FK_705734d9b67963690b3ae303071"',
    );
    await queryRunner.query('DROP INDEX "public"."uq_space_applications_pending"');
    await queryRunner.query('DROP INDEX "public"."idx_space_applications_queue"');
    await queryRunner.query('DROP INDEX "public"."idx_space_applications_applicant"');
    await queryRunner.query('DROP TABLE "space_applications"');
    await queryRunner.query('DROP INDEX "public"."uq_space_invites_current"');
    await queryRunner.query('DROP INDEX "public"."uq_space_invites_code"');
    await queryRunner.query('DROP TABLE "space_invites"');
    await queryRunner.query('DROP INDEX "public"."idx_space_memberships_active_by_space"');
    await queryRunner.query('DROP INDEX "public"."idx_space_memberships_active_by_member"');
    await queryRunner.query('DROP INDEX "public"."idx_space_memberships_banned"');
    await queryRunner.query('DROP TABLE "space_memberships"');
    await queryRunner.query('DROP INDEX "public"."uq_spaces_domain"');
    await queryRunner.query('DROP INDEX "public"."idx_spaces_directory"');
    await queryRunner.query('DROP INDEX "public"."idx_spaces_directory_join_mode"');
    await queryRunner.query('DROP INDEX "public"."idx_spaces_directory_category"');
    await queryRunner.query('DROP INDEX "public"."idx_spaces_directory_opt_in"');
    await queryRunner.query('DROP INDEX "public"."uq_spaces_did"');
    await queryRunner.query('DROP TABLE "spaces"');
  }
}
