import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import { Clock } from '../../../common/clock/clock';
import {
  applyContentOperation,
  applyIdentityOperation,
  classifyJws,
  computeCid,
  decodeContentOperation,
  documentCid,
  decodeCredential,
  decodeJws,
  formatCreatedAt,
  ID_PATTERN,
  parseDidUrl,
  ProtocolError,
  resolveCurrentKey,
  selectHead,
  verifyCredential,
  verifyRevocation,
  PUBLIC_AUDIENCE,
  type ContentChainIdentity,
  type ContentChainState,
  type ContentOperationRecord,
  type IdentityState,
  type JsonObject,
  type MultikeyPublicKey,
  type ServiceEntry,
} from '../../core';
import { RelayContentChain, RelayIdentityChain, RelayOperation, type RelayOperationKind } from '../entities';
import { RelayChainsRepository } from '../repositories/relay-chains.repository';
import { RelayOperationsRepository } from '../repositories/relay-operations.repository';
import { RelayPendingRepository } from '../repositories/relay-pending.repository';
import { RelayRevocationsRepository } from '../repositories/relay-revocations.repository';
import { DomainEvents } from '../../../infrastructure/events/domain-events.service';
import { IdentityDeactivated, IdentityRestored } from '../events/identity.events';
import { IdentityCacheBusService } from './identity-cache-bus.service';
import { projectDocument } from '../domain/relay-document-projection';

/** WEB-RELAY.md "Operation Ingestion": a larger batch is a 400. */
export const MAX_INGEST_BATCH = 100;

/**
 * Store-then-verify bounds (WEB-RELAY.md "Convergence"). Anyone can submit well-formed operations
 * whose dependencies never arrive, so the buffer is bounded:
 * - at most PENDING_CAPACITY rows; when full, a new dependency failure is answered as usual
 *   (`rejected`) but not retained (a soft cap: concurrent batches may overshoot it slightly);
 * - a buffered operation expires PENDING_TTL_MS after its first receipt (swept at each ingest);
 * - each re-attempt pass loads at most PENDING_PASS_LIMIT buffered operations (oldest first), and
 *   one batch runs at most PENDING_MAX_PASSES passes.
 */
export const PENDING_CAPACITY = 10_000;
export const PENDING_TTL_MS = 24 * 3600 * 1000;
export const PENDING_PASS_LIMIT = 500;
export const PENDING_MAX_PASSES = 10;

export const IDENTITY_CONFLICTING_EXTENSION_ERROR =
  'identity chains are linear: conflicting extension refused';

export type IngestStatus = 'new' | 'duplicate' | 'rejected';

/** One ingest outcome; `results[i]` answers `operations[i]` (WEB-RELAY.md "Ingestion Statuses"). */
export interface IngestResult {
  /** The operation CID (empty when the token could not be decoded at all). */
  cid: string;
  status: IngestStatus;
  kind?: RelayOperationKind;
  /** DID (identity ops, revocations, credentials) or contentId (content ops). */
  chainId?: string;
  /** Why it was rejected (diagnostic prose). */
  error?: string;
}

/** A refusal with its reason; `dependency` marks "may verify once something else arrives". */
class Rejection extends Error {
  constructor(
    message: string,
    readonly dependency = false,
  ) {
    super(message);
  }
}

interface PreparedOperation {
  readonly index: number;
  readonly token: string;
  readonly kind: RelayOperationKind;
  readonly cid: string;
  readonly payload: JsonObject;
  readonly header: JsonObject;
  /** the signed createdAt (credentials: iat), for the dependency sort */
  readonly createdAt: string;
  /** A content op's document, when the caller (the origin's own publishing) brought it. */
  readonly document?: Record<string, unknown>;
}

/** Documents brought with a batch, by their CID. */
type BatchDocuments = ReadonlyMap<string, Record<string, unknown>>;

interface Sequenced {
  /** every attempted operation's last outcome */
  readonly outcomes: Map<PreparedOperation, Outcome>;
  /** still failing only for a missing dependency */
  readonly waiting: PreparedOperation[];
  /** at least one operation became `new` */
  readonly progress: boolean;
}

/** Index of an operation loaded from the buffer (it answers no position of the batch). */
const BUFFERED = -1;

