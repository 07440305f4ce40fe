/** Worded counts of design.md §8; `noun` is plural ("members", "private posts"). */
export function wordedSummary(count: number, noun: string): string {
  if (count <= 0) return `no ${noun}`;
  if (count < 10) return `a handful of ${noun}`;
  if (count < 100) return `dozens of ${noun}`;
  if (count < 1000) return `hundreds of ${noun}`;
  if (count < 1_000_000) return `thousands of ${noun}`;
  return `millions of ${noun}`;
}
