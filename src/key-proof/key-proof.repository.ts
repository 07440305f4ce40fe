import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { defineStatements } from '../infrastructure/database/statements';
import { KeyProofCeremony } from './entities/key-proof-ceremony.entity';
import { affectedRows, ErasedRows } from '../common/erasure/erased-rows';

/** The key-proof module's fixed SQL (docs/decisions/0131-a-repository-per-module.md). */
export const KEY_PROOF_STATEMENTS = defineStatements('KeyProofRepository', {
  /** A new ceremony unless its code is taken ($1…$8: code, owner, role set, head, nonce, expiry). */
  insertUnlessCodeTaken:
    'INSERT INTO key_proof_ceremonies (code, owner_did, role_set, prev_cid, nonce, status, expires_at) ' +
    "VALUES ($1, $2, $3, $4, $5, 'pending', $6) ON CONFLICT (code) DO NOTHING RETURNING code",
  /** Whether another identity holds the key presented or adopted ($1 key, $2 the owner). */
  keyProvedElsewhere:
    'SELECT EXISTS (SELECT 1 FROM key_proof_ceremonies WHERE presented_key = $1 AND owner_did <> $2 ' +
    "AND status IN ('adopted', 'presented')) AS proved",
  /** Every ceremony of a person ($1): their erasure (docs/decisions/0196-what-an-erasure-removes-and-keeps.md). */
  eraseOf: 'DELETE FROM key_proof_ceremonies WHERE owner_did = $1',
});

export interface NewCeremony {
  code: string;
  ownerDid: string;
  roleSet: string;
  prevCid: string;
  nonce: string;
  expiresAt: Date;
}

/** Every statement on `key_proof_ceremonies`. */
@Injectable()
export class KeyProofRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async eraseOf(ownerDid: string, runner: EntityManager): Promise<ErasedRows> {
    return {
      key_proof_ceremonies: affectedRows(await runner.query(KEY_PROOF_STATEMENTS.eraseOf, [ownerDid])),
    };
  }

  /** Stores a pending ceremony; false when its code is already taken. */
  async insertUnlessCodeTaken(ceremony: NewCeremony): Promise<boolean> {
    const rows = await this.dataSource.query<{ code: string }[]>(KEY_PROOF_STATEMENTS.insertUnlessCodeTaken, [
      ceremony.code,
      ceremony.ownerDid,
      ceremony.roleSet,
      ceremony.prevCid,
      ceremony.nonce,
      ceremony.expiresAt,
    ]);
    return rows.length === 1;
  }

  /** The ceremony of `code`; with `lock`, locked for update in the runner's transaction. */
  find(
    code: string,
    runner: EntityManager = this.dataSource.manager,
    lock = false,
  ): Promise<KeyProofCeremony | null> {
    return runner.getRepository(KeyProofCeremony).findOne({
      where: { code },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
  }

  async keyProvedElsewhere(key: string, ownerDid: string, runner: EntityManager): Promise<boolean> {
    const [row] = await runner.query<{ proved: boolean }[]>(KEY_PROOF_STATEMENTS.keyProvedElsewhere, [
      key,
      ownerDid,
    ]);
    return row.proved;
  }

  async markBurned(code: string, runner: EntityManager): Promise<void> {
    await runner.update(KeyProofCeremony, { code }, { status: 'failed' });
  }

  async markPresented(
    code: string,
    presented: Pick<KeyProofCeremony, 'presentedKey' | 'description' | 'envelope' | 'prevCid'>,
    runner: EntityManager,
  ): Promise<void> {
    await runner.update(KeyProofCeremony, { code }, { status: 'presented', ...presented });
  }

  /** Adopts a ceremony still presented with `presentedKey`; false when it changed meanwhile. */
  async markAdopted(
    code: string,
    presentedKey: string,
    adoptedKeyId: string,
    chainOpCid: string,
  ): Promise<boolean> {
    const updated = await this.dataSource
      .getRepository(KeyProofCeremony)
      .update({ code, status: 'presented', presentedKey }, { status: 'adopted', adoptedKeyId, chainOpCid });
    return updated.affected === 1;
  }

  /** Declines an open ceremony; false when it was no longer open. */
  async markDeclined(code: string): Promise<boolean> {
    const updated = await this.dataSource
      .getRepository(KeyProofCeremony)
      .update({ code, status: In(['pending', 'presented']) }, { status: 'rejected' });
    return updated.affected === 1;
  }
}
