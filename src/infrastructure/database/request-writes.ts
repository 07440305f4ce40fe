import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { IncomingMessage } from 'node:http';
import { AfterQueryEvent, DataSource, EntitySubscriberInterface, TransactionCommitEvent } from 'typeorm';
import { requestScopes, scopeOf } from '../http/request-scope';
import { isDatabaseUnavailable } from './database-unavailable';
/** Statements that change nothing, run outside a transaction (autocommit). */
const READ_ONLY = /^\s*(SELECT|SHOW)\b/i;

/**
 * Whether a request has committed anything to PostgreSQL: a transaction that committed, or a
 * statement other than a read run outside one, or either of them lost with its connection (the
 * server may have carried it out). A 500 or 503 after a rolled-back transaction then is a known
 * outcome (nothing was written) and gives its `jti` back; after a commit it keeps it spent.
 */
@Injectable()
export class RequestWrites implements EntitySubscriberInterface, OnModuleInit {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  onModuleInit(): void {
    this.dataSource.subscribers.push(this);
  }

  /** Runs writes that are not the request's own (its replay reservation) outside its tracking. */
  untracked<T>(work: () => T): T {
    const scope = requestScopes.getStore();
    if (!scope?.tracksWrites) return work();
    // Still the request's scope for its log lines, only not followed.
    return requestScopes.run({ request: scope.request, tracksWrites: false, committed: false }, work);
  }

  /** True unless the request is known to have committed nothing (unknown counts as committed). */
  committedAnything(request: IncomingMessage): boolean {
    const scope = scopeOf(request);
    return scope?.tracksWrites ? scope.committed : true;
  }

  afterTransactionCommit(event: TransactionCommitEvent): void {
    const scope = requestScopes.getStore();
    // A released savepoint is not the commit.
    if (scope?.tracksWrites && !event.queryRunner.isTransactionActive) scope.committed = true;
  }

  afterQuery(event: AfterQueryEvent): void {
    // Every query of every request passes here: reads (not followed) and known writes stop first.
    const scope = requestScopes.getStore();
    if (!scope?.tracksWrites || scope.committed) return;
    const inTransaction = event.queryRunner.isTransactionActive;
    if (event.success) {
      if (!inTransaction && !READ_ONLY.test(event.query)) scope.committed = true;
      return;
    }
    // A COMMIT or autocommit write that failed for want of the database may have been carried out
    // (its answer lost with the connection): unknown counts as committed.
    const mayCommit = inTransaction ? event.query === 'COMMIT' : !READ_ONLY.test(event.query);
    if (mayCommit && isDatabaseUnavailable(event.error)) scope.committed = true;
  }
}
