import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Space exports (issue 35 item 4): `exports.space_id`, one export in progress per space (the
 * personal rule now only for personal exports), and the indexes a space's comments
 * and its files (docs/decisions/0215-space-exports-share-the-personal-machinery.md, 0216, 0217).
 */
export class SpaceExports1796920000000 implements MigrationInterface {
  name = 'SpaceExports1796920000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."uq_exports_owner_in_progress"');
    await queryRunner.query('ALTER TABLE "exports" ADD "space_id" uuid');
    await queryRunner.query(
      'CREATE UNIQUE INDEX "uq_exports_owner_in_progress" ON "exports" ("owner_did") WHERE "state" IN (\'queued\', \'running\') AND "space_id" IS NULL',
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "uq_exports_space_in_progress" ON "exports" ("space_id") WHERE "state" IN (\'queued\', \'running\') AND "space_id" IS NOT NULL',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_exports_space" ON "exports" ("space_id", "id") WHERE "space_id" IS NOT NULL',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_comments_space" ON "comments" ("space_id", "published_at", "id") ',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_media_space_ready" ON "media" ("space_id", "created_at", "id") WHERE "state" = \'ready\'',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."idx_media_space_ready"');
    await queryRunner.query('DROP INDEX "public"."idx_comments_space"');
    await queryRunner.query('DROP INDEX "public"."idx_exports_space"');
    await queryRunner.query('DROP INDEX "public"."uq_exports_space_in_progress"');
    await queryRunner.query('DROP INDEX "public"."uq_exports_owner_in_progress"');
    await queryRunner.query('ALTER TABLE "exports" DROP COLUMN "space_id"');
    await queryRunner.query(
      'CREATE UNIQUE INDEX "uq_exports_owner_in_progress" ON "exports" ("owner_did") WHERE "state" IN (\'queued\', \'running\')',
    );
  }
}
