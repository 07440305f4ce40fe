import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Views that modules publish as their SQL read API, for the joins other modules need for speed
 * (docs/architecture.md). Other modules name these views, never the tables behind them, so an
 * owner can change its tables by changing its views with them.
 * - spaces: `live_spaces`, `space_member_standings` (any status), `active_space_members` (the one
 *   SQL form of "an active member of a live space") and `live_space_topics`;
 * - users: `public_users`, the accounts with a public profile;
 * - legacy-spaces: `space_applicants`, who applied to which space, in which status;
 * - memberships: `space_group_ids`, which groups a space has.
 */
export class PublishedReadViews1795600000000 implements MigrationInterface {
  name = 'PublishedReadViews1795600000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE VIEW "live_spaces" AS SELECT "id", "did", "domain", "display_name", "is_public", "member_count" FROM "spaces" WHERE "deleted_at" IS NULL`,
    );
    await queryRunner.query(
      `CREATE VIEW "space_member_standings" AS SELECT "space_id", "member_did", "status", "role", COALESCE("joined_at", "created_at") AS "joined_at" FROM "space_memberships"`,
    );
    await queryRunner.query(
      `CREATE VIEW "active_space_members" AS SELECT "m"."space_id", "m"."member_did", "m"."role", COALESCE("m"."joined_at", "m"."created_at") AS "joined_at" FROM "space_memberships" "m" JOIN "spaces" "s" ON "s"."id" = "m"."space_id" AND "s"."deleted_at" IS NULL WHERE "m"."status" = 'active'`,
    );
    await queryRunner.query(
      `CREATE VIEW "live_space_topics" AS SELECT "id", "space_id", "access_kind" FROM "space_topics" WHERE "deleted_at" IS NULL`,
    );
    await queryRunner.query(`CREATE VIEW "public_users" AS SELECT "id" FROM "users" WHERE "is_public"`);
    await queryRunner.query(
      `CREATE VIEW "space_applicants" AS SELECT "space_id", "applicant_did", "status" FROM "space_applications"`,
    );
    await queryRunner.query(`CREATE VIEW "space_group_ids" AS SELECT "id", "space_id" FROM "space_groups"`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP VIEW "space_group_ids"`);
    await queryRunner.query(`DROP VIEW "space_applicants"`);
    await queryRunner.query(`DROP VIEW "public_users"`);
    await queryRunner.query(`DROP VIEW "live_space_topics"`);
    await queryRunner.query(`DROP VIEW "active_space_members"`);
    await queryRunner.query(`DROP VIEW "space_member_standings"`);
    await queryRunner.query(`DROP VIEW "live_spaces"`);
  }
}
