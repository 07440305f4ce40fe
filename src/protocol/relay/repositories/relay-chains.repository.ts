import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { defineStatements } from '../../../infrastructure/database/statements';
import { RelayContentChain, RelayDocument, RelayIdentityChain } from '../entities';

/**
 * The rows of a content genesis in one statement ($1 document CID, $2 document, $3 operation CID,
 * $4 content id, $5 token, $6 creator DID, $7 createdAt, $8 the chain state, $9 the document's
 * schema, $10 its display name): the operation, the chain at its genesis, and the document under
 * that chain, only with a new operation (a chain holds only what its own operations bring).
 */
const INSERT_GENESIS = `WITH operation AS (
         INSERT INTO relay_operations
           (cid, kind, chain_id, jws, signer_did, created_at, previous_cid, op_type, document_cid)
         VALUES ($3, 'content-op', $4, $5, $6, $7, NULL, 'create', $1)
         ON CONFLICT (cid) DO NOTHING
         RETURNING cid
       ), document AS (
         INSERT INTO relay_documents (content_id, document_cid, document, doc_schema, display_name)
         SELECT $4, $1, $2::jsonb, $9, $10 FROM operation
         ON CONFLICT DO NOTHING
       )
       INSERT INTO relay_content_chains
         (content_id, creator_did, genesis_cid, head_cid, genesis_at, head_at, op_count, is_deleted,
          current_document_cid, state)
       SELECT $4, $6, cid, cid, $7, $7, 1, false, $1, $8::jsonb FROM operation
       RETURNING content_id`;

/**
 * A deactivated identity's documents (deleted by its chain, or its erasure pending) are not public
 * until a restore: no name, no title, `publicRead` false
 * (docs/decisions/0223-relay-documents-of-deactivated-identities.md).
 *
 * The identity index (WEB-RELAY.md "Index"): every filter is one parameter, NULL when absent
 * (docs/decisions/0135-optional-filters-as-null-parameters.md): $1 DID, $2 hasPublicProfile,
 * $3 the LIKE pattern of nameContains with $4 the profile schema, $5 limit; the keyset by DID
 * ($6 after) or by time ($6 the time, $7 the DID after it).
 */
const IDENTITY_INDEX = `SELECT * FROM (
         SELECT i.did, i.head_cid, i.op_count, i.genesis_at, i.head_at, i.is_deleted, i.profile_anchor,
                (d.document_cid IS NOT NULL) AS public_read, d.doc_schema, d.display_name
         FROM relay_identity_chains i
         LEFT JOIN relay_content_chains c ON c.content_id = i.profile_anchor
         LEFT JOIN relay_documents d
           ON d.content_id = c.content_id AND d.document_cid = c.current_document_cid AND NOT c.is_deleted
          AND NOT i.is_deleted AND NOT EXISTS (SELECT 1 FROM erasure_pending_accounts e WHERE e.did = i.did)
       ) entry
       WHERE ($1::varchar IS NULL OR entry.did = $1)
         AND ($2::boolean IS NULL OR (entry.profile_anchor IS NOT NULL AND entry.public_read) = $2)
         AND ($3::text IS NULL OR (entry.doc_schema = $4 AND lower(entry.display_name) LIKE lower($3)))`;

/**
 * The content index (WEB-RELAY.md "Index"), filters as above: $1 content id, $2 creator, $3 a
 * signer of one of its operations, $4 docSchema, $5 documentCID, $6 publicRead, $7 isDeleted,
 * $8 the LIKE pattern of titleContains with $9 the post schema, $10 limit; the keyset by content
 * id ($11 after) or by time ($11 the time, $12 the content id after it).
 */
const CONTENT_INDEX = `SELECT * FROM (
         SELECT c.content_id, c.genesis_cid, c.head_cid, c.creator_did, c.is_deleted, c.op_count,
                c.genesis_at, c.head_at, c.current_document_cid,
                (d.document_cid IS NOT NULL) AS public_read, d.doc_schema, d.display_name
         FROM relay_content_chains c
         LEFT JOIN relay_documents d
           ON d.content_id = c.content_id AND d.document_cid = c.current_document_cid AND NOT c.is_deleted
          AND NOT EXISTS (SELECT 1 FROM deactivated_identities x WHERE x.did = c.creator_did)
          AND NOT EXISTS (SELECT 1 FROM erasure_pending_accounts e WHERE e.did = c.creator_did)
       ) entry
       WHERE ($1::varchar IS NULL OR entry.content_id = $1)
         AND ($2::varchar IS NULL OR entry.creator_did = $2)
         AND ($3::varchar IS NULL OR EXISTS (SELECT 1 FROM relay_operations s WHERE s.signer_did = $3
                 AND s.kind = 'content-op' AND s.chain_id = entry.content_id))
         AND ($4::text IS NULL OR entry.doc_schema = $4)
         AND ($5::varchar IS NULL OR entry.current_document_cid = $5)
         AND ($6::boolean IS NULL OR entry.public_read = $6)
         AND ($7::boolean IS NULL OR entry.is_deleted = $7)
         AND ($8::text IS NULL OR (entry.doc_schema = $9 AND lower(entry.display_name) LIKE lower($8)))`;

