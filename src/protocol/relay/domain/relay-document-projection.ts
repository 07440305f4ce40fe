import { PROFILE_SCHEMA } from '../../publishing/domain/content-publisher';

/** The display-name registry's post row (WEB-RELAY.md "Well-Known Projections", row 2). */
export const POST_SCHEMA = 'https://schemas.dfos.com/post/v1';

/** A held document's index projections, stored with it (relay_documents.doc_schema, display_name). */
export interface DocumentProjection {
  docSchema: string | null;
  displayName: string | null;
}

/** Display-name field per enumerated `$schema` (WEB-RELAY.md registry rows 1 and 2); nothing else is read. */
const DISPLAY_NAME_FIELD: Readonly<Record<string, string>> = {
  [PROFILE_SCHEMA]: 'name',
  [POST_SCHEMA]: 'title',
};

export function projectDocument(document: Record<string, unknown>): DocumentProjection {
  const schema = document.$schema;
  if (typeof schema !== 'string') return { docSchema: null, displayName: null };
  const field = Object.hasOwn(DISPLAY_NAME_FIELD, schema) ? DISPLAY_NAME_FIELD[schema] : undefined;
  const value = field === undefined ? undefined : document[field];
  return { docSchema: schema, displayName: typeof value === 'string' && value !== '' ? value : null };
}
