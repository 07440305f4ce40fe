/**
 * The public API of the `exports` module (docs/architecture.md "Module shape"): its Nest module and
 * the service, for the CLI, the bench and tests (the build and the sweep). Nothing else imports it.
 */
export { ExportsModule } from './exports.module';
export { ExportsService } from './services/exports.service';
