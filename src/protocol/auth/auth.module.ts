import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RequestAuthenticator } from '../../common/auth/request-authenticator';
import { ERROR_RESPONSE_HOOKS } from '../../common/errors/error-response-hooks';
import { IdentityStateService } from '../relay/services/identity-state.service';
import { RevocationService } from '../relay/services/revocation.service';
import { RelayModule } from '../relay/relay.module';
import { AuthRepository } from './auth.repository';
import { IdentityDirectory, RevocationLookup } from './domain/identity-directory';
import { ReplayEntry } from './entities/replay-entry.entity';
import { CredentialVerificationService } from './services/credential-verification.service';
import { ProofAuthenticationService } from './services/proof-authentication.service';
import { ProofStandingService } from './services/proof-standing.service';
import { ReplayReleaseService } from './services/replay-release.service';
import { ReplayService } from './services/replay.service';

/**
 * Request proofs and credentials (design.md §3–§4) behind the route access guard. The identity
 * directory and revocation lookup are the relay module's cached services.
 */
@Module({
  imports: [TypeOrmModule.forFeature([ReplayEntry]), RelayModule],
  providers: [
    AuthRepository,
    CredentialVerificationService,
    // The relay module (global) holds identity chains and revocations.
    { provide: IdentityDirectory, useExisting: IdentityStateService },
    { provide: RevocationLookup, useExisting: RevocationService },
    { provide: RequestAuthenticator, useClass: ProofAuthenticationService },
    { provide: ERROR_RESPONSE_HOOKS, useClass: ReplayReleaseService },
    // PostgreSQL also beside Redis: a Redis restart would forget spent pairs.
    ReplayService,
    ProofStandingService,
  ],
  exports: [
    RequestAuthenticator,
    CredentialVerificationService,
    IdentityDirectory,
    RevocationLookup,
    ERROR_RESPONSE_HOOKS,
    ProofStandingService,
    // Its AccountDeactivationService, for the modules that read or change a deactivation.
    RelayModule,
  ],
})
export class AuthModule {}
