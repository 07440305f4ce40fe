import { ProtocolError } from './errors';

/** The fields head selection reads from a content operation. */
export interface HeadCandidate {
  readonly cid: string;
  readonly createdAt: string;
  readonly previousCid: string | null;
}

/**
 * Head preference: higher createdAt wins, then higher CID. Both are compared with the relational
 * string operators, i.e. by code unit, which on these ASCII-only grammars is byte order. Never
 * localeCompare and never a parsed date (PROTOCOL.md "Comparison basis").
 */
export function compareHeadPreference(a: HeadCandidate, b: HeadCandidate): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  if (a.cid !== b.cid) return a.cid < b.cid ? -1 : 1;
  return 0;
}

/** Operations no other operation extends. */
export function findTips<T extends HeadCandidate>(operations: readonly T[]): T[] {
  const parents = new Set(
    operations.map((op) => op.previousCid).filter((cid): cid is string => cid !== null),
  );
  return operations.filter((op) => !parents.has(op.cid));
}

/** Deterministic content-chain head: the most preferred tip, whatever the ingestion order. */
export function selectHead<T extends HeadCandidate>(operations: readonly T[]): T {
  const tips = findTips(operations);
  if (tips.length === 0)
    throw new ProtocolError('CHAIN_INVALID', 'a content chain has at least one operation');
  return tips.reduce((best, op) => (compareHeadPreference(op, best) > 0 ? op : best));
}

/** Canonical fold order: ascending preference, so the head-selected operation sorts last. */
export function linearize<T extends HeadCandidate>(operations: readonly T[]): T[] {
  return [...operations].sort(compareHeadPreference);
}