/**
 * A content chain as an export carries it: its position and its current document (null once
 * deleted, or when the relay no longer holds it), for `chains/content.json`
 * (docs/decisions/0210-personal-export-archive-layout.md, 0235).
 */
const EXPORTED_CHAIN = `SELECT c.content_id AS "contentId", c.genesis_cid AS "genesisCid", c.head_cid AS "headCid",
              c.is_deleted AS "isDeleted", d.document AS "document"
       FROM relay_content_chains c
       LEFT JOIN relay_documents d
         ON d.content_id = c.content_id AND d.document_cid = c.current_document_cid AND NOT c.is_deleted`;

/** The keyset and order of an index page: lexical by its key, or newest first by a time. */
function indexPages(select: string, key: string, limit: string, after: string, past: string) {
  const byTime = (column: string) =>
    `${select}
         AND (${after}::varchar IS NULL OR entry.${column} < ${after}
              OR (entry.${column} = ${after} AND entry.${key} > ${past}::varchar))
       ORDER BY entry.${column} DESC, entry.${key} ASC LIMIT ${limit}`;
  return {
    byKey: `${select}
         AND (${after}::varchar IS NULL OR entry.${key} > ${after})
       ORDER BY entry.${key} ASC LIMIT ${limit}`,
    byGenesisAt: byTime('genesis_at'),
    byHeadAt: byTime('head_at'),
  };
}

/** The relay's fixed SQL on its chains and documents (docs/decisions/0131-a-repository-per-module.md). */
/** A content chain a person created, as `contentChainsOf` reads it. */
export interface CreatedContentChain {
  contentId: string;
  genesisCid: string;
  headCid: string;
  isDeleted: boolean;
  /** The head's document as the relay holds it (null once deleted, or not held). */
  document: Record<string, unknown> | null;
}

export const RELAY_CHAINS_STATEMENTS = defineStatements('RelayChainsRepository', {
  /**
   * A page of the content chains a person ($1) created, by content id ($2 rows; `after`: $3 the
   * last content id): a personal export's `chains/` (docs/decisions/0210-personal-export-archive-layout.md).
   */
  /**
   * The content chains of many ids ($1) not created by $2 (those the origin signs for the person:
   * their posts and profile), by content id: a personal export's `chains/`.
   */
  contentChainsByIds: `${EXPORTED_CHAIN}
       WHERE c.content_id = ANY($1::varchar[]) AND c.creator_did <> $2 ORDER BY c.content_id`,
  contentChainsOf: {
    first: `${EXPORTED_CHAIN}
       WHERE c.creator_did = $1 ORDER BY c.content_id LIMIT $2`,
    after: `${EXPORTED_CHAIN}
       WHERE c.creator_did = $1 AND c.content_id > $3 ORDER BY c.content_id LIMIT $2`,
  },
  /**
   * An identity's ($1) folded state and key history (the identity cache's read): the text
   * TypeORM's findOne sent, kept so the bench's twin runs this very statement.
   */
  identity:
    'SELECT "RelayIdentityChain"."did" AS "RelayIdentityChain_did", "RelayIdentityChain"."state" AS "RelayIdentityChain_state", ' +
    '"RelayIdentityChain"."key_history" AS "RelayIdentityChain_key_history" FROM "relay_identity_chains" "RelayIdentityChain" ' +
    'WHERE (("RelayIdentityChain"."did" = $1)) LIMIT 1',
  insertGenesis: INSERT_GENESIS,
  /** The document brought with the head operation, under its chain ($1 content id, $2 CID, $3 it, $4 schema, $5 name). */
  insertDocument: `INSERT INTO relay_documents (content_id, document_cid, document, doc_schema, display_name)
         VALUES ($1, $2, $3::jsonb, $4, $5) ON CONFLICT DO NOTHING`,
  /** Every document of chain $1 but its head's ($2, or NULL: all of them). */
  deleteDocumentsBesides:
    'DELETE FROM relay_documents WHERE content_id = $1 AND document_cid IS DISTINCT FROM $2',
  identityIndex: indexPages(IDENTITY_INDEX, 'did', '$5', '$6', '$7'),
  contentIndex: indexPages(CONTENT_INDEX, 'content_id', '$10', '$11', '$12'),
});

