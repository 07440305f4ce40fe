import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Erasure on request (docs/decisions/0195-erasure-scheduled-by-the-users-module.md):
 * - `users.erasure_due_at`: when the person's erasure is due; set by DELETE /profile, cleared by
 *   POST /profile/restore, its partial index holds only the pending ones (the sweep's range scan);
 * - users' views leave a pending erasure out as they leave a deactivated identity out, and users
 *   publishes `erasure_pending_accounts` (`did`) for other modules' reads to do the same.
 */
export class AccountErasure1796800000000 implements MigrationInterface {
  name = 'AccountErasure1796800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "users" ADD "erasure_due_at" TIMESTAMP(3) WITH TIME ZONE');
    await queryRunner.query(
      'CREATE INDEX "idx_users_erasure_due" ON "users" ("erasure_due_at") WHERE "erasure_due_at" IS NOT NULL',
    );
    await queryRunner.query(
      'CREATE VIEW "erasure_pending_accounts" AS SELECT "did" FROM "users" WHERE "erasure_due_at" IS NOT NULL',
    );
    await queryRunner.query(
      'CREATE OR REPLACE VIEW "public_users" AS SELECT "u"."id" FROM "users" "u" WHERE "u"."is_public" ' +
        'AND "u"."erasure_due_at" IS NULL ' +
        'AND NOT EXISTS (SELECT 1 FROM "deactivated_identities" "d" WHERE "d"."did" = "u"."did")',
    );
    await queryRunner.query(
      'CREATE OR REPLACE VIEW "author_records" AS SELECT "u"."did", "u"."handle", "u"."display_name", "u"."avatar_id" ' +
        'FROM "users" "u" WHERE "u"."erasure_due_at" IS NULL ' +
        'AND NOT EXISTS (SELECT 1 FROM "deactivated_identities" "d" WHERE "d"."did" = "u"."did")',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE OR REPLACE VIEW "author_records" AS SELECT "u"."did", "u"."handle", "u"."display_name", "u"."avatar_id" ' +
        'FROM "users" "u" WHERE NOT EXISTS (SELECT 1 FROM "deactivated_identities" "d" WHERE "d"."did" = "u"."did")',
    );
    await queryRunner.query(
      'CREATE OR REPLACE VIEW "public_users" AS SELECT "u"."id" FROM "users" "u" WHERE "u"."is_public" ' +
        'AND NOT EXISTS (SELECT 1 FROM "deactivated_identities" "d" WHERE "d"."did" = "u"."did")',
    );
    await queryRunner.query('DROP VIEW "erasure_pending_accounts"');
    await queryRunner.query('DROP INDEX "public"."idx_users_erasure_due"');
    await queryRunner.query('ALTER TABLE "users" DROP COLUMN "erasure_due_at"');
  }
}
