import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `idx_media_space`: a space's uploads by state (`mediaUploadCountSummary` counts the ready ones;
 * deleting a space cascades to its media through it).
 */
export class MediaSpaceIndex1796300000000 implements MigrationInterface {
  name = 'MediaSpaceIndex1796300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE INDEX "idx_media_space" ON "media"  ("space_id", "state") ');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."idx_media_space"');
  }
}
