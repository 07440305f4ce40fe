import { MigrationInterface, QueryRunner } from 'typeorm';

export class UserPins1795322481117 implements MigrationInterface {
  name = 'UserPins1795322481117';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "user_space_pins" ("user_id" uuid NOT NULL, "space_id" uuid NOT NULL, "position" integer NOT NULL, "pin_message" character varying(280), "pinned_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_131a2521d37ce6d2d4730c2f807" PRIMARY KEY ("user_id", "space_id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_user_space_pins_order" ON "user_space_pins" ("user_id", "position") ',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_users_directory" ON "users" ("created_at", "id") WHERE "is_public"',
    );
    await queryRunner.query(
      'ALTER TABLE "user_space_pins" ADD CONSTRAINT "FK_aacb614a49f4ae6d00e8e2b96dd" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "user_space_pins" ADD CONSTRAINT "FK_548f3e53b61577de5abe42d80f1" FOREIGN KEY ("space_id") REFERENCES "spaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "user_space_pins" DROP CONSTRAINT "FK_548f3e53b61577de5abe42d80f1"');
    await queryRunner.query('ALTER TABLE "user_space_pins" DROP CONSTRAINT "FK_aacb614a49f4ae6d00e8e2b96dd"');
    await queryRunner.query('DROP INDEX "public"."idx_users_directory"');
    await queryRunner.query('DROP INDEX "public"."idx_user_space_pins_order"');
    await queryRunner.query('DROP TABLE "user_space_pins"');
  }
}
