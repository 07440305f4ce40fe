/**
 * The public API of the `events` module: what other modules may import (docs/architecture.md
 * "Module shape"). Nothing yet: no other module depends on it.
 */
export {};
