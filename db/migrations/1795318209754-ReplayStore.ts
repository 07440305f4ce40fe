import { MigrationInterface, QueryRunner } from 'typeorm';

export class ReplayStore1795318209754 implements MigrationInterface {
  name = 'ReplayStore1795318209754';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "replay_jtis" ("did" character varying(64) NOT NULL, "jti" character varying(128) NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_621ca8e93f0c1f909025bdfd6e7" PRIMARY KEY ("did", "jti"))',
    );
    await queryRunner.query('CREATE INDEX "idx_replay_jtis_expires_at" ON "replay_jtis" ("expires_at") ');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."idx_replay_jtis_expires_at"');
    await queryRunner.query('DROP TABLE "replay_jtis"');
  }
}
