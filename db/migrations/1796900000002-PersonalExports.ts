import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Personal exports (issue 35 item 3): the exports module's table `exports`, and the indexes its
 * owners' export pages read by: a person's comments and membership rows
 * (docs/decisions/0210-personal-export-archive-layout.md, 0212).
 */
export class PersonalExports1796900000002 implements MigrationInterface {
  name = 'PersonalExports1796900000002';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "exports" ("id" uuid NOT NULL, "owner_did" character varying(64) NOT NULL, "state" character varying(8) NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "finished_at" TIMESTAMP(3) WITH TIME ZONE, "expires_at" TIMESTAMP(3) WITH TIME ZONE, "archive_key" character varying(200), "size_bytes" bigint, "failure_reason" character varying(500), CONSTRAINT "PK_bcf8528d214cbfc68c01f337511" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE INDEX "idx_exports_owner" ON "exports" ("owner_did", "id") ');
    await queryRunner.query(
      'CREATE UNIQUE INDEX "uq_exports_owner_in_progress" ON "exports" ("owner_did") WHERE "state" IN (\'queued\', \'running\')',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_exports_expiring" ON "exports" ("expires_at") WHERE "state" = \'ready\'',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_space_memberships_member" ON "space_memberships"  ("member_did", "space_id") ',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_comments_author" ON "comments"  ("author_did", "published_at", "id") ',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."idx_comments_author"');
    await queryRunner.query('DROP INDEX "public"."idx_space_memberships_member"');
    await queryRunner.query('DROP INDEX "public"."idx_exports_expiring"');
    await queryRunner.query('DROP INDEX "public"."uq_exports_owner_in_progress"');
    await queryRunner.query('DROP INDEX "public"."idx_exports_owner"');
    await queryRunner.query('DROP TABLE "exports"');
  }
}
