import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { defineStatements } from '../database/statements';
import type { OutboxBacklog } from '../metrics/outbox-backlog';
import type { TraceCarrier } from '../tracing/trace-context';

/** The job outbox's fixed SQL on `job_outbox` (docs/decisions/0131-a-repository-per-module.md). */
export const JOB_OUTBOX_STATEMENTS = defineStatements('JobOutboxRepository', {
  /** A job of kind $1 ($2 data, $3 queue job id, $4 trace, $5 run at, $6 hand-off lease, $7 now); its id. */
  record: `INSERT INTO job_outbox (kind, data, job_id, trace, run_at, handoff_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
  /** The row of a job whose handler succeeded. */
  delete: 'DELETE FROM job_outbox WHERE id = $1',
  /** Claims up to $3 rows due at $1 (skipping those another process holds), leased until $2. */
  claimDue: `UPDATE job_outbox SET handoff_at = $2, handoffs = handoffs + 1
       WHERE id IN (
         SELECT id FROM job_outbox WHERE handoff_at <= $1
         ORDER BY handoff_at LIMIT $3 FOR UPDATE SKIP LOCKED)
       RETURNING id, kind, data, job_id AS "jobId", trace, run_at AS "runAt"`,
  /** Rows $1 due again at $2 (their hand-off failed). */
  dueAgain: 'UPDATE job_outbox SET handoff_at = $2 WHERE id = ANY($1::bigint[])',
  /** The backlog: jobs recorded whose handler has not succeeded yet, and the oldest one's creation. */
  backlog: 'SELECT count(*)::int AS pending, min(created_at) AS oldest FROM job_outbox',
});

/** A row of the outbox as the hand-off needs it. */
export interface OutboxEntry {
  id: string;
  kind: string;
  data: Record<string, unknown>;
  jobId: string | null;
  trace: TraceCarrier | null;
  runAt: Date;
}

export interface NewOutboxEntry {
  kind: string;
  data: object;
  jobId: string | null;
  trace: TraceCarrier | null;
  runAt: Date;
  handoffAt: Date;
  createdAt: Date;
}

/** Every statement on `job_outbox`. */
@Injectable()
export class JobOutboxRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Records a job in the runner's transaction; its row's id. */
  async record(entry: NewOutboxEntry, runner: EntityManager): Promise<string> {
    const [row] = await runner.query<{ id: string }[]>(JOB_OUTBOX_STATEMENTS.record, [
      entry.kind,
      entry.data,
      entry.jobId,
      entry.trace,
      entry.runAt,
      entry.handoffAt,
      entry.createdAt,
    ]);
    return String(row.id);
  }

  async delete(id: unknown): Promise<void> {
    await this.dataSource.query(JOB_OUTBOX_STATEMENTS.delete, [id]);
  }

  async claimDue(now: Date, leaseUntil: Date, limit: number): Promise<OutboxEntry[]> {
    const [claimed] = await this.dataSource.query<[OutboxEntry[], number]>(JOB_OUTBOX_STATEMENTS.claimDue, [
      now,
      leaseUntil,
      limit,
    ]);
    return claimed.map((entry) => ({ ...entry, id: String(entry.id) }));
  }

  async dueAgain(ids: string[], at: Date): Promise<void> {
    await this.dataSource.query(JOB_OUTBOX_STATEMENTS.dueAgain, [ids, at]);
  }

  async backlog(): Promise<OutboxBacklog> {
    const [row] = await this.dataSource.query<OutboxBacklog[]>(JOB_OUTBOX_STATEMENTS.backlog);
    return row;
  }
}
