import { Injectable } from '@nestjs/common';
import { CredentialGrant } from '../../../common/auth/request-authenticator';
import { Clock } from '../../../common/clock/clock';
import { AppConfig } from '../../../config/app-config';
import { parseDidUrl, ProtocolError, verifyCredential } from '../../core';
import { toCredentialGrant } from '../domain/credential-grant';
import { IdentityDirectory, RevocationLookup } from '../domain/identity-directory';
import { AccountDeactivationService } from '../../relay/services/account-deactivation.service';

/**
 * Verifies an X-Credential (design.md §4): signatures by historical key resolution, `aud` = the
 * calling app, `host` = PUBLIC_HOST, expiry and revocation at every level. A credential that fails
 * any check is "broken" (null); a revocation store that cannot answer is a 503, never a pass.
 */
@Injectable()
export class CredentialVerificationService {
  constructor(
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly identities: IdentityDirectory,
    private readonly revocations: RevocationLookup,
    private readonly deactivations: AccountDeactivationService,
  ) {}

  async verify(token: string, appDid: string): Promise<CredentialGrant | null> {
    try {
      const credential = await verifyCredential(token, {
        now: this.clock.now(),
        expectedAudience: appDid,
        expectedHost: this.config.publicHost,
        allowPublicAudience: false,
        isRevoked: (cid, issuerDid) => this.revocations.isRevoked(cid, issuerDid),
        resolveIssuerKey: async (kid, issuerDid) => {
          const { did, keyId } = parseDidUrl(kid);
          const state = await this.identities.current(issuerDid);
          if (!state || did !== issuerDid) throw new ProtocolError('KEY_NOT_FOUND', 'unknown issuer');
          if (state.isDeleted) throw new ProtocolError('IDENTITY_DELETED', 'issuer identity is deleted');
          // An account awaiting its erasure is deactivated as a delete deactivates
          // (docs/decisions/0191-a-pending-erasure-deactivates-as-a-delete.md).
          if (await this.deactivations.isDeactivated(issuerDid)) {
            throw new ProtocolError('IDENTITY_DELETED', 'issuer account is deactivated');
          }
          const key = await this.identities.resolveKeyAt(did, keyId);
          if (!key) throw new ProtocolError('KEY_NOT_FOUND', 'unknown issuer key');
          return key.publicKeyMultibase;
        },
      });
      return toCredentialGrant(credential);
    } catch (error) {
      if (error instanceof ProtocolError) return null;
      throw error;
    }
  }
}
