import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { RequestPrincipal } from '../../../common/auth/request-authenticator';
import { Clock } from '../../../common/clock/clock';
import { resolveCurrentKey } from '../../core';
import { IdentityCacheBusService } from '../../relay/services/identity-cache-bus.service';
import { IdentityDirectory, RevocationLookup } from '../domain/identity-directory';
import { AccountDeactivationService } from '../../relay/services/account-deactivation.service';

/** What a verified request stood on: the key that signed its proof, and its credential. */
export interface ProofHolder {
  /** The proof's signer (the person, or the app a credential was issued to). */
  signerDid: string;
  /** The signing key as the proof's `kid` named it (`<did>#<keyId>`). */
  kid: string;
  credential?: { cid: string; issuer: string; expiresAt: number };
}

/** Told when what a proof stood on may have changed. */
export interface StandingListener {
  /** This identity changed: a key added or removed, or a credential it issued revoked. */
  changed(did: string): void;
  /** Anything may have changed (invalidations may have been missed). */
  reset(): void;
}

/**
 * Whether a request that verified once still would, for connections that outlive their request
 * (the live stream, docs/decisions/0172-streams-close-on-revocation-and-key-removal.md): the
 * signer not deleted and its signing key still among its current keys, the credential neither
 * revoked nor expired and its issuer not deleted. `watch` hears every identity change and revocation ingested on any replica (the
 * identity cache bus, which also carries revocations by their issuer).
 */
@Injectable()
export class ProofStandingService {
  constructor(
    private readonly identities: IdentityDirectory,
    private readonly revocations: RevocationLookup,
    private readonly bus: IdentityCacheBusService,
    private readonly clock: Clock,
    private readonly deactivations: AccountDeactivationService,
  ) {}

  /** The holder of a request the access guard verified (its `Authorization` decodes). */
  holderOf(request: Request, principal: RequestPrincipal): ProofHolder {
    const token = (request.headers.authorization ?? '').replace(/^PLAT\s+/i, '');
    const header = JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString('utf8')) as {
      kid: string;
    };
    const signerDid = header.kid.split('#')[0];
    const { credential } = principal;
    return {
      signerDid,
      kid: header.kid,
      ...(credential
        ? { credential: { cid: credential.cid, issuer: credential.issuer, expiresAt: credential.expiresAt } }
        : {}),
    };
  }

  /** Whether the holder still stands; a store that cannot answer throws (the caller decides). */
  async stands(holder: ProofHolder): Promise<boolean> {
    const state = await this.identities.current(holder.signerDid);
    // A deleted identity is deactivated (docs/decisions/0190-deactivation-follows-the-identity-chain.md).
    if (!state || state.isDeleted) return false;
    if (await this.deactivated(holder)) return false;
    try {
      resolveCurrentKey(state, holder.kid);
    } catch {
      return false;
    }
    const { credential } = holder;
    if (!credential) return true;
    if (credential.expiresAt * 1000 <= this.clock.now().getTime()) return false;
    if (credential.issuer !== holder.signerDid) {
      const issuer = await this.identities.current(credential.issuer);
      if (!issuer || issuer.isDeleted) return false;
    }
    return !(await this.revocations.isRevoked(credential.cid, credential.issuer));
  }

  /**
   * Whether the signer's or the credential issuer's account is held deactivated by the platform (an
   * erasure pending: docs/decisions/0191-a-pending-erasure-deactivates-as-a-delete.md). Its own
   * proofs verify only where leaving needs them (docs/decisions/0198-a-pending-erasure-accepts-proofs-only-to-leave.md);
   * a stream does not stand on them.
   */
  async deactivated(holder: ProofHolder): Promise<boolean> {
    if (await this.deactivations.isDeactivated(holder.signerDid)) return true;
    const issuer = holder.credential?.issuer;
    return issuer !== undefined && issuer !== holder.signerDid && this.deactivations.isDeactivated(issuer);
  }

  watch(listener: StandingListener): void {
    this.bus.listen({ invalidate: (did) => listener.changed(did), reset: () => listener.reset() });
  }

  /** Drops everything cached when an invalidation was missed (bounded: at most one read a second). */
  confirmNoMissedChange(): Promise<void> {
    return this.bus.confirmNoMissedInvalidation();
  }
}
