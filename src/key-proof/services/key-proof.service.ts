import { randomBytes, randomInt } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { conflict, invalidRequest, notFound } from '../../common/errors/api-error';
import { AppConfig } from '../../config/app-config';
import {
  base64urlEncode,
  decodeJws,
  findKey,
  ID_ALPHABET,
  KEY_ROLES,
  keysInRole,
  typFor,
  validateIdentityOperation,
  type IdentityState,
  type IdentityUpdateOperation,
  type KeyRole,
  type MultikeyPublicKey,
} from '../../protocol/core';
import { IdentityStateService, RelayIngestService } from '../../protocol';
import { UsersService } from '../../users';
import {
  AdoptedKeyProof,
  CreatedKeyProof,
  DeclinedKeyProof,
  KeyProofAdopts,
  KeyProofRecord,
  KeyProofResolution,
  KeyProofStatus,
  PresentedKeyProof,
  PresentKeyProofRequest,
} from '../dto/key-proof.dto';
import {
  CEREMONY_LIFETIME_MS,
  DEFAULT_DESCRIPTION,
  DEFAULT_ROLE_SET,
  envelopeSignatureVerifies,
  EnvelopeError,
  KEY_ADD_PURPOSE,
  parseEnvelope,
  parseEnvelopeTimestamp,
  parseRoleSet,
  TIMESTAMP_WINDOW_MS,
} from '../domain/key-proof-envelope';
import { KeyProofCeremony } from '../entities/key-proof-ceremony.entity';
import { KeyProofRepository } from '../key-proof.repository';

export const CODE_LENGTH = 8;
const CODE_PATTERN = new RegExp(`^[${ID_ALPHABET}]{${CODE_LENGTH}}$`);
export const NOT_OPEN_MESSAGE = 'The key-proof ceremony is not open';

/** Raised for an unknown or lapsed code on the well-known route (its own 404 body). */
export class UnknownKeyProofCode extends Error {}

type CeremonyStatus = KeyProofStatus['status'];

/**
 * The key-proof ceremony (api-spec.md "Key-proof present request", design.md §10): the owner side
 * (open, read, adopt, decline) and the anonymous side (resolve, present, status).
 */
