import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Content notifications (docs/decisions/0049-content-notifications.md): a notification may be about a post (`post_id`), shown only
 * while its recipient can read that post; `item_count` counts a group's items, so a `post` group
 * keeps only a sample of its posts in `people` (a busy space's group would otherwise grow without
 * bound); a post's announcement to its space is a background job
 * whose progress `notification_fanouts` records, so a retried job resumes instead of repeating.
 * Published views for the read-time check:
 * - posts: `live_posts`, the live posts with their topic, author and card title;
 * - spaces: `live_space_topics` gains `access_group_ids` (the groups of a `groups` topic);
 * - memberships: `group_members`, who is in which group.
 */
export class ContentNotifications1796400000000 implements MigrationInterface {
  name = 'ContentNotifications1796400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "notifications" ADD "post_id" uuid`);
    await queryRunner.query(`ALTER TABLE "notifications" ADD "item_count" integer NOT NULL DEFAULT 0`);
    await queryRunner.query(`UPDATE "notifications" SET "item_count" = jsonb_array_length("people")`);
    await queryRunner.query(
      `CREATE TABLE "notification_fanouts" ("key" character varying(200) NOT NULL, "after_did" character varying(64), "done_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_notification_fanouts" PRIMARY KEY ("key"))`,
    );
    await queryRunner.query(
      `CREATE VIEW "live_posts" AS SELECT "id", "space_id", "topic_id", "author_did", "display_title" FROM "posts" WHERE "deleted_at" IS NULL`,
    );
    await queryRunner.query(
      `CREATE OR REPLACE VIEW "live_space_topics" AS SELECT "id", "space_id", "access_kind", "access_group_ids" FROM "space_topics" WHERE "deleted_at" IS NULL`,
    );
    await queryRunner.query(
      `CREATE VIEW "group_members" AS SELECT "group_id", "member_did" FROM "group_memberships"`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP VIEW "group_members"`);
    await queryRunner.query(`DROP VIEW "live_space_topics"`);
    await queryRunner.query(
      `CREATE VIEW "live_space_topics" AS SELECT "id", "space_id", "access_kind" FROM "space_topics" WHERE "deleted_at" IS NULL`,
    );
    await queryRunner.query(`DROP VIEW "live_posts"`);
    await queryRunner.query(`DROP TABLE "notification_fanouts"`);
    await queryRunner.query(`ALTER TABLE "notifications" DROP COLUMN "item_count"`);
    await queryRunner.query(`ALTER TABLE "notifications" DROP COLUMN "post_id"`);
  }
}
