import { MigrationInterface, QueryRunner } from 'typeorm';

/** `imports`: the imports module's table (src/imports/entities/space-import.entity.ts). */
export class Imports1796920000001 implements MigrationInterface {
  name = 'Imports1796920000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "imports" ("id" uuid NOT NULL, "owner_did" character varying(64) NOT NULL, "state" character varying(8) NOT NULL, "archive" bytea, "space_id" uuid, "failure_reason" character varying(500), "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "finished_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "PK_ea10c62f5eb1d75e83d8b5225db" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE INDEX "idx_imports_owner" ON "imports" ("owner_did", "id") ');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."idx_imports_owner"');
    await queryRunner.query('DROP TABLE "imports"');
  }
}
