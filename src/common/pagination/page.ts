/** The page envelope of api-spec.md. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
  previousCursor?: string | null;
  totalCount?: number | null;
}
