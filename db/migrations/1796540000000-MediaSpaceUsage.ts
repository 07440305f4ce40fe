import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `media_space_usage`: the bytes of uploads each space holds in storage, kept by
 * the media module in each write that stores or drops an upload's bytes; filled here from the
 * media already stored (uploaded, not failed). docs/decisions/0114-media-upload-quota.md.
 */
export class MediaSpaceUsage1796540000000 implements MigrationInterface {
  name = 'MediaSpaceUsage1796540000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "media_space_usage" ("space_id" uuid NOT NULL, "stored_bytes" bigint NOT NULL DEFAULT '0', CONSTRAINT "PK_172483871c630ff1795c7bf5aaa" PRIMARY KEY ("space_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "media_space_usage" ADD CONSTRAINT "FK_172483871c630ff1795c7bf5aaa" FOREIGN KEY ("space_id") REFERENCES "spaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `INSERT INTO "media_space_usage" ("space_id", "stored_bytes") SELECT "space_id", SUM("content_length") FROM "media" WHERE "space_id" IS NOT NULL AND "uploaded_at" IS NOT NULL AND "state" <> 'failed' AND "content_length" IS NOT NULL GROUP BY "space_id"`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "media_space_usage" DROP CONSTRAINT "FK_172483871c630ff1795c7bf5aaa"`,
    );
    await queryRunner.query(`DROP TABLE "media_space_usage"`);
  }
}
