import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Space exports (issue 35 item 4): `exports.space_id`, one export in progress per space (the
 * personal rule now only for personal exports), and the index a space's comments are exported by
 * (docs/decisions/0215-space-exports-share-the-personal-machinery.md, 0216).
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
  }

  async down(queryRunner: QueryRunner): Promise<void> {
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
