/**
 * The public API of the `imports` module: what other modules may import (docs/architecture.md
 * "Module shape"): its Nest module, and its part of an account's erasure (imported by
 * account-erasure only); the boundary lint refuses any other path into the module. Export a service
 * here when another module needs it (and add it to the module's `exports`). To let others join
 * a view of its tables, create the view in a migration and declare it here:
 * `export const PUBLISHED_VIEWS = ['imports_view'] as const;` (scripts/table-ownership.js).
 */
export { ImportsModule } from './imports.module';
export { ImportErasureService } from './services/import-erasure.service';
