import { MigrationInterface, QueryRunner } from 'typeorm';

/** `exports`: the exports module's table (src/exports/entities/export.entity.ts). */
export class Exports1796900000001 implements MigrationInterface {
  name = 'Exports1796900000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "exports" ("id" uuid NOT NULL, "owner_did" character varying(64) NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_bcf8528d214cbfc68c01f337511" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE INDEX "idx_exports_owner" ON "exports" ("owner_did", "id") ');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."idx_exports_owner"');
    await queryRunner.query('DROP TABLE "exports"');
  }
}