/** An index page's order: lexical by key (none), or newest first by genesis or head time. */
export type IndexPageOrder = 'genesisAt.desc' | 'headAt.desc' | undefined;

/** The keyset position of an index page: a key (lexical), or a time and key (ordered). */
export type IndexPosition = { key: string } | { at: string; key: string } | undefined;

export interface IdentityIndexFilters {
  did?: string;
  hasPublicProfile?: boolean;
  /** a LIKE pattern on the profile's display name */
  namePattern?: string;
  profileSchema: string;
}

export interface ContentIndexFilters {
  contentId?: string;
  creator?: string;
  signer?: string;
  docSchema?: string;
  documentCid?: string;
  publicRead?: boolean;
  isDeleted?: boolean;
  /** a LIKE pattern on the post's title */
  titlePattern?: string;
  postSchema: string;
}

/** A row of RELAY_CHAINS_STATEMENTS.identity: each column under `RelayIdentityChain_<column>`. */
export interface IdentityRow {
  RelayIdentityChain_did: string;
  RelayIdentityChain_state: RelayIdentityChain['state'];
  RelayIdentityChain_key_history: RelayIdentityChain['keyHistory'];
}

export interface IdentityIndexRow {
  did: string;
  head_cid: string;
  op_count: number;
  genesis_at: string;
  head_at: string;
  is_deleted: boolean;
  profile_anchor: string | null;
  public_read: boolean;
  doc_schema: string | null;
  display_name: string | null;
}

export interface ContentIndexRow {
  content_id: string;
  genesis_cid: string;
  head_cid: string;
  creator_did: string;
  is_deleted: boolean;
  op_count: number;
  genesis_at: string;
  head_at: string;
  current_document_cid: string | null;
  public_read: boolean;
  doc_schema: string | null;
  display_name: string | null;
}

const variantOf = (order: IndexPageOrder) =>
  order === 'genesisAt.desc' ? 'byGenesisAt' : order === 'headAt.desc' ? 'byHeadAt' : 'byKey';

/** The keyset parameters of a variant: the key after (lexical), or a time and the key after it. */
const keysetParams = (order: IndexPageOrder, position: IndexPosition): unknown[] => {
  if (order === undefined) return [position?.key ?? null];
  return position !== undefined && 'at' in position ? [position.at, position.key] : [null, null];
};

/**
 * Every statement on `relay_identity_chains`, `relay_content_chains` and `relay_documents`: the
 * folded state of each chain, the document its head holds, and the index over them.
 */
