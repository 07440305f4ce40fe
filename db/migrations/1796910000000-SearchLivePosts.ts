import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The posts' search view names only live posts (docs/decisions/0185-bounded-search-work.md): a
 * deleted post's vector is already null, so nothing it finds changes, but with `deleted_at IS NULL`
 * in the view the planner may AND the GIN index's matches with the partial recency btrees
 * (`idx_posts_space_recent`, `idx_posts_topic_recent`) and read only a window's rows.
 */
export class SearchLivePosts1796910000000 implements MigrationInterface {
  name = 'SearchLivePosts1796910000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE OR REPLACE VIEW "searchable_posts" AS SELECT "id", "space_id", "topic_id", "published_at" AS "recency", "search_vector" AS "vector", "plat_post_search_document"("title", "body") AS "document" FROM "posts" WHERE "deleted_at" IS NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE OR REPLACE VIEW "searchable_posts" AS SELECT "id", "space_id", "topic_id", "published_at" AS "recency", "search_vector" AS "vector", "plat_post_search_document"("title", "body") AS "document" FROM "posts"`,
    );
  }
}
