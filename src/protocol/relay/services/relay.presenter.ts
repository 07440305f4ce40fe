import type { IdentityState } from '../../core';
import { PROFILE_SCHEMA } from '../../publishing/domain/content-publisher';
import { POST_SCHEMA } from '../domain/relay-document-projection';
import type { IndexContentRowDto, IndexIdentityRowDto } from '../dto/relay-responses.dto';
import type { ContentIndexRow, IdentityIndexRow } from '../repositories/relay-chains.repository';

/** Maps the relay's rows and states to its response DTOs. */

/** An identity state as the relay answers it (WEB-RELAY.md "Identity"). */
export function presentIdentityState(state: IdentityState) {
  const key = ({ id, type, publicKeyMultibase }: IdentityState['authKeys'][number]) => ({
    id,
    type,
    publicKeyMultibase,
  });
  return {
    did: state.did,
    isDeleted: state.isDeleted,
    authKeys: state.authKeys.map(key),
    assertKeys: state.assertKeys.map(key),
    controllerKeys: state.controllerKeys.map(key),
    services: state.services.map((entry) => ({ ...entry })),
  };
}

/** A row of the identity index; a profile's name only when public and a profile/v1 document. */
export function presentIdentityIndexRow(row: IdentityIndexRow): IndexIdentityRowDto {
  return {
    did: row.did,
    headCID: row.head_cid,
    opCount: row.op_count,
    genesisAt: row.genesis_at,
    headAt: row.head_at,
    isDeleted: row.is_deleted,
    profile: row.profile_anchor
      ? {
          anchor: row.profile_anchor,
          publicRead: row.public_read,
          docSchema: row.doc_schema,
          name: row.public_read && row.doc_schema === PROFILE_SCHEMA ? row.display_name : null,
        }
      : null,
  };
}

/** A row of the content index; a title only when public and a post/v1 document. */
export function presentContentIndexRow(row: ContentIndexRow): IndexContentRowDto {
  return {
    contentId: row.content_id,
    genesisCID: row.genesis_cid,
    headCID: row.head_cid,
    creatorDID: row.creator_did,
    isDeleted: row.is_deleted,
    opCount: row.op_count,
    genesisAt: row.genesis_at,
    headAt: row.head_at,
    currentDocumentCID: row.current_document_cid,
    publicRead: row.public_read,
    docSchema: row.doc_schema,
    title: row.public_read && row.doc_schema === POST_SCHEMA ? row.display_name : null,
  };
}
