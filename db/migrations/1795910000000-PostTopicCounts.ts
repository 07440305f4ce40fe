import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Live posts per topic and format, kept by the posts module in every post write's transaction
 * (docs/decisions/0066-counts-without-scanning.md): listings and `privatePostCountSummary` sum these rows instead of counting
 * posts. Backfilled from the posts already stored.
 */
export class PostTopicCounts1795910000000 implements MigrationInterface {
  name = 'PostTopicCounts1795910000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "post_topic_counts" ("topic_id" uuid NOT NULL, "space_id" uuid NOT NULL, "short_posts" integer NOT NULL DEFAULT \'0\', "long_posts" integer NOT NULL DEFAULT \'0\', CONSTRAINT "PK_0ee622dfa2d7a5fcc50811a18b8" PRIMARY KEY ("topic_id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_post_topic_counts_space" ON "post_topic_counts"  ("space_id") ',
    );
    await queryRunner.query(
      'ALTER TABLE "post_topic_counts" ADD CONSTRAINT "FK_0ee622dfa2d7a5fcc50811a18b8" FOREIGN KEY ("topic_id") REFERENCES "space_topics"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "post_topic_counts" ADD CONSTRAINT "FK_1b3df4423c13c9f04b9a2d6d8ed" FOREIGN KEY ("space_id") REFERENCES "spaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      `INSERT INTO "post_topic_counts" ("topic_id", "space_id", "short_posts", "long_posts")
       SELECT "topic_id", "space_id",
              count(*) FILTER (WHERE "title" IS NULL), count(*) FILTER (WHERE "title" IS NOT NULL)
       FROM "posts" WHERE "deleted_at" IS NULL GROUP BY "topic_id", "space_id"`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE "post_topic_counts" DROP CONSTRAINT "FK_1b3df4423c13c9f04b9a2d6d8ed"',
    );
    await queryRunner.query(
      'ALTER TABLE "post_topic_counts" DROP CONSTRAINT "FK_0ee622dfa2d7a5fcc50811a18b8"',
    );
    await queryRunner.query('DROP INDEX "public"."idx_post_topic_counts_space"');
    await queryRunner.query('DROP TABLE "post_topic_counts"');
  }
}
