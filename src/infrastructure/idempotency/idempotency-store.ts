import { EntityManager } from 'typeorm';
import { Injectable, Logger } from '@nestjs/common';
import { serviceUnavailable } from '../../common/errors/api-error';
import { RequestWrites } from '../database/request-writes';
import { IdempotencyRepository, type HeldRow, type KeyOwner } from './idempotency.repository';
import { ErasedRows } from '../../common/erasure/erased-rows';

export type { KeyOwner } from './idempotency.repository';

export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** What a live row of another request holds. */
export type HeldKey = { fingerprint: Buffer } & (
  { state: 'in-flight' } | { state: 'completed'; answer: StoredAnswer }
);

const SWEEP_INTERVAL_MS = 60_000;

/**
 * Idempotency-Keys over the `idempotency_keys` table (IdempotencyRepository). Its statements are
 * never the request's own writes (`RequestWrites.untracked`): a 500 after a reservation alone
 * still counts as "nothing written".
 */
@Injectable()
export class IdempotencyStore {
  private readonly logger = new Logger(IdempotencyStore.name);
  private lastSweep = 0;

  constructor(
    private readonly repository: IdempotencyRepository,
    private readonly writes: RequestWrites,
  ) {}

  /** The records of a person, as signer or client, inside an erasure's transaction (docs/decisions/0196). */
  eraseOf(manager: EntityManager, did: string): Promise<ErasedRows> {
    return this.repository.eraseOf(did, manager);
  }

  /**
   * Takes the key for a new request (a row that expired, a lapsed lease included, is taken over),
   * or answers what the live row holds. Undefined when the key is ours.
   */
  async reserve(
    owner: KeyOwner,
    reservation: { id: string; fingerprint: Buffer; now: Date; leaseUntil: Date },
  ): Promise<HeldKey | undefined> {
    const { fingerprint, now } = reservation;
    try {
      // A row released between the two statements is retried once; then the key counts as busy.
      for (let attempt = 0; attempt < 2; attempt++) {
        if (await this.writes.untracked(() => this.repository.reserve(owner, reservation))) {
          this.sweep(now);
          return undefined;
        }
        const held = await this.writes.untracked(() => this.repository.held(owner, now));
        if (held) return heldKey(held);
      }
      return { fingerprint, state: 'in-flight' };
    } catch (error) {
      this.logger.error(`idempotency store failed: ${(error as Error).message}`);
      throw serviceUnavailable('Idempotency keys are unavailable');
    }
  }

  /** Records the answer of the request holding the reservation, kept until `expiresAt`. */
  async complete(owner: KeyOwner, reservation: string, answer: StoredAnswer, expiresAt: Date): Promise<void> {
    await this.writes.untracked(() => this.repository.complete(owner, reservation, answer, expiresAt));
  }

  /** Gives the key back: the request changed nothing, so a retry must run. */
  async release(owner: KeyOwner, reservation: string): Promise<void> {
    await this.writes.untracked(() => this.repository.release(owner, reservation));
  }

  /** Deletes expired rows at most once a minute, off the request path. */
  private sweep(now: Date): void {
    if (now.getTime() - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = now.getTime();
    this.writes
      .untracked(() => this.repository.deleteExpired(now))
      .catch((error: Error) => this.logger.warn(`idempotency sweep failed: ${error.message}`));
  }
}

function heldKey(row: HeldRow): HeldKey {
  if (row.state === 'in-flight') return { fingerprint: row.fingerprint, state: 'in-flight' };
  return {
    fingerprint: row.fingerprint,
    state: 'completed',
    answer: { status: row.status!, headers: row.headers ?? {}, body: row.body ?? Buffer.alloc(0) },
  };
}
