import { MigrationInterface, QueryRunner } from 'typeorm';

export class Groups1795335874232 implements MigrationInterface {
  name = 'Groups1795335874232';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "space_groups" ("id" uuid NOT NULL, "space_id" uuid NOT NULL, "did" character varying(64) NOT NULL, "name" character varying(100) NOT NULL, "description" character varying(1000), "color" character varying(32), "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_31f9b87a8dced378cb68f04836b" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE UNIQUE INDEX "idx_space_groups_did" ON "space_groups" ("did") ');
    await queryRunner.query('CREATE INDEX "idx_space_groups_space" ON "space_groups" ("space_id", "id") ');
    await queryRunner.query(
      'CREATE TABLE "group_memberships" ("group_id" uuid NOT NULL, "member_did" character varying(64) NOT NULL, "space_id" uuid NOT NULL, "joined_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_f44501a74839a8b8a187e5e5fdd" PRIMARY KEY ("group_id", "member_did"))',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_group_memberships_by_member" ON "group_memberships" ("member_did", "joined_at", "group_id") ',
    );
    await queryRunner.query(
      'ALTER TABLE "space_groups" ADD CONSTRAINT "FK_df0c55de5dc00e5d25a0872d6ec" FOREIGN KEY ("space_id") REFERENCES "spaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "group_memberships" ADD CONSTRAINT "FK_cad344fe877fcee0ac7e065ed05" FOREIGN KEY ("group_id") REFERENCES "space_groups"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE "group_memberships" DROP CONSTRAINT "FK_cad344fe877fcee0ac7e065ed05"',
    );
    await queryRunner.query('ALTER TABLE "space_groups" DROP CONSTRAINT "FK_df0c55de5dc00e5d25a0872d6ec"');
    await queryRunner.query('DROP INDEX "public"."idx_group_memberships_by_member"');
    await queryRunner.query('DROP TABLE "group_memberships"');
    await queryRunner.query('DROP INDEX "public"."idx_space_groups_space"');
    await queryRunner.query('DROP INDEX "public"."idx_space_groups_did"');
    await queryRunner.query('DROP TABLE "space_groups"');
  }
}
