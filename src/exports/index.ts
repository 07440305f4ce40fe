/**
 * The public API of the `exports` module (docs/architecture.md "Module shape"): its Nest module and
 * the service, for the CLI, the bench and tests (the build and the sweep), and its part of an
 * account's erasure (imported by account-erasure only).
 */
export { ExportsModule } from './exports.module';
export { ExportsService } from './services/exports.service';
export { ExportErasureService } from './services/export-erasure.service';
export {
  ArchiveRejected,
  readSpaceArchive,
  streamArchiveMedia,
  type ReadArchive,
} from './domain/archive-reader';
