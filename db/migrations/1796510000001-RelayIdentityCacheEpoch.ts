import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `relay_identity_cache_epoch`: bumped when an identity invalidation cannot be published over Redis,
 * so the other replicas drop their cached identity states within a second
 * (docs/decisions/0105-identity-cache-missed-invalidations.md).
 */
export class RelayIdentityCacheEpoch1796510000001 implements MigrationInterface {
  name = 'RelayIdentityCacheEpoch1796510000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE SEQUENCE "relay_identity_cache_epoch"');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP SEQUENCE "relay_identity_cache_epoch"');
  }
}