interface Outcome {
  readonly result: IngestResult;
  readonly dependency: boolean;
  /** identity whose state this operation changed */
  readonly changedIdentity?: string;
}

/** Identity ops first (their keys verify the rest), then revocations and credentials, then content. */
const PRIORITY: Record<RelayOperationKind, number> = {
  'identity-op': 0,
  revocation: 1,
  credential: 1,
  'content-op': 2,
};

const UNIQUE_VIOLATION = '23505';
const PROFILE_LABEL = 'profile';
const CONTENT_ANCHOR = 'ContentAnchor';

/**
 * The relay's ingest pipeline (WEB-RELAY.md "Operation Ingestion"): classify, dependency-sort,
 * verify each operation against the stored state with the protocol library, and commit it with the
 * new chain state in one transaction per operation. Identity extensions lock the chain row, so two
 * concurrent extensions of one identity never both commit (a partial unique index backs it up).
 */
@Injectable()
export class RelayIngestService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly bus: IdentityCacheBusService,
    private readonly clock: Clock,
    private readonly operations: RelayOperationsRepository,
    private readonly chains: RelayChainsRepository,
    private readonly pending: RelayPendingRepository,
    private readonly revocations: RelayRevocationsRepository,
    private readonly events: DomainEvents,
  ) {}

  /**
   * Verifies and stores a batch (at most 100) of identity ops, content ops, revocations and public
   * credentials. Never throws for a bad operation: each gets its own result, in input order.
   * Artifacts and countersignatures are refused as unsupported.
   *
   * When the batch changed state, the store-then-verify buffer is re-attempted (WEB-RELAY.md
   * "Convergence"); an operation of this batch sequenced by that pass answers `new`. With `retain`
   * (the public route), operations still failing only for a missing dependency are buffered; their
   * result stays `rejected` with the dependency error.
   *
   * `documents` (the origin's own publishing, and a space import's verified chains,
   * docs/decisions/0236; the public route brings none) are stored with the content operation that
   * commits to them (by CID), tied to its chain, in that operation's transaction.
   */
  async ingest(
    tokens: readonly string[],
    options: { retain?: boolean; documents?: readonly Record<string, unknown>[] } = {},
  ): Promise<IngestResult[]> {
    const documents = new Map((options.documents ?? []).map((document) => [documentCid(document), document]));
    const { results, pending } = this.prepareBatch(tokens, documents);
    const batch = await this.sequence(pending, null);
    for (const [operation, outcome] of batch.outcomes) results[operation.index] = outcome.result;
    await this.sweepExpiredPending();
    let waiting = batch.waiting;
    if (batch.progress) waiting = await this.converge(waiting, results);
    if (options.retain) await this.retain(waiting);
    return results;
  }

  /**
   * The same inside the caller's transaction (savepoint per operation). The caller must publish
   * `changedIdentities` to the IdentityCacheBusService after it commits. Nothing is buffered or re-attempted.
   */
  async ingestWithin(
    manager: EntityManager,
    tokens: readonly string[],
  ): Promise<{ results: IngestResult[]; changedIdentities: string[] }> {
    const { results, pending } = this.prepareBatch(tokens, new Map());
    const changedIdentities = new Set<string>();
    const batch = await this.sequence(pending, manager, changedIdentities);
    for (const [operation, outcome] of batch.outcomes) results[operation.index] = outcome.result;
    return { results, changedIdentities: [...changedIdentities] };
  }

  /** Operations awaiting a dependency (WEB-RELAY.md well-known `stats.pendingOps`), expired ones not counted. */
  async pendingCount(): Promise<number> {
    return this.pending.countSince(this.pendingCutoff());
  }

  private prepareBatch(
    tokens: readonly string[],
    documents: BatchDocuments,
  ): {
    results: IngestResult[];
    pending: PreparedOperation[];
  } {
    if (tokens.length > MAX_INGEST_BATCH) {
      throw new RangeError(`a batch holds at most ${MAX_INGEST_BATCH} operations`);
    }
    const results: IngestResult[] = new Array<IngestResult>(tokens.length);
    const pending: PreparedOperation[] = [];
    tokens.forEach((token, index) => {
      const prepared = prepare(token, index);
      if ('status' in prepared) results[index] = prepared;
      else pending.push(withDocument(prepared, documents));
    });
    return { results, pending };
  }

  /**
   * Dependency-sorted verification until no further progress (fixed point). Without an outer
   * manager each changed identity is published to the IdentityCacheBusService right after its commit.
   */
  private async sequence(
    operations: readonly PreparedOperation[],
    outer: EntityManager | null,
    changedIdentities = new Set<string>(),
  ): Promise<Sequenced> {
    // Dependency order. Along any chain createdAt strictly increases, so ascending createdAt within
    // a kind puts every parent before its children (genesis first).
    let pending = [...operations].sort(
      (a, b) =>
        PRIORITY[a.kind] - PRIORITY[b.kind] ||
        (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0) ||
        a.index - b.index ||
        (a.cid < b.cid ? -1 : a.cid > b.cid ? 1 : 0),
    );
    const outcomes = new Map<PreparedOperation, Outcome>();
    let anyProgress = false;
    // Operations whose dependency is missing are retried while the pass still makes progress.
    while (pending.length > 0) {
      const retry: PreparedOperation[] = [];
      let progress = false;
      for (const operation of pending) {
        const outcome = await this.processOne(operation, outer);
        outcomes.set(operation, outcome);
        if (outcome.changedIdentity) {
          changedIdentities.add(outcome.changedIdentity);
          if (!outer) await this.bus.publish([outcome.changedIdentity]);
        }
        if (outcome.result.status === 'new') progress = true;
        if (outcome.dependency) retry.push(operation);
      }
      anyProgress ||= progress;
      pending = retry;
      if (!progress) break;
    }
    return { outcomes, waiting: pending, progress: anyProgress };
  }

  /**
   * The sequence loop over the buffer (WEB-RELAY.md "Store-Then-Verify" step 3), together with this
   * batch's own dependency failures: settled buffered operations leave the buffer; this batch's
   * operations get their final result. Returns this batch's operations still waiting.
   *
   * Replicas may run passes concurrently: each operation still commits in its own transaction
   * under the chain row lock and the unique constraints, so a second apply is a duplicate.
   */
  private async converge(
    waiting: PreparedOperation[],
    results: IngestResult[],
  ): Promise<PreparedOperation[]> {
    for (let pass = 0; pass < PENDING_MAX_PASSES; pass++) {
      const batchCids = new Set(waiting.map((operation) => operation.cid));
      const rows = await this.pending.oldest(PENDING_PASS_LIMIT);
      const buffered: PreparedOperation[] = [];
      const settled: string[] = [];
      for (const row of rows) {
        if (batchCids.has(row.cid)) continue; // resubmitted in this batch: attempted as such
        const prepared = prepare(row.jws, BUFFERED);
        if ('status' in prepared || prepared.cid !== row.cid) settled.push(row.cid);
        else buffered.push(prepared);
      }
      if (buffered.length === 0) {
        await this.dropPending(settled);
        break;
      }
      const sequenced = await this.sequence([...waiting, ...buffered], null);
      const stillWaiting: PreparedOperation[] = [];
      for (const [operation, outcome] of sequenced.outcomes) {
        if (operation.index !== BUFFERED) {
          results[operation.index] = outcome.result;
          if (outcome.dependency) stillWaiting.push(operation);
        } else if (!outcome.dependency) {
          settled.push(operation.cid);
        }
      }
      // This batch's resolved operations may have been buffered by an earlier submission.
      for (const operation of waiting) {
        if (!stillWaiting.includes(operation)) settled.push(operation.cid);
      }
      await this.dropPending(settled);
      waiting = stillWaiting;
      // The pass ran to its own fixed point: another is useful only beyond a full window.
      if (!sequenced.progress || rows.length < PENDING_PASS_LIMIT) break;
    }
    return waiting;
  }

  /** Buffers dependency failures (idempotent by CID; a full buffer retains nothing new). */
  private async retain(operations: readonly PreparedOperation[]): Promise<void> {
    const candidates = operations.filter((operation) => operation.cid !== '');
    if (candidates.length === 0) return;
    const room = PENDING_CAPACITY - (await this.pending.count());
    if (room <= 0) return;
    const kept = candidates.slice(0, room);
    await this.pending.insertMany(
      kept.map((operation) => ({
        cid: operation.cid,
        jws: operation.token,
        kind: operation.kind,
        receivedAt: this.clock.now().toISOString(),
      })),
    );
  }

  private async dropPending(cids: readonly string[]): Promise<void> {
    if (cids.length === 0) return;
    await this.pending.deleteMany([...new Set(cids)]);
  }

  /** Opportunistic expiry of buffered operations (one indexed DELETE per batch). */
  private async sweepExpiredPending(): Promise<void> {
    await this.pending.deleteExpired(this.pendingCutoff());
  }

  private pendingCutoff(): string {
    return new Date(this.clock.now().getTime() - PENDING_TTL_MS).toISOString();
  }

  private async processOne(operation: PreparedOperation, outer: EntityManager | null): Promise<Outcome> {
    const base = { cid: operation.cid, kind: operation.kind };
    const transaction = <T>(work: (manager: EntityManager) => Promise<T>) =>
      outer ? outer.transaction(work) : this.dataSource.transaction(work);
    try {
      return await transaction((manager) => {
        switch (operation.kind) {
          case 'identity-op':
            return this.ingestIdentityOperation(manager, operation);
          case 'content-op':
            return this.ingestContentOperation(manager, operation);
          case 'revocation':
            return this.ingestRevocation(manager, operation);
          case 'credential':
            return this.ingestCredential(manager, operation);
        }
      });
    } catch (error) {
      if (error instanceof Rejection) {
        return {
          result: { ...base, status: 'rejected', error: error.message },
          dependency: error.dependency,
        };
      }
      if (error instanceof ProtocolError) {
        return { result: { ...base, status: 'rejected', error: error.message }, dependency: false };
      }
      if (isUniqueViolation(error)) return this.afterRace(operation, outer, error);
      if (isUnstorableText(error)) {
        return { result: { ...base, status: 'rejected', error: UNSTORABLE_TEXT_ERROR }, dependency: false };
      }
      throw error;
    }
  }

  /** A concurrent transaction stored the same CID, or a sibling of the same identity parent. */
  private async afterRace(
    operation: PreparedOperation,
    outer: EntityManager | null,
    error: QueryFailedError,
  ): Promise<Outcome> {
    const base = { cid: operation.cid, kind: operation.kind };
    const stored = await this.operations.find(operation.cid, outer ?? undefined);
    if (stored) return { result: this.existing(stored, operation), dependency: false };
    const constraint = (error as QueryFailedError & { constraint?: string }).constraint;
    const message =
      constraint === 'uq_relay_operations_identity_parent'
        ? IDENTITY_CONFLICTING_EXTENSION_ERROR
        : 'a concurrent operation conflicted with this one';
    return { result: { ...base, status: 'rejected', error: message }, dependency: false };
  }

  /** Same CID again: `duplicate` for the very same token, else refused (a different signature). */
  private existing(stored: RelayOperation, operation: PreparedOperation): IngestResult {
    if (stored.jws === operation.token) {
      return { cid: stored.cid, status: 'duplicate', kind: stored.kind, chainId: stored.chainId };
    }
    return {
      cid: operation.cid,
      kind: operation.kind,
      status: 'rejected',
      error: 'an operation with this CID is already stored with a different token',
    };
  }

  private async findStored(manager: EntityManager, cid: string): Promise<RelayOperation | null> {
    return this.operations.find(cid, manager);
  }

  // ---------------------------------------------------------------------------------------------
  // identity operations

  private async ingestIdentityOperation(
    manager: EntityManager,
    operation: PreparedOperation,
  ): Promise<Outcome> {
    const stored = await this.findStored(manager, operation.cid);
    if (stored) return { result: this.existing(stored, operation), dependency: false };
    const now = this.clock.now();
    const previousCid = operation.payload.previousOperationCID;

    if (previousCid === undefined) {
      const applied = applyIdentityOperation(null, operation.token, { now });
      const { state } = applied;
      await this.insertOperation(manager, {
        cid: applied.cid,
        kind: 'identity-op',
        chainId: state.did,
        jws: operation.token,
        signerDid: state.did,
        createdAt: applied.operation.createdAt,
        previousCid: null,
        opType: applied.operation.type,
        documentCid: null,
      });
      await this.chains.insertIdentityChain(
        {
          did: state.did,
          genesisCid: applied.cid,
          headCid: applied.cid,
          genesisAt: state.lastCreatedAt,
          headAt: state.lastCreatedAt,
          opCount: state.opCount,
          isDeleted: state.isDeleted,
          state,
          keyHistory: mergeKeyHistory([], state),
          profileAnchor: profileAnchorOf(state.services),
        },
        manager,
      );
      return newOutcome(applied.cid, 'identity-op', state.did);
    }

    const kid = operation.header.kid as string;
    if (!kid.includes('#')) {
      throw new Rejection('a non-genesis identity operation needs a DID URL kid (<did>#<keyId>)');
    }
    const { did } = parseDidUrl(kid);
    const chain = await this.chains.lockIdentityChain(did, manager);
    if (!chain) throw new Rejection(`unknown identity ${did}`, true);

    let applied;
    try {
      applied = applyIdentityOperation(chain.state, operation.token, { now });
    } catch (error) {
      if (error instanceof ProtocolError && error.code === 'NOT_HEAD_EXTENSION') {
        const parent = await this.findStored(manager, String(previousCid));
        if (parent?.kind === 'identity-op' && parent.chainId === did) {
          // First-seen wins: a second child of a committed op is a permanent rejection.
          throw new Rejection(IDENTITY_CONFLICTING_EXTENSION_ERROR);
        }
        throw new Rejection(`previous operation ${String(previousCid)} is not in this relay`, true);
      }
      throw error;
    }
    const { state } = applied;
    await this.insertOperation(manager, {
      cid: applied.cid,
      kind: 'identity-op',
      chainId: did,
      jws: operation.token,
      signerDid: did,
      createdAt: applied.operation.createdAt,
      previousCid: chain.headCid,
      opType: applied.operation.type,
      documentCid: null,
    });
    const changes: Partial<RelayIdentityChain> = {
      headCid: applied.cid,
      headAt: state.lastCreatedAt,
      opCount: state.opCount,
      isDeleted: state.isDeleted,
      state,
      keyHistory: mergeKeyHistory(chain.keyHistory, state),
      profileAnchor: profileAnchorOf(state.services),
      updatedAt: now,
    };
    await this.chains.updateIdentityChain(did, changes, manager);
    // Delivered after this operation's commit (docs/decisions/0190-deactivation-follows-the-identity-chain.md).
    if (applied.operation.type === 'delete') await this.events.emit(manager, new IdentityDeactivated(did));
    if (applied.operation.type === 'restore') await this.events.emit(manager, new IdentityRestored(did));
    return newOutcome(applied.cid, 'identity-op', did);
  }

  // ---------------------------------------------------------------------------------------------
  // content operations

  private async ingestContentOperation(
    manager: EntityManager,
    operation: PreparedOperation,
  ): Promise<Outcome> {
    const stored = await this.findStored(manager, operation.cid);
    if (stored) return { result: this.existing(stored, operation), dependency: false };
    const decoded = decodeContentOperation(operation.token);
    const op = decoded.operation;

    let chainRow: RelayContentChain | null = null;
    let context: { chain: ContentChainIdentity; parent: ContentOperationRecord } | null = null;
    if (op.type !== 'create') {
      const parent = await this.findStored(manager, op.previousOperationCID);
      if (!parent)
        throw new Rejection(`previous operation ${op.previousOperationCID} is not in this relay`, true);
      if (parent.kind !== 'content-op')
        throw new Rejection('previousOperationCID is not a content operation');
      chainRow = await this.chains.lockContentChain(parent.chainId, manager);
      if (!chainRow) throw new Rejection(`content chain ${parent.chainId} is not in this relay`, true);
      context = {
        chain: {
          contentId: chainRow.contentId,
          genesisCid: chainRow.genesisCid,
          creatorDid: chainRow.creatorDid,
        },
        parent: recordOf(parent),
      };
    }

    const applied = await applyContentOperation(context, decoded, {
      now: this.clock.now(),
      // Fresh admission resolves the signer against its identity's current state: a deleted
      // identity or a rotated-out key signs nothing new (WEB-RELAY.md "Key Resolution").
      resolveKey: async (kid) => resolveCurrentKey(await this.requireIdentity(manager, kid), kid).publicKey,
      resolveCredentialKey: (kid, issuerDid) => this.historicalIssuerKey(manager, kid, issuerDid),
      // Acceptance is timeless: any revocation this relay holds refuses the operation.
      isRevoked: (credentialCid, issuerDid) =>
        this.revocations.isRevoked(credentialCid, issuerDid, undefined, manager),
      enforceAuthorization: true,
    });
    const { chain, record } = applied;
    // Both deletion gates: the signer (checked by resolveKey) and the chain's creator.
    const creator = await this.stateOf(manager, chain.creatorDid);
    if (creator?.isDeleted) throw new Rejection(`the chain creator ${chain.creatorDid} is deleted`);

    await this.insertOperation(manager, {
      cid: record.cid,
      kind: 'content-op',
      chainId: chain.contentId,
      jws: operation.token,
      signerDid: record.signerDid,
      createdAt: record.createdAt,
      previousCid: record.previousCid,
      opType: record.type,
      documentCid: record.documentCID,
    });

    if (!chainRow) {
      const state: ContentChainState = {
        ...chain,
        headCid: record.cid,
        isDeleted: false,
        currentDocumentCID: record.documentCID,
        length: 1,
      };
      await this.chains.insertContentChain(
        {
          contentId: chain.contentId,
          creatorDid: chain.creatorDid,
          genesisCid: chain.genesisCid,
          headCid: record.cid,
          genesisAt: record.createdAt,
          headAt: record.createdAt,
          opCount: 1,
          isDeleted: false,
          currentDocumentCid: record.documentCID,
          state,
        },
        manager,
      );
      await this.keepHeadDocument(manager, chain.contentId, record.documentCID, operation);
      return newOutcome(record.cid, 'content-op', chain.contentId);
    }

    // Deterministic head over the tips of the DAG (the library's rule: createdAt, then CID).
    const tips = await this.operations.contentTips(chain.contentId, manager);
    const head = selectHead(tips.map((tip) => ({ ...tip, previousCid: tip.previousCid })));
    const state: ContentChainState = {
      ...chain,
      headCid: head.cid,
      isDeleted: head.opType === 'delete',
      currentDocumentCID: head.documentCid,
      length: chainRow.opCount + 1,
    };
    await this.chains.updateContentChain(
      chain.contentId,
      {
        headCid: head.cid,
        headAt: head.createdAt,
        opCount: state.length,
        isDeleted: state.isDeleted,
        currentDocumentCid: head.documentCid,
        state,
        updatedAt: this.clock.now(),
      },
      manager,
    );
    await this.keepHeadDocument(
      manager,
      chain.contentId,
      state.isDeleted ? null : head.documentCid,
      head.cid === record.cid ? operation : null,
    );
    return newOutcome(record.cid, 'content-op', chain.contentId);
  }

  /**
   * A chain holds at most its head document (docs/decisions/0120-relay-documents-per-chain.md): the
   * document brought with the operation that became head is stored under the chain, and every other
   * document of the chain (superseded, on a losing branch, or all of them once the head is a delete)
   * is deleted in the same transaction. Verification needs only the committed CIDs, never the bytes.
   */
  private async keepHeadDocument(
    manager: EntityManager,
    contentId: string,
    headDocumentCid: string | null,
    headOperation: PreparedOperation | null,
  ): Promise<void> {
    const document = headOperation?.document;
    if (document && headDocumentCid !== null) {
      const { docSchema, displayName } = projectDocument(document);
      await this.chains.insertDocument(
        { contentId, documentCid: headDocumentCid, json: JSON.stringify(document), docSchema, displayName },
        manager,
      );
    }
    await this.chains.deleteDocumentsBesides(contentId, headDocumentCid, manager);
  }

  // ---------------------------------------------------------------------------------------------
  // revocations and credentials

  private async ingestRevocation(manager: EntityManager, operation: PreparedOperation): Promise<Outcome> {
    const stored = await this.findStored(manager, operation.cid);
    if (stored) return { result: this.existing(stored, operation), dependency: false };
    // Signed by a current key of the revoking identity (fresh admission).
    const revocation = await verifyRevocation(operation.token, {
      now: this.clock.now(),
      resolveKey: async (kid) => resolveCurrentKey(await this.requireIdentity(manager, kid), kid).publicKey,
    });
    const { payload } = revocation;
    await this.insertOperation(manager, {
      cid: revocation.cid,
      kind: 'revocation',
      chainId: payload.did,
      jws: operation.token,
      signerDid: payload.did,
      createdAt: payload.createdAt,
      previousCid: null,
      opType: null,
      documentCid: null,
    });
    // One row per (credential, issuer); the earliest revocation sets the as-of boundary.
    await this.revocations.upsert(
      {
        credentialCid: payload.credentialCID,
        issuerDid: payload.did,
        revocationCid: revocation.cid,
        createdAt: payload.createdAt,
      },
      manager,
    );
    return newOutcome(revocation.cid, 'revocation', payload.did);
  }

  /** Only public credentials (`aud: "*"`) are held; targeted ones never enter relay storage. */
  private async ingestCredential(manager: EntityManager, operation: PreparedOperation): Promise<Outcome> {
    const stored = await this.findStored(manager, operation.cid);
    if (stored) return { result: this.existing(stored, operation), dependency: false };
    const decoded = decodeCredential(operation.token);
    if (decoded.payload.aud !== PUBLIC_AUDIENCE) {
      throw new Rejection('only public credentials (aud "*") are held by this relay');
    }
    const credential = await verifyCredential(operation.token, {
      now: this.clock.now(),
      allowPublicAudience: true,
      resolveIssuerKey: (kid, issuerDid) => this.historicalIssuerKey(manager, kid, issuerDid),
      isRevoked: (credentialCid, issuerDid) =>
        this.revocations.isRevoked(credentialCid, issuerDid, undefined, manager),
    });
    await this.insertOperation(manager, {
      cid: credential.cid,
      kind: 'credential',
      chainId: credential.issuer,
      jws: operation.token,
      signerDid: credential.issuer,
      createdAt: operation.createdAt,
      previousCid: null,
      opType: null,
      documentCid: null,
    });
    return newOutcome(credential.cid, 'credential', credential.issuer);
  }

  // ---------------------------------------------------------------------------------------------
  // state lookups inside the transaction

  private async stateOf(manager: EntityManager, did: string): Promise<IdentityState | null> {
    const row = await this.chains.findIdentityState(did, manager);
    return row?.state ?? null;
  }

  private async requireIdentity(manager: EntityManager, kid: string): Promise<IdentityState> {
    const { did } = parseDidUrl(kid);
    const state = await this.stateOf(manager, did);
    if (!state) throw new Rejection(`unknown identity ${did}`, true);
    return state;
  }

  /** Credentials resolve issuer keys historically (they survive rotation), never for a deleted issuer. */
  private async historicalIssuerKey(manager: EntityManager, kid: string, issuerDid: string): Promise<string> {
    const { did, keyId } = parseDidUrl(kid);
    const row = await this.chains.findIssuerKeys(issuerDid, manager);
    if (!row || did !== issuerDid) throw new Rejection(`unknown credential issuer ${issuerDid}`, true);
    if (row.isDeleted)
      throw new ProtocolError('IDENTITY_DELETED', `credential issuer ${issuerDid} is deleted`);
    const key = [...row.keyHistory].reverse().find((candidate) => candidate.id === keyId);
    if (!key) throw new ProtocolError('KEY_NOT_FOUND', `key ${keyId} never appeared in ${issuerDid}`);
    return key.publicKeyMultibase;
  }

  private async insertOperation(
    manager: EntityManager,
    row: Omit<RelayOperation, 'seq' | 'ingestedAt'>,
  ): Promise<void> {
    // A concurrent insert of the same CID surfaces as a unique violation (handled by afterRace).
    await this.operations.insert(row, manager);
  }
}

