import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The media module's table (design.md §11): one row per upload, its bytes in
 * MediaStorage. `idx_media_pending` serves the sweep of pending uploads past their URL's lifetime.
 */
export class Media1796000000000 implements MigrationInterface {
  name = 'Media1796000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "media" ("id" uuid NOT NULL, "space_id" uuid, "uploader_did" character varying(64) NOT NULL, "filename" character varying(255) NOT NULL, "content_type" character varying(100) NOT NULL, "kind" character varying(8) NOT NULL, "alt" text, "declared_length" bigint, "state" character varying(8) NOT NULL, "failure_reason" character varying(500), "storage_key" character varying(200), "content_length" bigint, "width" integer, "height" integer, "blur_hash" character varying(100), "duration_ms" integer, "waveform_peaks" jsonb, "poster_key" character varying(200), "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "uploaded_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "PK_f4e0fcac36e050de337b670d8bd" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_media_pending" ON "media"  ("created_at") WHERE "state" = \'pending\'',
    );
    await queryRunner.query('CREATE INDEX "idx_media_uploader" ON "media"  ("uploader_did", "created_at") ');
    await queryRunner.query(
      'ALTER TABLE "media" ADD CONSTRAINT "FK_ec641b41f351c38cce0d340f4f0" FOREIGN KEY ("space_id") REFERENCES "spaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "media" DROP CONSTRAINT "FK_ec641b41f351c38cce0d340f4f0"');
    await queryRunner.query('DROP INDEX "public"."idx_media_uploader"');
    await queryRunner.query('DROP INDEX "public"."idx_media_pending"');
    await queryRunner.query('DROP TABLE "media"');
  }
}
