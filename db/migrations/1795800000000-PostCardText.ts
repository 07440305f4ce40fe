import { MigrationInterface, QueryRunner } from 'typeorm';
import { displayTitleOf, excerptOf } from '../../src/posts/domain/post-text';

/** Posts read per backfill batch (bodies are up to 100,000 characters). */
const BATCH = 200;

/**
 * Card text kept with the post (docs/decisions/0057-card-text-is-kept-with-the-post.md): `excerpt` and `display_title`, stamped
 * `card_text_at` with the `updated_at` they were computed from. Existing rows are backfilled here
 * in batches with the text rules themselves (markdown stripping and grapheme-aware truncation have
 * no SQL equivalent), so a listing never needs a row's body.
 */
export class PostCardText1795800000000 implements MigrationInterface {
  name = 'PostCardText1795800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "posts" ADD "excerpt" text');
    await queryRunner.query('ALTER TABLE "posts" ADD "display_title" text');
    await queryRunner.query('ALTER TABLE "posts" ADD "card_text_at" TIMESTAMP(3) WITH TIME ZONE');
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const rows: { id: string; title: string | null; body: string }[] = await queryRunner.query(
        'SELECT "id", "title", "body" FROM "posts" WHERE "id" > $1 ORDER BY "id" LIMIT $2',
        [after, BATCH],
      );
      if (rows.length === 0) break;
      await queryRunner.query(
        `UPDATE "posts" AS p SET "excerpt" = v."excerpt", "display_title" = v."display_title",
           "card_text_at" = p."updated_at"
         FROM unnest($1::uuid[], $2::text[], $3::text[]) AS v("id", "excerpt", "display_title")
         WHERE p."id" = v."id"`,
        [
          rows.map((row) => row.id),
          rows.map((row) => excerptOf(row.body)),
          rows.map((row) => displayTitleOf(row.title, row.body)),
        ],
      );
      after = rows[rows.length - 1].id;
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "posts" DROP COLUMN "card_text_at"');
    await queryRunner.query('ALTER TABLE "posts" DROP COLUMN "display_title"');
    await queryRunner.query('ALTER TABLE "posts" DROP COLUMN "excerpt"');
  }
}
