import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RequestAuthenticator } from '../../common/auth/request-authenticator';
import { ERROR_RESPONSE_HOOKS } from '../../common/errors/error-response-hooks';
import { CredentialVerifier } from './services/credential-verifier.service';
import { IdentityDirectory, RevocationLookup } from './domain/identity-directory';
import { ProofAuthenticator } from './services/proof-authenticator.service';
import { ReplayRelease } from './services/replay-release.service';
import { ReplayEntry } from './entities/replay-entry.entity';
import { IdentityStateService } from '../relay/services/identity-state.service';
import { RevocationService } from '../relay/services/revocation.service';
import { PostgresReplayStore, ReplayStore } from './services/replay-store.service';
import { RelayModule } from '../relay/relay.module';

/**
 * Request proofs and credentials (design.md §3–§4) behind the route access guard. The identity
 * directory and revocation lookup are the relay module's cached services.
 */
@Module({
  imports: [TypeOrmModule.forFeature([ReplayEntry]), RelayModule],
  providers: [
    CredentialVerifier,
    // The relay module (global) holds identity chains and revocations.
    { provide: IdentityDirectory, useExisting: IdentityStateService },
    { provide: RevocationLookup, useExisting: RevocationService },
    { provide: RequestAuthenticator, useClass: ProofAuthenticator },
    { provide: ERROR_RESPONSE_HOOKS, useClass: ReplayRelease },
    // PostgreSQL also beside Redis: a Redis restart would forget spent pairs.
    { provide: ReplayStore, useClass: PostgresReplayStore },
  ],
  exports: [
    RequestAuthenticator,
    CredentialVerifier,
    IdentityDirectory,
    RevocationLookup,
    ERROR_RESPONSE_HOOKS,
  ],
})
export class AuthModule {}
