import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import {
  CredentialGrant,
  RequestAuthenticator,
  RequestPrincipal,
  RouteAllowances,
} from '../../../common/auth/request-authenticator';
import { RouteAccess, Scope } from '../../../common/auth/route-access';
import { Clock } from '../../../common/clock/clock';
import { conflict, CredentialRefused, forbidden, unauthorized } from '../../../common/errors/api-error';
import { AppConfig } from '../../../config/app-config';
import { AccountDeactivationService } from '../../relay/services/account-deactivation.service';
import { CredentialVerificationService } from './credential-verification.service';
import { grantedScopes } from '../domain/credential-grant';
import { IdentityDirectory } from '../domain/identity-directory';
import { ReplayService } from './replay.service';
import { ProofRejected, verifyRequestProof } from '../domain/request-proof';

/** (signer, jti) is remembered a little longer than any proof can live (iat window + lifetime). */
const REPLAY_WINDOW_SECONDS = 360;

/** The 403 to a proof signed by an account whose erasure is pending, off the routes that allow it. */
export const ERASURE_PENDING_MESSAGE =
  'Erasure of this account is pending; restore it (POST /profile/restore) to use it';

/** The (signer, jti) pair a write reserved, kept on the request for ReplayReleaseService. */
export const REPLAY_RESERVATION = Symbol('replay-reservation');
export interface ReplayReservation {
  did: string;
  jti: string;
}

/**
 * The request-proof and credential checks of design.md §3–§4 behind every non-anonymous route.
 * Proof failures are 401; a controller-only key on a write is 403; a broken or non-covering
 * credential is the anonymous projection on optional-auth routes and 403 on gated ones; a replayed
 * write is 409. The jti is recorded last, so a refused request never uses it up. A proof signed by an
 * account whose erasure is pending is 403 except on the routes that allow it
 * (docs/decisions/0198-a-pending-erasure-accepts-proofs-only-to-leave.md).
 */
@Injectable()
export class ProofAuthenticationService extends RequestAuthenticator {
  constructor(
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly identities: IdentityDirectory,
    private readonly credentials: CredentialVerificationService,
    private readonly replays: ReplayService,
    private readonly deactivations: AccountDeactivationService,
  ) {
    super();
  }

  async authenticate(
    request: Request,
    access: RouteAccess,
    beforeCommit?: (principal: RequestPrincipal) => void | Promise<void>,
    allowances?: RouteAllowances,
  ): Promise<RequestPrincipal | null> {
    const authorization = request.headers.authorization;
    const credentialToken = singleHeader(request.headers['x-credential']);
    if (!authorization) {
      if (access.kind === 'optional') return null;
      throw unauthorized('Authorization required');
    }
    const proof = await this.verifyProof(request, authorization, credentialToken);
    // A credential is verified only where one is taken; an identity-proof route refuses it below.
    const grant =
      credentialToken !== undefined && access.kind !== 'identity'
        ? await this.credentials.verify(credentialToken, proof.did)
        : null;
    const acting: RequestPrincipal = grant
      ? { did: grant.issuer, grant: grant.cid, credential: grant }
      : { did: proof.did, grant: proof.did };
    // Per-grant budgets are charged once the proof verifies (api-spec.md "Limits"), whatever the
    // route then answers, and before the jti is spent (design.md §3: record it last). A credential
    // that does not verify has no trustworthy id, so the signer's DID is charged.
    const charged = beforeCommit?.(acting);
    if (charged) await charged;

    // A person leaving keeps only what leaving needs: their own bare proof on the routes that
    // declare it (@AllowedWhileErasurePending). Elsewhere, and with a credential, 403 before the jti
    // or an idempotency key is stored, so nothing is written. The answer is the per-replica cached
    // one that credentials already use (docs/decisions/0198-a-pending-erasure-accepts-proofs-only-to-leave.md).
    const allowed = allowances?.whileErasurePending === true && credentialToken === undefined;
    if (!allowed && (await this.deactivations.isDeactivated(proof.did))) {
      throw forbidden(ERASURE_PENDING_MESSAGE);
    }
    if (proof.isWrite && !proof.roles.includes('auth'))
      throw forbidden('Writes must be signed by an auth key');
    let principal: RequestPrincipal | null = acting;
    if (credentialToken !== undefined) {
      if (access.kind === 'identity') throw forbidden('This route takes a bare identity proof');
      principal = this.covering(grant, access);
    } else if (access.kind === 'gated' && !access.identityProof) {
      throw unauthorized('X-Credential required');
    }

    if (
      proof.isWrite &&
      proof.jti &&
      !(await this.replays.remember(proof.did, proof.jti, REPLAY_WINDOW_SECONDS))
    ) {
      throw conflict('Replayed request');
    }
    if (proof.isWrite && proof.jti) {
      (request as Request & { [REPLAY_RESERVATION]?: ReplayReservation })[REPLAY_RESERVATION] = {
        did: proof.did,
        jti: proof.jti,
      };
    }
    return principal;
  }

  private async verifyProof(request: Request, authorization: string, credential: string | undefined) {
    try {
      return await verifyRequestProof(
        { method: request.method, target: request.originalUrl, authorization, credential },
        {
          audience: this.config.publicHost,
          now: this.clock.now(),
          stateOf: (did) => this.identities.current(did),
        },
      );
    } catch (error) {
      if (error instanceof ProofRejected) throw unauthorized(`Invalid request proof: ${error.message}`);
      throw error;
    }
  }

  /**
   * The acting person is the credential's issuer (the app signing the proof is its audience), when
   * the credential verified and holds the route's scopes; else the anonymous projection on
   * optional-auth routes and 403 on gated ones.
   */
  private covering(grant: CredentialGrant | null, access: RouteAccess): RequestPrincipal | null {
    const required: Scope[] = access.kind === 'gated' || access.kind === 'optional' ? access.scopes : [];
    const held = grant ? grantedScopes(grant) : new Set<Scope>();
    const covered =
      grant !== null &&
      (required.length === 0 ||
        (access.kind === 'gated' && access.anyOf
          ? required.some((scope) => held.has(scope))
          : required.every((scope) => held.has(scope))));
    if (!covered) {
      if (access.kind === 'optional') return null;
      throw new CredentialRefused(
        grant ? 'Credential does not grant this scope' : 'Credential is invalid, expired or revoked',
      );
    }
    return { did: grant.issuer, grant: grant.cid, credential: grant };
  }
}

function singleHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
