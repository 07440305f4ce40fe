import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The store module's tables (design.md §13): products, their prices, releases and the
 * products a release lists. Slugs are unique per space among live rows (partial indexes); the
 * public listings read partial indexes over published, live rows.
 */
export class Store1795940000000 implements MigrationInterface {
  name = 'Store1795940000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "store_products" ("id" uuid NOT NULL, "space_id" uuid NOT NULL, "slug" character varying(80) NOT NULL, "name" character varying(200) NOT NULL, "description" text, "cover_media_id" uuid, "sort_order" integer NOT NULL DEFAULT \'0\', "published" boolean NOT NULL, "sold_out" boolean NOT NULL DEFAULT false, "purchasable" boolean NOT NULL DEFAULT true, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "deleted_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "PK_2b42017b5d7c8bc0a2320a7295c" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_store_products_public_order" ON "store_products"  ("space_id", "sort_order", "id") WHERE "published" AND "deleted_at" IS NULL',
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "uq_store_products_slug" ON "store_products"  ("space_id", "slug") WHERE "deleted_at" IS NULL',
    );
    await queryRunner.query(
      'CREATE TABLE "store_product_prices" ("id" uuid NOT NULL, "product_id" uuid NOT NULL, "position" integer NOT NULL, "type" character varying(24) NOT NULL, "currency" character(3) NOT NULL, "amount" bigint NOT NULL, "suggested_amount" bigint, "interval" character varying(8), "archived" boolean NOT NULL DEFAULT false, CONSTRAINT "PK_79f0558181f79136276765ebbba" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_store_product_prices_product" ON "store_product_prices"  ("product_id", "position") ',
    );
    await queryRunner.query(
      'CREATE TABLE "store_release_products" ("release_id" uuid NOT NULL, "product_id" uuid NOT NULL, "position" integer NOT NULL, CONSTRAINT "PK_7bea64513fd3e97bce3af5fb7ba" PRIMARY KEY ("release_id", "product_id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_store_release_products_product" ON "store_release_products"  ("product_id") ',
    );
    await queryRunner.query(
      'CREATE TABLE "store_releases" ("id" uuid NOT NULL, "space_id" uuid NOT NULL, "slug" character varying(80) NOT NULL, "title" character varying(200) NOT NULL, "description" text, "cover_media_id" uuid, "credits" jsonb NOT NULL DEFAULT \'[]\', "published" boolean NOT NULL, "published_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "deleted_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "PK_89087ab665eae0c74bd4e875608" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_store_releases_public_order" ON "store_releases"  ("space_id", "published_at", "id") WHERE "published" AND "deleted_at" IS NULL',
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "uq_store_releases_slug" ON "store_releases"  ("space_id", "slug") WHERE "deleted_at" IS NULL',
    );
    await queryRunner.query(
      'ALTER TABLE "store_products" ADD CONSTRAINT "FK_0cb921f75660d67c519b93e4cdb" FOREIGN KEY ("space_id") REFERENCES "spaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "store_product_prices" ADD CONSTRAINT "FK_3f289d1e1c2b1d83204b62705a5" FOREIGN KEY ("product_id") REFERENCES "store_products"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "store_release_products" ADD CONSTRAINT "FK_cf637f25518470b44fbd85021f7" FOREIGN KEY ("release_id") REFERENCES "store_releases"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "store_release_products" ADD CONSTRAINT "FK_390db743c7eb6e50ea99e4b6527" FOREIGN KEY ("product_id") REFERENCES "store_products"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "store_releases" ADD CONSTRAINT "FK_5bb17df7a7bd9aec021619d8a95" FOREIGN KEY ("space_id") REFERENCES "spaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "store_releases" DROP CONSTRAINT "FK_5bb17df7a7bd9aec021619d8a95"');
    await queryRunner.query(
      'ALTER TABLE "store_release_products" DROP CONSTRAINT "FK_390db743c7eb6e50ea99e4b6527"',
    );
    await queryRunner.query(
      'ALTER TABLE "store_release_products" DROP CONSTRAINT "FK_cf637f25518470b44fbd85021f7"',
    );
    await queryRunner.query(
      'ALTER TABLE "store_product_prices" DROP CONSTRAINT "FK_3f289d1e1c2b1d83204b62705a5"',
    );
    await queryRunner.query('ALTER TABLE "store_products" DROP CONSTRAINT "FK_0cb921f75660d67c519b93e4cdb"');
    await queryRunner.query('DROP INDEX "public"."uq_store_releases_slug"');
    await queryRunner.query('DROP INDEX "public"."idx_store_releases_public_order"');
    await queryRunner.query('DROP TABLE "store_releases"');
    await queryRunner.query('DROP INDEX "public"."idx_store_release_products_product"');
    await queryRunner.query('DROP TABLE "store_release_products"');
    await queryRunner.query('DROP INDEX "public"."idx_store_product_prices_product"');
    await queryRunner.query('DROP TABLE "store_product_prices"');
    await queryRunner.query('DROP INDEX "public"."uq_store_products_slug"');
    await queryRunner.query('DROP INDEX "public"."idx_store_products_public_order"');
    await queryRunner.query('DROP TABLE "store_products"');
  }
}
