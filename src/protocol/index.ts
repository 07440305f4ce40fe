export { AuthModule } from './auth/auth.module';
export { grantCoversSpace } from './auth/domain/credential-grant';
export { IdentityDirectory } from './auth/domain/identity-directory';
export {
  AccountDeactivationService,
  type DeactivationSource,
} from './relay/services/account-deactivation.service';
export {
  ProofStandingService,
  type ProofHolder,
  type StandingListener,
} from './auth/services/proof-standing.service';
export { ChainGenesis, type SignedGenesis } from './publishing/domain/chain-genesis';
export { ChainOutboxService } from './publishing/services/chain-outbox.service';
export { type ChainOwner, type ChainState, type StoredHead } from './publishing/domain/chain-owner';
export {
  ContentPublisher,
  PROFILE_SCHEMA,
  type PublishedContent,
} from './publishing/domain/content-publisher';
export { OriginIdentities } from './publishing/domain/origin-identities';
export { PublishingModule } from './publishing/publishing.module';
export { IdentityDeactivated, IdentityRestored } from './relay/events/identity.events';
export {
  ChainExportService,
  type ChainLogEntry,
  type ExportedContentChain,
  type ExportedIdentityChain,
} from './relay/services/chain-export.service';
export {
  ExportedChainsInvalid,
  verifyExportedChains,
  type ExportedChains,
  type VerifiedExportedContent,
} from './relay/domain/exported-chain-verification';
export { IdentityStateService } from './relay/services/identity-state.service';
export { RelayIngestService } from './relay/services/relay-ingest.service';
export { RelayModule } from './relay/relay.module';
/**
 * `deactivated_identities` (`did`): the identities whose chain's head is a `delete`
 * (docs/decisions/0190-deactivation-follows-the-identity-chain.md).
 */
export const PUBLISHED_VIEWS = ['deactivated_identities'] as const;
