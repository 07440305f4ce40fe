import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Deactivation follows the identity chain (docs/decisions/0190-deactivation-follows-the-identity-chain.md):
 * - protocol publishes `deactivated_identities`, the identities whose chain's head is a `delete`,
 *   over a partial index that holds only those (an anti-join reads a handful of rows);
 * - users' views leave those accounts out: `public_users` (page mentions) and `author_records`.
 */
export class DeactivatedIdentities1796700000000 implements MigrationInterface {
  name = 'DeactivatedIdentities1796700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE INDEX "idx_relay_identity_chains_deleted" ON "relay_identity_chains" ("did") WHERE "is_deleted"',
    );
    await queryRunner.query(
      'CREATE VIEW "deactivated_identities" AS SELECT "did" FROM "relay_identity_chains" WHERE "is_deleted"',
    );
    await queryRunner.query(
      'CREATE OR REPLACE VIEW "public_users" AS SELECT "u"."id" FROM "users" "u" WHERE "u"."is_public" ' +
        'AND NOT EXISTS (SELECT 1 FROM "deactivated_identities" "d" WHERE "d"."did" = "u"."did")',
    );
    await queryRunner.query(
      'CREATE OR REPLACE VIEW "author_records" AS SELECT "u"."did", "u"."handle", "u"."display_name", "u"."avatar_id" ' +
        'FROM "users" "u" WHERE NOT EXISTS (SELECT 1 FROM "deactivated_identities" "d" WHERE "d"."did" = "u"."did")',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE OR REPLACE VIEW "author_records" AS SELECT "did", "handle", "display_name", "avatar_id" FROM "users"',
    );
    await queryRunner.query(
      'CREATE OR REPLACE VIEW "public_users" AS SELECT "id" FROM "users" WHERE "is_public"',
    );
    await queryRunner.query('DROP VIEW "deactivated_identities"');
    await queryRunner.query('DROP INDEX "public"."idx_relay_identity_chains_deleted"');
  }
}
