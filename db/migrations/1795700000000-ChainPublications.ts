import { MigrationInterface, QueryRunner } from 'typeorm';

export class ChainPublications1795700000000 implements MigrationInterface {
  name = 'ChainPublications1795700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "chain_publications" ("owner" character varying(32) NOT NULL, "subject_id" uuid NOT NULL, "start_new_chain" boolean NOT NULL, "version" integer NOT NULL, "attempts" integer NOT NULL, "due_at" TIMESTAMP WITH TIME ZONE NOT NULL, "last_error" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_7cca8a0e18d53af1433b30298cc" PRIMARY KEY ("owner", "subject_id"))',
    );
    await queryRunner.query('CREATE INDEX "idx_chain_publications_due" ON "chain_publications"  ("due_at") ');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."idx_chain_publications_due"');
    await queryRunner.query('DROP TABLE "chain_publications"');
  }
}
