import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Views that modules publish as their SQL read API (the users module: `public_users`, the ids of
 * accounts with a public profile). The spaces module's SQL read API for joins other modules need for speed (docs/architecture.md):
 * live spaces, membership standings and live topics. Other modules name these views, never the tables, so the
 * spaces module can change its tables by changing the views with them.
 */
export class SpaceReadViews1795600000000 implements MigrationInterface {
  name = 'SpaceReadViews1795600000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE VIEW "live_spaces" AS SELECT "id", "did", "domain", "display_name", "is_public", "member_count" FROM "spaces" WHERE "deleted_at" IS NULL`,
    );
    await queryRunner.query(
      `CREATE VIEW "space_member_standings" AS SELECT "space_id", "member_did", "status", "role", COALESCE("joined_at", "created_at") AS "joined_at" FROM "space_memberships"`,
    );
    await queryRunner.query(`CREATE VIEW "public_users" AS SELECT "id" FROM "users" WHERE "is_public"`);
    await queryRunner.query(
      `CREATE VIEW "live_space_topics" AS SELECT "id", "space_id", "access_kind" FROM "space_topics" WHERE "deleted_at" IS NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP VIEW "public_users"`);
    await queryRunner.query(`DROP VIEW "live_space_topics"`);
    await queryRunner.query(`DROP VIEW "space_member_standings"`);
    await queryRunner.query(`DROP VIEW "live_spaces"`);
  }
}