/** Classification and the checks that need no state; a result when the token is refused outright. */
function prepare(token: unknown, index: number): PreparedOperation | IngestResult {
  if (typeof token !== 'string')
    return { cid: '', status: 'rejected', error: 'an operation is a JWS string' };
  let header: JsonObject;
  let payload: JsonObject;
  try {
    ({ header, payload } = decodeJws(token));
  } catch (error) {
    return { cid: '', status: 'rejected', error: messageOf(error) };
  }
  let cid = '';
  try {
    cid = computeCid(payload).cid;
  } catch {
    // payload outside the canonical JSON model; the kind-specific decode below reports why
  }
  const classified = classifyJws(token);
  if (classified === null || classified === 'auth-token') {
    const typ = typeof header.typ === 'string' ? header.typ : '(none)';
    return { cid, status: 'rejected', error: `unsupported operation type: ${typ}` };
  }
  let createdAt = '';
  if (classified === 'credential') {
    const iat = payload.iat;
    if (typeof iat === 'number' && Number.isSafeInteger(iat) && iat >= 0 && iat < 253402300800) {
      createdAt = formatCreatedAt(new Date(iat * 1000));
    }
  } else if (typeof payload.createdAt === 'string') {
    createdAt = payload.createdAt;
  }
  return { index, token, kind: classified, cid, payload, header, createdAt };
}

