import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Full-text search over posts, comments, pages and events
 * (docs/decisions/0180-search-indexes-on-the-owners-tables.md): the `plat_search` text search
 * configuration (`simple` with `unaccent` in front, so accents fold both in documents and queries and
 * `ts_headline` marks the accented words), one immutable function per kind giving its document and
 * its vector, a partial GIN expression index on each owner's live rows (kept by PostgreSQL in the
 * writing transaction: no statement added to any write), and the view each owner publishes for the
 * search module to read them by.
 */
export class Search1796620000003 implements MigrationInterface {
  name = 'Search1796620000003';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE EXTENSION IF NOT EXISTS "unaccent"');
    // btree_gin: one GIN index on (topic, vector), so a search within topics reads only their matches.
    await queryRunner.query('CREATE EXTENSION IF NOT EXISTS "btree_gin"');
    await queryRunner.query('CREATE TEXT SEARCH CONFIGURATION "plat_search" (COPY = pg_catalog.simple)');
    await queryRunner.query(
      'ALTER TEXT SEARCH CONFIGURATION "plat_search" ALTER MAPPING FOR hword, hword_part, word WITH "unaccent", simple',
    );
    // Documents: what a reader of the listing can read, so a search never finds more. A post's body
    // counts above its fold marker only (api-spec.md "Fold rule": nobody reads below it).
    await queryRunner.query(
      `CREATE FUNCTION "plat_post_search_document"("title" text, "body" text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT CASE WHEN "title" IS NULL OR "title" = '' THEN split_part("body", '<!--fold-->', 1) ELSE "title" || E'\\n' || split_part("body", '<!--fold-->', 1) END $$`,
    );
    await queryRunner.query(
      `CREATE FUNCTION "plat_post_search_vector"("title" text, "body" text) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT setweight(to_tsvector('plat_search'::regconfig, coalesce("title", '')), 'A') || setweight(to_tsvector('plat_search'::regconfig, split_part("body", '<!--fold-->', 1)), 'B') $$`,
    );
    await queryRunner.query(
      `CREATE FUNCTION "plat_titled_search_document"("title" text, "body" text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT "title" || E'\\n' || coalesce("body", '') $$`,
    );
    await queryRunner.query(
      `CREATE FUNCTION "plat_titled_search_vector"("title" text, "body" text) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT setweight(to_tsvector('plat_search'::regconfig, "title"), 'A') || setweight(to_tsvector('plat_search'::regconfig, coalesce("body", '')), 'B') $$`,
    );
    await queryRunner.query(
      `CREATE FUNCTION "plat_comment_search_vector"("body" text) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT setweight(to_tsvector('plat_search'::regconfig, coalesce("body", '')), 'B') $$`,
    );
    // The query: websearch syntax, and the last word a prefix while the reader types it
    // (docs/decisions/0181-search-query-and-ranking.md).
    await queryRunner.query(
      `CREATE FUNCTION "plat_search_query"("q" text, "prefix" text, "alternative" boolean) RETURNS tsquery LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT CASE WHEN "prefix" IS NULL THEN websearch_to_tsquery('plat_search'::regconfig, "q") WHEN "alternative" THEN websearch_to_tsquery('plat_search'::regconfig, "q") || to_tsquery('plat_search'::regconfig, "prefix" || ':*') ELSE websearch_to_tsquery('plat_search'::regconfig, "q") && to_tsquery('plat_search'::regconfig, "prefix" || ':*') END $$`,
    );
    // Each owner's table keeps its vector in a column a trigger sets in the writing statement (no
    // statement added to any write; ranking reads the stored vector instead of parsing every hit).
    const kinds: [table: string, vector: string, columns: string][] = [
      // A deleted post's vector is null: it matches nothing from the statement that deletes it.
      [
        'posts',
        'CASE WHEN NEW."deleted_at" IS NULL THEN plat_post_search_vector(NEW."title", NEW."body") END',
        '"title", "body", "deleted_at"',
      ],
      ['comments', 'plat_comment_search_vector(NEW."body")', '"body"'],
      ['space_pages', 'plat_titled_search_vector(NEW."title", NEW."body")', '"title", "body"'],
      [
        'events',
        `plat_titled_search_vector(NEW."title", coalesce(NEW."description", '') || E'\\n' || coalesce(NEW."location", ''))`,
        '"title", "description", "location"',
      ],
    ];
    for (const [table, vector, columns] of kinds) {
      await queryRunner.query(`ALTER TABLE "${table}" ADD "search_vector" tsvector`);
      await queryRunner.query(
        `CREATE FUNCTION "plat_${table}_search_vector_set"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW."search_vector" := ${vector}; RETURN NEW; END $$`,
      );
      await queryRunner.query(
        `CREATE TRIGGER "trg_${table}_search_vector" BEFORE INSERT OR UPDATE OF ${columns} ON "${table}" FOR EACH ROW EXECUTE FUNCTION "plat_${table}_search_vector_set"()`,
      );
      await queryRunner.query(`UPDATE "${table}" SET ${columns.split(', ')[0]} = ${columns.split(', ')[0]}`);
    }
    // fastupdate off: a write's terms are in the index when it commits, and no search pays for a
    // pending list (as idx_relay_documents_display_name_trgm).
    await queryRunner.query(
      'CREATE INDEX "idx_posts_search" ON "posts" USING gin ("topic_id", "search_vector") WITH (fastupdate = off)',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_comments_search" ON "comments" USING gin ("search_vector") WITH (fastupdate = off) WHERE "deleted_at" IS NULL',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_space_pages_search" ON "space_pages" USING gin ("search_vector") WITH (fastupdate = off) WHERE "enabled"',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_events_search" ON "events" USING gin ("search_vector") WITH (fastupdate = off) WHERE "visibility" = \'public\'',
    );
    await queryRunner.query(
      `CREATE VIEW "searchable_posts" AS SELECT "id", "space_id", "topic_id", "published_at" AS "recency", "search_vector" AS "vector", "plat_post_search_document"("title", "body") AS "document" FROM "posts"`,
    );
    await queryRunner.query(
      `CREATE VIEW "searchable_comments" AS SELECT "id", "space_id", "post_id", "published_at" AS "recency", "search_vector" AS "vector", coalesce("body", '') AS "document" FROM "comments" WHERE "deleted_at" IS NULL`,
    );
    await queryRunner.query(
      `CREATE VIEW "searchable_pages" AS SELECT "id", "space_id", "updated_at" AS "recency", "search_vector" AS "vector", "plat_titled_search_document"("title", "body") AS "document" FROM "space_pages" WHERE "enabled"`,
    );
    await queryRunner.query(
      `CREATE VIEW "searchable_events" AS SELECT "id", "space_id", "updated_at" AS "recency", "search_vector" AS "vector", "plat_titled_search_document"("title", coalesce("description", '') || E'\\n' || coalesce("location", '')) AS "document", "last_end" AS "ends_at" FROM "events" WHERE "visibility" = 'public'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const view of ['searchable_events', 'searchable_pages', 'searchable_comments', 'searchable_posts']) {
      await queryRunner.query(`DROP VIEW "${view}"`);
    }
    for (const index of [
      'idx_events_search',
      'idx_space_pages_search',
      'idx_comments_search',
      'idx_posts_search',
    ]) {
      await queryRunner.query(`DROP INDEX "${index}"`);
    }
    for (const table of ['events', 'space_pages', 'comments', 'posts']) {
      await queryRunner.query(`DROP TRIGGER "trg_${table}_search_vector" ON "${table}"`);
      await queryRunner.query(`DROP FUNCTION "plat_${table}_search_vector_set"()`);
      await queryRunner.query(`ALTER TABLE "${table}" DROP COLUMN "search_vector"`);
    }
    await queryRunner.query('DROP FUNCTION "plat_search_query"(text, text, boolean)');
    await queryRunner.query('DROP FUNCTION "plat_comment_search_vector"(text)');
    await queryRunner.query('DROP FUNCTION "plat_titled_search_vector"(text, text)');
    await queryRunner.query('DROP FUNCTION "plat_titled_search_document"(text, text)');
    await queryRunner.query('DROP FUNCTION "plat_post_search_vector"(text, text)');
    await queryRunner.query('DROP FUNCTION "plat_post_search_document"(text, text)');
    await queryRunner.query('DROP TEXT SEARCH CONFIGURATION "plat_search"');
    await queryRunner.query('DROP EXTENSION IF EXISTS "btree_gin"');
  }
}