@Injectable()
export class RelayChainsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The chains of `contentIds` that `creatorDid` did not create, by content id. */
  contentChainsByIds(
    contentIds: string[],
    creatorDid: string,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<CreatedContentChain[]> {
    return runner.query<CreatedContentChain[]>(RELAY_CHAINS_STATEMENTS.contentChainsByIds, [
      contentIds,
      creatorDid,
    ]);
  }

  /** A page of the content chains `creatorDid` created, by content id after `after`. */
  contentChainsOf(
    creatorDid: string,
    after: string | null,
    limit: number,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<CreatedContentChain[]> {
    const { contentChainsOf } = RELAY_CHAINS_STATEMENTS;
    return after
      ? runner.query<CreatedContentChain[]>(contentChainsOf.after, [creatorDid, limit, after])
      : runner.query<CreatedContentChain[]>(contentChainsOf.first, [creatorDid, limit]);
  }

  // identity chains

  /** An identity's folded state and key history (the identity cache's read). */
  async findIdentity(did: string): Promise<Pick<RelayIdentityChain, 'did' | 'state' | 'keyHistory'> | null> {
    const rows = await this.dataSource.query<IdentityRow[]>(RELAY_CHAINS_STATEMENTS.identity, [did]);
    if (rows.length === 0) return null;
    const identity = new RelayIdentityChain();
    identity.did = rows[0].RelayIdentityChain_did;
    identity.state = rows[0].RelayIdentityChain_state;
    identity.keyHistory = rows[0].RelayIdentityChain_key_history;
    return identity;
  }

  /** An identity's chain row, whole. */
  findIdentityChain(did: string, runner: EntityManager): Promise<RelayIdentityChain | null> {
    return runner.findOne(RelayIdentityChain, { where: { did } });
  }

  /** An identity's folded state inside an ingest transaction. */
  findIdentityState(
    did: string,
    runner: EntityManager,
  ): Promise<Pick<RelayIdentityChain, 'did' | 'state'> | null> {
    return runner.findOne(RelayIdentityChain, { select: { did: true, state: true }, where: { did } });
  }

  /** What resolves a credential issuer's keys historically. */
  findIssuerKeys(
    did: string,
    runner: EntityManager,
  ): Promise<Pick<RelayIdentityChain, 'did' | 'isDeleted' | 'keyHistory'> | null> {
    return runner.findOne(RelayIdentityChain, {
      select: { did: true, isDeleted: true, keyHistory: true },
      where: { did },
    });
  }

  /** An identity's chain row, locked for update in the runner's transaction. */
  lockIdentityChain(did: string, runner: EntityManager): Promise<RelayIdentityChain | null> {
    return runner.findOne(RelayIdentityChain, { where: { did }, lock: { mode: 'pessimistic_write' } });
  }

  async insertIdentityChain(
    row: Omit<RelayIdentityChain, 'updatedAt'>,
    runner: EntityManager,
  ): Promise<void> {
    const chain: RelayIdentityChain = runner.create(RelayIdentityChain);
    Object.assign(chain, row);
    // (cast: TypeORM's deep-partial entity type recurses without end over the JsonValue in state)
    await runner.getRepository(RelayIdentityChain).insert(chain as never);
  }

  async updateIdentityChain(
    did: string,
    changes: Partial<RelayIdentityChain>,
    runner: EntityManager,
  ): Promise<void> {
    await runner.update(RelayIdentityChain, { did }, changes as never); // (same deep-partial cast)
  }

  // content chains and their documents

  findContentChain(contentId: string): Promise<RelayContentChain | null> {
    return this.dataSource.getRepository(RelayContentChain).findOne({ where: { contentId } });
  }

  /** A content chain's row, locked for update in the runner's transaction. */
  lockContentChain(contentId: string, runner: EntityManager): Promise<RelayContentChain | null> {
    return runner.findOne(RelayContentChain, { where: { contentId }, lock: { mode: 'pessimistic_write' } });
  }

  async insertContentChain(row: Omit<RelayContentChain, 'updatedAt'>, runner: EntityManager): Promise<void> {
    await runner.insert(RelayContentChain, row);
  }

  async updateContentChain(
    contentId: string,
    changes: Partial<RelayContentChain>,
    runner: EntityManager,
  ): Promise<void> {
    await runner.update(RelayContentChain, { contentId }, changes);
  }

  /** The genesis rows (INSERT_GENESIS); false when that very operation is stored already. */
  async insertGenesis(params: unknown[], runner: EntityManager): Promise<boolean> {
    const stored = await runner.query<unknown[]>(RELAY_CHAINS_STATEMENTS.insertGenesis, params);
    return stored.length === 1;
  }

  /** The document a chain holds under one of its operations' CIDs. */
  findDocument(contentId: string, documentCid: string): Promise<RelayDocument | null> {
    return this.dataSource.getRepository(RelayDocument).findOne({ where: { contentId, documentCid } });
  }

  async insertDocument(
    document: {
      contentId: string;
      documentCid: string;
      json: string;
      docSchema: string | null;
      displayName: string | null;
    },
    runner: EntityManager,
  ): Promise<void> {
    await runner.query(RELAY_CHAINS_STATEMENTS.insertDocument, [
      document.contentId,
      document.documentCid,
      document.json,
      document.docSchema,
      document.displayName,
    ]);
  }

  async deleteDocumentsBesides(
    contentId: string,
    headDocumentCid: string | null,
    runner: EntityManager,
  ): Promise<void> {
    await runner.query(RELAY_CHAINS_STATEMENTS.deleteDocumentsBesides, [contentId, headDocumentCid]);
  }

  // the index

  identityIndex(
    filters: IdentityIndexFilters,
    order: IndexPageOrder,
    position: IndexPosition,
    limit: number,
  ): Promise<IdentityIndexRow[]> {
    return this.dataSource.query<IdentityIndexRow[]>(
      RELAY_CHAINS_STATEMENTS.identityIndex[variantOf(order)],
      [
        filters.did ?? null,
        filters.hasPublicProfile ?? null,
        filters.namePattern ?? null,
        filters.profileSchema,
        limit,
        ...keysetParams(order, position),
      ],
    );
  }

  contentIndex(
    filters: ContentIndexFilters,
    order: IndexPageOrder,
    position: IndexPosition,
    limit: number,
  ): Promise<ContentIndexRow[]> {
    return this.dataSource.query<ContentIndexRow[]>(RELAY_CHAINS_STATEMENTS.contentIndex[variantOf(order)], [
      filters.contentId ?? null,
      filters.creator ?? null,
      filters.signer ?? null,
      filters.docSchema ?? null,
      filters.documentCid ?? null,
      filters.publicRead ?? null,
      filters.isDeleted ?? null,
      filters.titlePattern ?? null,
      filters.postSchema,
      limit,
      ...keysetParams(order, position),
    ]);
  }
}
