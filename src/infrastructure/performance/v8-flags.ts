import { setFlagsFromString } from 'node:v8';

/**
 * Off: V8's allocation-site pretenuring. Under load it decides that the row objects the database
 * driver builds survive (a scavenge that lands while a result is arriving keeps all of them) and
 * allocates them in the old generation from then on. Each dead row then keeps its young strings
 * and dates alive through every young collection until a full one, and the process spent a large
 * share of its CPU time collecting (docs/decisions/0088-requests-built-on-expresss-prototypes-and-no-pretenuring.md;
 * what to check on a Node upgrade: docs/decisions/0128-performance-patches.md).
 * Set before any request is served, which is when the decisions are made; the flag is read at
 * each collection, so setting it at run time takes effect (the bench's GC trace shows it).
 */
export const V8_FLAGS = ['--no-allocation-site-pretenuring'] as const;

for (const flag of V8_FLAGS) setFlagsFromString(flag);