/** Attaches the batch document a content operation commits to, if the batch brought it. */
function withDocument(operation: PreparedOperation, documents: BatchDocuments): PreparedOperation {
  if (operation.kind !== 'content-op' || documents.size === 0) return operation;
  const committed = operation.payload.documentCID;
  const document = typeof committed === 'string' ? documents.get(committed) : undefined;
  return document ? { ...operation, document } : operation;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function newOutcome(cid: string, kind: RelayOperationKind, chainId: string): Outcome {
  return {
    result: { cid, status: 'new', kind, chainId },
    dependency: false,
    // A revocation is told on the identity bus by its issuer too, so connections standing on the
    // revoked credential close on every replica
    // (docs/decisions/0172-streams-close-on-revocation-and-key-removal.md).
    ...(kind === 'identity-op' || kind === 'revocation' ? { changedIdentity: chainId } : {}),
  };
}

/**
 * PostgreSQL `text` and `jsonb` cannot hold U+0000, which the protocol allows in any string (e.g. a
 * service endpoint). Such an operation is refused on its own (its transaction rolled back), not a 500.
 */
const UNSTORABLE_TEXT_CODES = new Set(['22021', '22P05']);
const UNSTORABLE_TEXT_ERROR = 'the operation holds a NUL (U+0000) character, which this relay cannot store';

function isUnstorableText(error: unknown): boolean {
  return (
    error instanceof QueryFailedError &&
    UNSTORABLE_TEXT_CODES.has((error as QueryFailedError & { code?: string }).code ?? '')
  );
}

function isUniqueViolation(error: unknown): error is QueryFailedError {
  return (
    error instanceof QueryFailedError &&
    (error as QueryFailedError & { code?: string }).code === UNIQUE_VIOLATION
  );
}

/** The parent as the library's content verification needs it (only cid, type, createdAt are read). */
function recordOf(row: RelayOperation): ContentOperationRecord {
  const decoded = decodeContentOperation(row.jws);
  const { did, keyId } = parseDidUrl(decoded.jws.header.kid);
  return {
    cid: row.cid,
    jws: row.jws,
    operation: decoded.operation,
    type: decoded.operation.type,
    previousCid: row.previousCid,
    createdAt: row.createdAt,
    signerDid: did,
    signerKeyId: keyId,
    documentCID: row.documentCid,
  };
}

/** Every key that ever appeared in a create/update, first appearance first (historical resolver). */
function mergeKeyHistory(history: readonly MultikeyPublicKey[], state: IdentityState): MultikeyPublicKey[] {
  const merged = [...history];
  const seen = new Set(history.map((key) => `${key.id} ${key.publicKeyMultibase}`));
  for (const key of [...state.authKeys, ...state.assertKeys, ...state.controllerKeys]) {
    const id = `${key.id} ${key.publicKeyMultibase}`;
    if (seen.has(id)) continue;
    seen.add(id);
    merged.push({ id: key.id, type: key.type, publicKeyMultibase: key.publicKeyMultibase });
  }
  return merged;
}

/**
 * The index's profile projection anchor (WEB-RELAY.md "Well-Known Projections" row 1): a
 * ContentAnchor labelled "profile" (case-insensitively) that names a content chain; with several,
 * the smallest service id.
 */
function profileAnchorOf(services: readonly ServiceEntry[]): string | null {
  let best: ServiceEntry | null = null;
  for (const entry of services) {
    if (entry.type !== CONTENT_ANCHOR) continue;
    if (typeof entry.label !== 'string' || entry.label.toLowerCase() !== PROFILE_LABEL) continue;
    if (typeof entry.anchor !== 'string' || !ID_PATTERN.test(entry.anchor)) continue;
    if (best === null || entry.id < best.id) best = entry;
  }
  return best ? (best.anchor as string) : null;
}
