import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Published views carry the media ids others render (docs/decisions/0077-media-wiring.md): the avatar of
 * a space on `live_spaces` and `discoverable_spaces`, the avatar of a person on `author_records`.
 * Readers join the view for the id and ask the media module for the URL (one query per page).
 */
export class MediaReferenceViews1796200000000 implements MigrationInterface {
  name = 'MediaReferenceViews1796200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE OR REPLACE VIEW "live_spaces" AS SELECT "id", "did", "domain", "display_name", "is_public", "member_count", "avatar_media_id" FROM "spaces" WHERE "deleted_at" IS NULL`,
    );
    await queryRunner.query(
      'CREATE OR REPLACE VIEW "discoverable_spaces" AS SELECT "id", "did", "domain", "display_name", "avatar_media_id" FROM "spaces" WHERE "deleted_at" IS NULL AND "is_public" AND "last_activity_at" IS NOT NULL',
    );
    await queryRunner.query(
      `CREATE OR REPLACE VIEW "author_records" AS SELECT "did", "handle", "display_name", "avatar_id" FROM "users"`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP VIEW "author_records"`);
    await queryRunner.query(
      `CREATE VIEW "author_records" AS SELECT "did", "handle", "display_name" FROM "users"`,
    );
    await queryRunner.query('DROP VIEW "discoverable_spaces"');
    await queryRunner.query(
      'CREATE VIEW "discoverable_spaces" AS SELECT "id", "did", "domain", "display_name" FROM "spaces" WHERE "deleted_at" IS NULL AND "is_public" AND "last_activity_at" IS NOT NULL',
    );
    await queryRunner.query(`DROP VIEW "live_spaces"`);
    await queryRunner.query(
      `CREATE VIEW "live_spaces" AS SELECT "id", "did", "domain", "display_name", "is_public", "member_count" FROM "spaces" WHERE "deleted_at" IS NULL`,
    );
  }
}
