import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `job_outbox` (issue 30 item 3): the jobs a write causes, recorded in its transaction and handed to
 * the queue until they ran. docs/decisions/0125-no-background-work-lost.md.
 */
export class JobOutbox1796620000000 implements MigrationInterface {
  name = 'JobOutbox1796620000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "job_outbox" ("id" BIGSERIAL NOT NULL, "kind" character varying(100) NOT NULL, "data" jsonb NOT NULL, "job_id" character varying(200), "trace" jsonb, "run_at" TIMESTAMP WITH TIME ZONE NOT NULL, "handoff_at" TIMESTAMP WITH TIME ZONE NOT NULL, "handoffs" integer NOT NULL DEFAULT \'0\', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_c3ba45dab51e3016acef18d0433" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE INDEX "idx_job_outbox_handoff" ON "job_outbox"  ("handoff_at") ');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."idx_job_outbox_handoff"');
    await queryRunner.query('DROP TABLE "job_outbox"');
  }
}
