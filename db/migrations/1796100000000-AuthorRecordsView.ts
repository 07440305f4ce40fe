import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The users module publishes `author_records` (api-spec.md "Author": the DID, handle and display
 * name of every account) for writes that answer with their author's record from the statement that
 * wrote them (docs/decisions/0075-the-post-write-in-7-statements.md: a post create reads its author within its insert).
 */
export class AuthorRecordsView1796100000000 implements MigrationInterface {
  name = 'AuthorRecordsView1796100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE VIEW "author_records" AS SELECT "did", "handle", "display_name" FROM "users"`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP VIEW "author_records"`);
  }
}
