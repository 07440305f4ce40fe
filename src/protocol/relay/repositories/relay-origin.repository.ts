import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { defineStatements } from '../../../infrastructure/database/statements';
import { RelayOriginKey } from '../entities';

/** The origin identity's fixed SQL on `relay_origin_keys` (docs/decisions/0131-a-repository-per-module.md). */
export const RELAY_ORIGIN_STATEMENTS = defineStatements('RelayOriginRepository', {
  /** Serializes the origin's bootstrap across replicas, until the transaction ends ($1 the lock key). */
  lockBootstrap: 'SELECT pg_advisory_xact_lock($1)',
  /** The origin identity of key $1 (a multikey). */
  didOfKey: 'SELECT did FROM relay_origin_keys WHERE public_key = $1',
  /** The first key generated and stored (when ORIGIN_KEY is not set), with its identity. */
  firstGenerated:
    'SELECT did, seed FROM relay_origin_keys WHERE seed IS NOT NULL ORDER BY created_at ASC LIMIT 1',
});

/** Every statement on `relay_origin_keys`: the service's origin keys and their identity. */
@Injectable()
export class RelayOriginRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async lockBootstrap(key: number, runner: EntityManager): Promise<void> {
    await runner.query(RELAY_ORIGIN_STATEMENTS.lockBootstrap, [key]);
  }

  async didOfKey(publicKey: string, runner: EntityManager): Promise<string | null> {
    const [row] = await runner.query<{ did: string }[]>(RELAY_ORIGIN_STATEMENTS.didOfKey, [publicKey]);
    return row?.did ?? null;
  }

  async firstGenerated(runner: EntityManager): Promise<{ did: string; seed: Buffer } | null> {
    const [row] = await runner.query<{ did: string; seed: Buffer }[]>(RELAY_ORIGIN_STATEMENTS.firstGenerated);
    return row ?? null;
  }

  async insert(key: Omit<RelayOriginKey, 'createdAt'>, runner: EntityManager): Promise<void> {
    await runner.insert(RelayOriginKey, key);
  }
}