@Injectable()
export class KeyProofService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly identities: IdentityStateService,
    private readonly ingest: RelayIngestService,
    private readonly users: UsersService,
    private readonly ceremonies: KeyProofRepository,
  ) {}

  // ---- owner side ----

  async create(ownerDid: string, requested: string | undefined): Promise<CreatedKeyProof> {
    const roleSet = requested ?? DEFAULT_ROLE_SET;
    if (!parseRoleSet(roleSet)) {
      throw invalidRequest('Invalid request', [
        {
          path: 'roleSet',
          message: 'roleSet must list auth, assert, controller in this order, comma-joined',
        },
      ]);
    }
    const state = await this.liveState(ownerDid);
    if (!state) throw conflict('The identity cannot take new keys');
    const expiresAt = new Date(this.clock.now().getTime() + CEREMONY_LIFETIME_MS);
    for (;;) {
      const code = newCode();
      const stored = await this.ceremonies.insertUnlessCodeTaken({
        code,
        ownerDid,
        roleSet,
        prevCid: state.headCid,
        nonce: base64urlEncode(randomBytes(24)),
        expiresAt,
      });
      if (stored) return { code, expiresAt: expiresAt.toISOString() };
    }
  }

  async get(ownerDid: string, code: string): Promise<KeyProofRecord> {
    const ceremony = await this.ownCeremony(ownerDid, code);
    const state = await this.identities.current(ceremony.ownerDid);
    return {
      code: ceremony.code,
      status: this.statusOf(ceremony),
      stale: this.isStale(ceremony, state),
      roleSet: ceremony.roleSet,
      prevCID: ceremony.prevCid,
      presented: ceremony.presentedKey
        ? {
            publicKeyMultibase: ceremony.presentedKey,
            description: ceremony.description ?? DEFAULT_DESCRIPTION,
          }
        : null,
      expiresAt: ceremony.expiresAt.toISOString(),
    };
  }

  async adopt(ownerDid: string, code: string, token: string): Promise<AdoptedKeyProof> {
    const ceremony = await this.ownCeremony(ownerDid, code);
    if (this.statusOf(ceremony) !== 'presented' || !ceremony.presentedKey) {
      throw conflict('The ceremony has no presented key to adopt');
    }
    const state = await this.identities.current(ownerDid);
    if (!state || state.isDeleted) throw conflict('The identity cannot take new keys');
    if (state.headCid !== ceremony.prevCid) {
      throw conflict('The chain head moved: a fresh envelope must be presented');
    }
    const entry = this.checkAdoption(token, ceremony, state);
    const [result] = await this.ingest.ingest([token]);
    if (result.status === 'rejected') {
      const now = await this.identities.current(ownerDid);
      if (now && now.headCid !== ceremony.prevCid) {
        throw conflict('The chain head moved: a fresh envelope must be presented');
      }
      throw invalidRequest(`The operation was refused: ${result.error ?? 'it does not verify'}`);
    }
    const adopted = await this.ceremonies.markAdopted(
      ceremony.code,
      ceremony.presentedKey,
      entry.id,
      result.cid,
    );
    if (!adopted) throw conflict('The ceremony changed meanwhile');
    return { status: 'adopted', keyId: entry.id, chainOpCID: result.cid };
  }

  async decline(ownerDid: string, code: string): Promise<DeclinedKeyProof> {
    const ceremony = await this.ownCeremony(ownerDid, code);
    const status = this.statusOf(ceremony);
    if (status !== 'pending' && status !== 'presented') throw conflict('The ceremony is not open');
    if (!(await this.ceremonies.markDeclined(ceremony.code)))
      throw conflict('The ceremony changed meanwhile');
    return { status: 'rejected' };
  }

  // ---- key-proof routes (anonymous) ----

  async resolve(code: string): Promise<KeyProofResolution> {
    const ceremony = await this.find(code);
    if (!ceremony || !this.isOpen(ceremony)) throw new UnknownKeyProofCode();
    const state = await this.liveState(ceremony.ownerDid);
    if (!state) throw new UnknownKeyProofCode();
    return {
      present: `${this.config.publicBaseUrl}/v1/key-proof/present`,
      nonce: ceremony.nonce,
      audience: this.config.publicHost,
      purpose: KEY_ADD_PURPOSE,
      adopts: await this.adopts(ceremony.ownerDid),
      roleSet: ceremony.roleSet,
      prevCID: state.headCid,
      expiresAt: ceremony.expiresAt.toISOString(),
      relay: this.config.relayUrl,
    };
  }

  async present(request: PresentKeyProofRequest): Promise<PresentedKeyProof> {
    let envelope: ReturnType<typeof parseEnvelope>;
    try {
      envelope = parseEnvelope(request.envelope);
    } catch (error) {
      if (error instanceof EnvelopeError) throw invalidRequest(error.message);
      throw error;
    }
    const { payload } = envelope;
    if (payload.audience !== this.config.publicHost) {
      throw invalidRequest('The envelope is for another audience');
    }
    const signedAt = parseEnvelopeTimestamp(payload.timestamp);
    if (signedAt === null || Math.abs(this.clock.now().getTime() - signedAt) > TIMESTAMP_WINDOW_MS) {
      throw invalidRequest('The envelope timestamp is not within five minutes of now');
    }

    const outcome = await this.dataSource.transaction(async (manager) => {
      const ceremony = await this.find(request.code, manager, true);
      if (!ceremony || !this.isOpen(ceremony) || ceremony.nonce !== payload.nonce) {
        return invalidRequest(NOT_OPEN_MESSAGE);
      }
      const state = await this.liveState(ceremony.ownerDid);
      if (payload.did !== ceremony.ownerDid || !state) {
        return invalidRequest('The envelope is bound to a different identity');
      }
      if (payload.roleSet !== ceremony.roleSet) {
        return invalidRequest('The envelope is bound to a different role set');
      }
      if (payload.prevCID !== state.headCid) {
        return invalidRequest('The envelope is bound to a different chain head');
      }
      if (!envelopeSignatureVerifies(envelope)) {
        await this.ceremonies.markBurned(ceremony.code, manager);
        return invalidRequest('The envelope signature does not verify; the ceremony is burned');
      }
      if (ceremony.presentedKey !== null && ceremony.presentedKey !== payload.publicKeyMultibase) {
        return invalidRequest('A different key was already presented to this ceremony');
      }
      if (hasKey(state, payload.publicKeyMultibase)) {
        return invalidRequest('The key is already a key of this identity');
      }
      const elsewhere = await this.ceremonies.keyProvedElsewhere(
        payload.publicKeyMultibase,
        ceremony.ownerDid,
        manager,
      );
      if (elsewhere) return invalidRequest('The key was already proved by another identity');
      const description = request.description?.trim() ? request.description.trim() : DEFAULT_DESCRIPTION;
      await this.ceremonies.markPresented(
        ceremony.code,
        {
          presentedKey: payload.publicKeyMultibase,
          description,
          envelope: request.envelope,
          prevCid: payload.prevCID,
        },
        manager,
      );
      return ceremony;
    });
    // A burned ceremony must stay burned: refusals are returned, so the transaction commits.
    if (outcome instanceof Error) throw outcome;
    return {
      status: 'presented',
      adopts: await this.adopts(outcome.ownerDid),
      expiresAt: outcome.expiresAt.toISOString(),
    };
  }

  async status(code: string): Promise<KeyProofStatus> {
    const ceremony = await this.find(code);
    if (!ceremony) throw invalidRequest(NOT_OPEN_MESSAGE);
    const status = this.statusOf(ceremony);
    const state = status === 'presented' ? await this.identities.current(ceremony.ownerDid) : null;
    const response: KeyProofStatus = { status, stale: this.isStale(ceremony, state) };
    const live = this.clock.now().getTime() < ceremony.expiresAt.getTime();
    if (status === 'adopted' && live && ceremony.adoptedKeyId && ceremony.chainOpCid) {
      response.onAdopted = {
        did: ceremony.ownerDid,
        keyId: ceremony.adoptedKeyId,
        chainOpCID: ceremony.chainOpCid,
      };
    }
    return response;
  }

  // ---- helpers ----

  /**
   * The adopt operation must be a signed update extending `prevCID` whose key sets equal the
   * current ones plus exactly the presented key in exactly the ceremony's roles (services kept).
   */
  private checkAdoption(token: string, ceremony: KeyProofCeremony, state: IdentityState): MultikeyPublicKey {
    let operation: IdentityUpdateOperation;
    try {
      const decoded = decodeJws(token, { expectedTyp: typFor('identity-op') });
      const parsed = validateIdentityOperation(decoded.payload);
      if (parsed.type !== 'update') throw new Error('not an update');
      operation = parsed;
    } catch {
      throw invalidRequest('operation must be a signed identity update operation');
    }
    if (operation.previousOperationCID !== ceremony.prevCid) {
      throw invalidRequest('operation must extend the ceremony’s prevCID');
    }
    const roles = parseRoleSet(ceremony.roleSet) ?? [];
    const added = KEY_ROLES.flatMap((role) => setOf(operation, role)).filter(
      (key) => key.publicKeyMultibase === ceremony.presentedKey,
    );
    const entry = added[0];
    const exact =
      entry !== undefined &&
      !findKey(state, entry.id) &&
      added.every((key) => key.id === entry.id) &&
      KEY_ROLES.every((role) => {
        const expected = keysInRole(state, role).map(keyText);
        if (roles.includes(role)) expected.push(keyText(entry));
        return sameMembers(setOf(operation, role).map(keyText), expected);
      }) &&
      JSON.stringify(operation.services ?? []) === JSON.stringify(state.services);
    if (!exact) {
      throw invalidRequest('operation must add exactly the presented key to exactly the role set');
    }
    return entry;
  }

  private async adopts(did: string): Promise<KeyProofAdopts> {
    const [handle, names] = await Promise.all([this.users.handleOf(did), this.users.displayNamesOf([did])]);
    return { did, handle, displayName: names.get(did) ?? null };
  }

  private async liveState(did: string): Promise<IdentityState | null> {
    const state = await this.identities.current(did);
    return state && !state.isDeleted ? state : null;
  }

  private async ownCeremony(ownerDid: string, code: string): Promise<KeyProofCeremony> {
    const ceremony = await this.find(code);
    if (!ceremony || ceremony.ownerDid !== ownerDid) throw notFound();
    return ceremony;
  }

  private find(code: string, manager?: EntityManager, lock = false): Promise<KeyProofCeremony | null> {
    if (typeof code !== 'string' || !CODE_PATTERN.test(code)) return Promise.resolve(null);
    return this.ceremonies.find(code, manager, lock);
  }

  private isOpen(ceremony: KeyProofCeremony): boolean {
    const status = this.statusOf(ceremony);
    return status === 'pending' || status === 'presented';
  }

  private statusOf(ceremony: KeyProofCeremony): CeremonyStatus {
    const open = ceremony.status === 'pending' || ceremony.status === 'presented';
    if (open && this.clock.now().getTime() >= ceremony.expiresAt.getTime()) return 'expired';
    return ceremony.status;
  }

  /** Presented, and the head the envelope is bound to is no longer the chain head. */
  private isStale(ceremony: KeyProofCeremony, state: IdentityState | null): boolean {
    return this.statusOf(ceremony) === 'presented' && state !== null && state.headCid !== ceremony.prevCid;
  }
}

function newCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += ID_ALPHABET[randomInt(ID_ALPHABET.length)];
  return code;
}

function hasKey(state: IdentityState, multikey: string): boolean {
  return KEY_ROLES.some((role) => keysInRole(state, role).some((key) => key.publicKeyMultibase === multikey));
}

function setOf(operation: IdentityUpdateOperation, role: KeyRole): MultikeyPublicKey[] {
  return role === 'auth'
    ? operation.authKeys
    : role === 'assert'
      ? operation.assertKeys
      : operation.controllerKeys;
}

function keyText(key: MultikeyPublicKey): string {
  return `${key.id} ${key.publicKeyMultibase}`;
}

function sameMembers(a: string[], b: string[]): boolean {
  const left = [...a].sort();
  const right = [...b].sort();
  return left.length === right.length && left.every((value, i) => value === right[i]);
}
