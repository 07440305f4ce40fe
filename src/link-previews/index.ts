/**
 * The public API of the `link-previews` module: what other modules may import (docs/architecture.md
 * "Module shape"); the boundary lint refuses any other path into the module.
 */
export { LinkPreviewsModule } from './link-previews.module';
export { LinkPreviewsService } from './services/link-previews.service';
export type { LinkPreviewView } from './domain/link-preview-view';
export { normalizeLinkUrl } from './domain/normalize-link-url';
