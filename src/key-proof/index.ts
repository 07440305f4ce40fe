/**
 * The public API of the `key-proof` module: what other modules may import (docs/architecture.md
 * "Module shape"): its part of an account's erasure.
 */
export { KeyProofErasureService } from './services/key-proof-erasure.service';
export { KeyProofModule } from './key-proof.module';
