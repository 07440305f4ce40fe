import { MigrationInterface, QueryRunner } from 'typeorm';

export class SpaceSite1795320978939 implements MigrationInterface {
  name = 'SpaceSite1795320978939';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "space_topics" ("id" uuid NOT NULL, "space_id" uuid NOT NULL, "name" character varying(100) NOT NULL, "name_key" character varying(100) COLLATE "C" NOT NULL, "description" character varying(1000), "access_kind" character varying(16) NOT NULL, "access_group_ids" jsonb NOT NULL DEFAULT \'[]\', "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "deleted_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "PK_1a369d426865bd282f5d1924d48" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_space_topics_public" ON "space_topics" ("space_id", "name_key", "id") WHERE "access_kind" = \'public\' AND "deleted_at" IS NULL',
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "uq_space_topics_name" ON "space_topics" ("space_id", "name_key") WHERE "deleted_at" IS NULL',
    );
    await queryRunner.query(
      'CREATE TABLE "space_pages" ("id" uuid NOT NULL, "space_id" uuid NOT NULL, "title" character varying(200) NOT NULL, "slug" character varying(100) NOT NULL, "body" text NOT NULL, "cover_media_id" uuid, "sort_order" integer NOT NULL DEFAULT \'0\', "enabled" boolean NOT NULL DEFAULT true, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_ef5c5de5183a745fdde9023681e" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_space_pages_order" ON "space_pages" ("space_id", "sort_order", "id") ',
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "uq_space_pages_slug" ON "space_pages" ("space_id", "slug") ',
    );
    await queryRunner.query('ALTER TABLE "spaces" ADD "claimed_domain" character varying(253)');
    await queryRunner.query('ALTER TABLE "spaces" ADD "profile_document_cid" character varying(80)');
    await queryRunner.query(
      'ALTER TABLE "space_topics" ADD CONSTRAINT "FK_24da9e64c3ae260d45d80780248" FOREIGN KEY ("space_id") REFERENCES "spaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "space_pages" ADD CONSTRAINT "FK_977a532e6b5c7291882937d8122" FOREIGN KEY ("space_id") REFERENCES "spaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "space_pages" DROP CONSTRAINT "FK_977a532e6b5c7291882937d8122"');
    await queryRunner.query('ALTER TABLE "space_topics" DROP CONSTRAINT "FK_24da9e64c3ae260d45d80780248"');
    await queryRunner.query('ALTER TABLE "spaces" DROP COLUMN "profile_document_cid"');
    await queryRunner.query('ALTER TABLE "spaces" DROP COLUMN "claimed_domain"');
    await queryRunner.query('DROP INDEX "public"."uq_space_pages_slug"');
    await queryRunner.query('DROP INDEX "public"."idx_space_pages_order"');
    await queryRunner.query('DROP TABLE "space_pages"');
    await queryRunner.query('DROP INDEX "public"."uq_space_topics_name"');
    await queryRunner.query('DROP INDEX "public"."idx_space_topics_public"');
    await queryRunner.query('DROP TABLE "space_topics"');
  }
}
