import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The spaces module's SQL read API for joins other modules need for speed (docs/architecture.md):
 * live spaces and membership standings. Other modules name these views, never the tables, so the
 * spaces module can change its tables by changing the views with them.
 */
export class SpaceReadViews1795600000000 implements MigrationInterface {
  name = 'SpaceReadViews1795600000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE VIEW "live_spaces" AS SELECT "id", "did", "display_name" FROM "spaces" WHERE "deleted_at" IS NULL`,
    );
    await queryRunner.query(
      `CREATE VIEW "space_member_standings" AS SELECT "space_id", "member_did", "status", "role" FROM "space_memberships"`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP VIEW "space_member_standings"`);
    await queryRunner.query(`DROP VIEW "live_spaces"`);
  }
}
