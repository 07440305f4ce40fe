import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { defineStatements } from '../../../infrastructure/database/statements';
import { RelayOperation, type RelayOperationKind } from '../entities';

/** The relay's fixed SQL on `relay_operations` (docs/decisions/0131-a-repository-per-module.md). */
export const RELAY_OPERATIONS_STATEMENTS = defineStatements('RelayOperationsRepository', {
  /** The global log in ingestion order ($1 limit; `after`: $2 the seq of the previous page's last). */
  log: {
    first:
      'SELECT op.cid, op.jws, op.kind, op.chain_id AS "chainId" FROM relay_operations op ORDER BY op.seq ASC LIMIT $1',
    after:
      'SELECT op.cid, op.jws, op.kind, op.chain_id AS "chainId" FROM relay_operations op WHERE op.seq > $2 ' +
      'ORDER BY op.seq ASC LIMIT $1',
  },
  /** One chain's log in ingestion order ($1 kind, $2 chain id, $3 limit; `after`: $4 a seq). */
  chainLog: {
    first:
      'SELECT op.cid, op.jws FROM relay_operations op WHERE op.kind = $1 AND op.chain_id = $2 ' +
      'ORDER BY op.seq ASC LIMIT $3',
    after:
      'SELECT op.cid, op.jws FROM relay_operations op WHERE op.kind = $1 AND op.chain_id = $2 AND op.seq > $4 ' +
      'ORDER BY op.seq ASC LIMIT $3',
  },
  /** Every operation of an identity chain ($1 its DID), genesis first. */
  identityOperations:
    "SELECT cid, jws FROM relay_operations WHERE kind = 'identity-op' AND chain_id = $1 ORDER BY seq ASC",
  /**
   * The operations of many content chains ($1 content ids), each chain's in ingestion order: a
   * personal export's `chains/` (docs/decisions/0210-personal-export-archive-layout.md).
   */
  contentOperationsOf:
    'SELECT op.chain_id AS "chainId", op.cid, op.jws FROM relay_operations op ' +
    "WHERE op.kind = 'content-op' AND op.chain_id = ANY($1::varchar[]) ORDER BY op.chain_id, op.seq",
  /** The tips of a content chain's DAG ($1 its content id): operations no other one extends. */
  contentTips:
    'SELECT op.cid, op.created_at AS "createdAt", op.previous_cid AS "previousCid", op.op_type AS "opType", ' +
    'op.document_cid AS "documentCid" FROM relay_operations op ' +
    "WHERE op.kind = 'content-op' AND op.chain_id = $1 AND NOT EXISTS " +
    "(SELECT 1 FROM relay_operations child WHERE child.previous_cid = op.cid AND child.kind = 'content-op')",
});

/** An entry of a log page. */
export interface LogRow {
  cid: string;
  jws: string;
  kind: RelayOperationKind;
  chainId: string;
}

/** A tip of a content chain, as the head selection needs it. */
export interface ContentTipRow {
  cid: string;
  createdAt: string;
  previousCid: string | null;
  opType: string | null;
  documentCid: string | null;
}

/** Every statement on `relay_operations`: the signed operations the relay holds. */
@Injectable()
export class RelayOperationsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The operation of `cid`, whole. */
  find(cid: string, runner: EntityManager = this.dataSource.manager): Promise<RelayOperation | null> {
    return runner.findOne(RelayOperation, { where: { cid } });
  }

  /** The operation of `cid` without its token's bytes beyond what a reader answers. */
  findEntry(cid: string): Promise<Pick<RelayOperation, 'cid' | 'jws' | 'kind' | 'chainId'> | null> {
    return this.dataSource.getRepository(RelayOperation).findOne({
      select: { cid: true, jws: true, kind: true, chainId: true },
      where: { cid },
    });
  }

  /** Where an operation sits in the log (its seq, kind and chain), for a cursor. */
  findPosition(cid: string): Promise<Pick<RelayOperation, 'cid' | 'seq' | 'kind' | 'chainId'> | null> {
    return this.dataSource.getRepository(RelayOperation).findOne({
      select: { cid: true, seq: true, kind: true, chainId: true },
      where: { cid },
    });
  }

  /** The signed createdAt of an operation. */
  findCreatedAt(cid: string): Promise<Pick<RelayOperation, 'cid' | 'createdAt'> | null> {
    return this.dataSource.getRepository(RelayOperation).findOne({
      select: { cid: true, createdAt: true },
      where: { cid },
    });
  }

  /** Stores an operation; a concurrent insert of the same CID is a unique violation. */
  async insert(row: Omit<RelayOperation, 'seq' | 'ingestedAt'>, runner: EntityManager): Promise<void> {
    await runner.insert(RelayOperation, row);
  }

  log(limit: number, afterSeq?: string): Promise<LogRow[]> {
    return afterSeq === undefined
      ? this.dataSource.query<LogRow[]>(RELAY_OPERATIONS_STATEMENTS.log.first, [limit])
      : this.dataSource.query<LogRow[]>(RELAY_OPERATIONS_STATEMENTS.log.after, [limit, afterSeq]);
  }

  chainLog(
    kind: RelayOperationKind,
    chainId: string,
    limit: number,
    afterSeq?: string,
  ): Promise<{ cid: string; jws: string }[]> {
    return afterSeq === undefined
      ? this.dataSource.query(RELAY_OPERATIONS_STATEMENTS.chainLog.first, [kind, chainId, limit])
      : this.dataSource.query(RELAY_OPERATIONS_STATEMENTS.chainLog.after, [kind, chainId, limit, afterSeq]);
  }

  identityOperations(
    did: string,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<{ cid: string; jws: string }[]> {
    return runner.query(RELAY_OPERATIONS_STATEMENTS.identityOperations, [did]);
  }

  /** The operations of the chains `contentIds`, grouped by chain, each in ingestion order. */
  contentOperationsOf(
    contentIds: string[],
    runner: EntityManager = this.dataSource.manager,
  ): Promise<{ chainId: string; cid: string; jws: string }[]> {
    return runner.query(RELAY_OPERATIONS_STATEMENTS.contentOperationsOf, [contentIds]);
  }

  contentTips(contentId: string, runner: EntityManager): Promise<ContentTipRow[]> {
    return runner.query<ContentTipRow[]>(RELAY_OPERATIONS_STATEMENTS.contentTips, [contentId]);
  }
}
