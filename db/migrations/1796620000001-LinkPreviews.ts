import { MigrationInterface, QueryRunner } from 'typeorm';

/** `link_previews`: one record per normalized URL (src/link-previews/entities/link-preview.entity.ts). */
export class LinkPreviews1796620000001 implements MigrationInterface {
  name = 'LinkPreviews1796620000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "link_previews" ("url" character varying(2048) NOT NULL, "canonical_url" character varying(2048), "title" character varying(300), "description" character varying(1000), "site_name" character varying(200), "image_media_id" uuid, "favicon_media_id" uuid, "outcome" character varying(16) NOT NULL, "reason" character varying(300), "fetched_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "expires_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "attempts" integer NOT NULL DEFAULT \'0\', CONSTRAINT "PK_d21b16a614bcd33be15bfd31193" PRIMARY KEY ("url"))',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "link_previews"');
  }
}
