import { v7 as uuidv7 } from 'uuid';

/**
 * Wire prefixes of entity ids (api-spec.md "Shared conventions"), as the keys of an interface so
 * that a module adds its own from its folder (docs/decisions/0132-adding-a-module.md):
 * `declare module '../../common/ids/entity-id' { interface EntityPrefixes { bookmark: true } }`.
 */
export interface EntityPrefixes {
  space: true;
  post: true;
  comment: true;
  media: true;
  topic: true;
  page: true;
  group: true;
  identity: true;
  evt: true;
  product: true;
  price: true;
  release: true;
  notification: true;
  application: true;
  space_invite: true;
}

export type EntityPrefix = keyof EntityPrefixes;

const HEX_UUID = /^[0-9a-f]{32}$/;

/**
 * Entity ids are `<prefix>_<32 hex>`: a UUIDv7 (time-ordered, so inserts stay index-local) without
 * dashes. The database keeps the bare `uuid`; the prefix lives only on the wire.
 */
export function newUuid(): string {
  return uuidv7();
}

export function formatEntityId(prefix: EntityPrefix, uuid: string): string {
  return `${prefix}_${uuid.replace(/-/g, '')}`;
}

/** The uuid behind a wire id of the given type, or null for anything malformed or of another type. */
export function parseEntityId(prefix: EntityPrefix, raw: unknown): string | null {
  if (typeof raw !== 'string' || !raw.startsWith(`${prefix}_`)) return null;
  const hex = raw.slice(prefix.length + 1);
  if (!HEX_UUID.test(hex)) return null;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
