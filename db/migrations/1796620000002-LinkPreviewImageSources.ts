import { MigrationInterface, QueryRunner } from 'typeorm';

/** `link_previews`: where each image came from, so a shared one (a favicon) is kept once. */
export class LinkPreviewImageSources1796620000002 implements MigrationInterface {
  name = 'LinkPreviewImageSources1796620000002';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "link_previews" ADD "image_source_url" character varying(2048)');
    await queryRunner.query('ALTER TABLE "link_previews" ADD "favicon_source_url" character varying(2048)');
    await queryRunner.query(
      'CREATE INDEX "idx_link_previews_favicon_source" ON "link_previews"  ("favicon_source_url") ',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_link_previews_image_source" ON "link_previews"  ("image_source_url") ',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."idx_link_previews_image_source"');
    await queryRunner.query('DROP INDEX "public"."idx_link_previews_favicon_source"');
    await queryRunner.query('ALTER TABLE "link_previews" DROP COLUMN "favicon_source_url"');
    await queryRunner.query('ALTER TABLE "link_previews" DROP COLUMN "image_source_url"');
  }
}
