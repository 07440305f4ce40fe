/**
 * The public API of the `key-proof` module: what other modules may import (docs/architecture.md
 * "Module shape"). Nothing yet: no other module depends on it.
 */
export {};
