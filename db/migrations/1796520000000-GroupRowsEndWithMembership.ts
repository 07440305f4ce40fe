import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Group rows end with the space membership
 * (docs/decisions/0104-group-rows-end-with-membership.md): the rows kept so far for people who left, were
 * removed or banned, or whose space was deleted, are deleted, so that none of them is back in a
 * group when they rejoin. Read through the view spaces publishes (`active_space_members`).
 * Not reversible: `down` leaves the rows deleted.
 */
export class GroupRowsEndWithMembership1796520000000 implements MigrationInterface {
  name = 'GroupRowsEndWithMembership1796520000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DELETE FROM "group_memberships" "gm" WHERE NOT EXISTS (SELECT 1 FROM "active_space_members" "a" WHERE "a"."space_id" = "gm"."space_id" AND "a"."member_did" = "gm"."member_did")`,
    );
  }

  async down(): Promise<void> {
    // The deleted rows granted nothing while they were kept and must not come back.
  }
}
