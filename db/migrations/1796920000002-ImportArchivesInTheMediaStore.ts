import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An import's archive moves from a `bytea` column to the media store; the row keeps its key
 * (docs/decisions/0237-a-space-import-streams-its-archive-through-the-store.md). An import still
 * queued or running loses the bytes it would have read: its job finds no archive and fails it
 * (removing a half-made space), and its owner sends the archive again; a done one still to be
 * announced is announced no more (its space is whole).
 */
export class ImportArchivesInTheMediaStore1796920000002 implements MigrationInterface {
  name = 'ImportArchivesInTheMediaStore1796920000002';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "imports" DROP COLUMN "archive"');
    await queryRunner.query('ALTER TABLE "imports" ADD "archive_key" character varying(200)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "imports" DROP COLUMN "archive_key"');
    await queryRunner.query('ALTER TABLE "imports" ADD "archive" bytea');
  }
}
