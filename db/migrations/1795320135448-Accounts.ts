import { MigrationInterface, QueryRunner } from 'typeorm';

export class Accounts1795320135448 implements MigrationInterface {
  name = 'Accounts1795320135448';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "users" ("id" uuid NOT NULL, "did" character varying(64) NOT NULL, "handle" character varying(30) NOT NULL, "display_name" character varying(100), "bio" character varying(1000), "avatar_id" uuid, "links" jsonb NOT NULL DEFAULT \'[]\', "is_public" boolean NOT NULL DEFAULT false, "email" character varying(254), "verified_domain" character varying(253), "profile_content_id" character varying(31), "profile_head_cid" character varying(80), "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a3ffb1c0c8416b9fc6f907b7433" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE UNIQUE INDEX "uq_users_did" ON "users" ("did") ');
    await queryRunner.query('CREATE UNIQUE INDEX "uq_users_handle" ON "users" ("handle") ');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."uq_users_handle"');
    await queryRunner.query('DROP INDEX "public"."uq_users_did"');
    await queryRunner.query('DROP TABLE "users"');
  }
}
