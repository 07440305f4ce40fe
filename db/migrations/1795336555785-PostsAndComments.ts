import { MigrationInterface, QueryRunner } from 'typeorm';

export class PostsAndComments1795336555785 implements MigrationInterface {
  name = 'PostsAndComments1795336555785';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "posts" ("id" uuid NOT NULL, "space_id" uuid NOT NULL, "topic_id" uuid NOT NULL, "author_did" character varying(64) NOT NULL, "title" character varying(300), "body" text NOT NULL, "slug" character varying(100) NOT NULL, "attachment_ids" jsonb NOT NULL DEFAULT \'[]\', "upvote_count" integer NOT NULL DEFAULT \'0\', "comment_count" integer NOT NULL DEFAULT \'0\', "is_pinned" boolean NOT NULL DEFAULT false, "published_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "deleted_at" TIMESTAMP(3) WITH TIME ZONE, "content_id" character varying(64), "head_cid" character varying(128), "document_cid" character varying(128), CONSTRAINT "PK_2829ac61eff60fcec60d7274b9e" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE INDEX "idx_posts_author" ON "posts" ("author_did", "published_at") ');
    await queryRunner.query(
      'CREATE INDEX "idx_posts_topic_recent" ON "posts" ("topic_id", "published_at", "id") WHERE "deleted_at" IS NULL',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_posts_space_recent" ON "posts" ("space_id", "published_at", "id") WHERE "deleted_at" IS NULL',
    );
    await queryRunner.query(
      'CREATE TABLE "post_upvotes" ("post_id" uuid NOT NULL, "voter_did" character varying(64) NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_6bea63aa06c174a16086416d2d0" PRIMARY KEY ("post_id", "voter_did"))',
    );
    await queryRunner.query(
      'CREATE TABLE "comments" ("id" uuid NOT NULL, "post_id" uuid NOT NULL, "space_id" uuid NOT NULL, "parent_comment_id" uuid, "author_did" character varying(64) NOT NULL, "body" text, "attachment_ids" jsonb NOT NULL DEFAULT \'[]\', "upvote_count" integer NOT NULL DEFAULT \'0\', "reply_count" integer NOT NULL DEFAULT \'0\', "published_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "activity_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "deleted_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "PK_8bf68bc960f2b69e818bdb90dcb" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_comments_replies" ON "comments" ("parent_comment_id", "published_at", "id") ',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_comments_roots" ON "comments" ("post_id", "activity_at", "id") WHERE "parent_comment_id" IS NULL',
    );
    await queryRunner.query(
      'CREATE TABLE "comment_upvotes" ("comment_id" uuid NOT NULL, "voter_did" character varying(64) NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_6d1377214bfab1f6a72f4e50cb6" PRIMARY KEY ("comment_id", "voter_did"))',
    );
    await queryRunner.query(
      'ALTER TABLE "posts" ADD CONSTRAINT "FK_728ecc4ec874920cd578a52831c" FOREIGN KEY ("space_id") REFERENCES "spaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "posts" ADD CONSTRAINT "FK_34720d240a6956e2d3b91f93a8a" FOREIGN KEY ("topic_id") REFERENCES "space_topics"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "post_upvotes" ADD CONSTRAINT "FK_7586dd797910cc3835f181d6138" FOREIGN KEY ("post_id") REFERENCES "posts"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "comments" ADD CONSTRAINT "FK_259bf9825d9d198608d1b46b0b5" FOREIGN KEY ("post_id") REFERENCES "posts"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "comment_upvotes" ADD CONSTRAINT "FK_d70004ecb4e41d3463c429c32be" FOREIGN KEY ("comment_id") REFERENCES "comments"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "comment_upvotes" DROP CONSTRAINT "FK_d70004ecb4e41d3463c429c32be"');
    await queryRunner.query('ALTER TABLE "comments" DROP CONSTRAINT "FK_259bf9825d9d198608d1b46b0b5"');
    await queryRunner.query('ALTER TABLE "post_upvotes" DROP CONSTRAINT "FK_7586dd797910cc3835f181d6138"');
    await queryRunner.query('ALTER TABLE "posts" DROP CONSTRAINT "FK_34720d240a6956e2d3b91f93a8a"');
    await queryRunner.query('ALTER TABLE "posts" DROP CONSTRAINT "FK_728ecc4ec874920cd578a52831c"');
    await queryRunner.query('DROP TABLE "comment_upvotes"');
    await queryRunner.query('DROP INDEX "public"."idx_comments_roots"');
    await queryRunner.query('DROP INDEX "public"."idx_comments_replies"');
    await queryRunner.query('DROP TABLE "comments"');
    await queryRunner.query('DROP TABLE "post_upvotes"');
    await queryRunner.query('DROP INDEX "public"."idx_posts_space_recent"');
    await queryRunner.query('DROP INDEX "public"."idx_posts_topic_recent"');
    await queryRunner.query('DROP INDEX "public"."idx_posts_author"');
    await queryRunner.query('DROP TABLE "posts"');
  }
}
