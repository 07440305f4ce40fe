/**
 * What an account erasure did, by table: the rows it deleted or anonymized (tombstoned, stripped,
 * kept as a hash). Only counts: the audit line of an erasure names no content
 * (docs/decisions/0194-erasure-audit-lines-and-rate-limits.md).
 */
export type ErasedRows = Record<string, number>;

/** The rows a DELETE or UPDATE changed, from TypeORM's raw answer to them (`[rows, affected]`). */
export function affectedRows(answer: unknown): number {
  return Array.isArray(answer) && typeof answer[1] === 'number' ? answer[1] : 0;
}
