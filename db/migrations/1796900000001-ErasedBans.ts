import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `space_erased_bans`: the bans of erased people, kept as a keyed hash of their DID only
 * (docs/decisions/0193-bans-of-erased-people-kept-as-keyed-hashes.md); a space's go with it.
 */
export class ErasedBans1796900000001 implements MigrationInterface {
  name = 'ErasedBans1796900000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "space_erased_bans" ("space_id" uuid NOT NULL, "did_hash" character varying(64) NOT NULL, "banned_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "PK_96157928979c3be6ec9bc8468d5" PRIMARY KEY ("space_id", "did_hash"))',
    );
    await queryRunner.query(
      'ALTER TABLE "space_erased_bans" ADD CONSTRAINT "FK_4caf1638aafc7ab6814d1181a89" FOREIGN KEY ("space_id") REFERENCES "spaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE "space_erased_bans" DROP CONSTRAINT "FK_4caf1638aafc7ab6814d1181a89"',
    );
    await queryRunner.query('DROP TABLE "space_erased_bans"');
  }
}
