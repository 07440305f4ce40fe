/**
 * The public API of the `account-erasure` module (docs/architecture.md "Module shape"): the sweep,
 * for the CLI and tests.
 */
export { AccountErasuresService, ErasureSweep } from './services/account-erasures.service';
export { AccountErasureModule } from './account-erasure.module';
