import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { notFound } from '../../../common/errors/api-error';
import { CursorCodec } from '../../../common/pagination/cursor-codec';
import { isContentId, isDagCborCid, isPlatDid, type IdentityState } from '../../core';
import { PROFILE_SCHEMA } from '../../publishing/domain/content-publisher';
import {
  ChainLogResponse,
  ContentStateResponse,
  CountersignaturesResponse,
  GlobalLogResponse,
  IdentityStateResponse,
  IndexContentResponse,
  IndexContentRowDto,
  IndexIdentitiesResponse,
  IndexIdentityRowDto,
  IngestOperationsResponse,
  IssuerRevocationsResponse,
  OperationResponse,
  RelayWellKnownResponse,
  RevocationStatusResponse,
} from '../dto/relay-responses.dto';
import { RelayIndexContentQuery, RelayIndexIdentitiesQuery, RelayPageQuery } from '../dto/relay-requests.dto';
import { RelayContentChain, RelayDocument, RelayOperation, type RelayOperationKind } from '../entities';
import { IdentityStateService } from './identity-state.service';
import { OriginIdentityService } from './origin-identity.service';
import { relayBadRequest } from '../domain/relay-error';
import { POST_SCHEMA } from '../domain/relay-document-projection';
import { RelayIngestService } from './relay-ingest.service';
import { parseIndexOrder, parseRelayBoolean, parseRelayLimit, type IndexOrder } from '../domain/relay-paging';

export const RELAY_PROTOCOL = 'plat-web-relay';
export const RELAY_VERSION = '0.1.0';

interface IdentityIndexRow {
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

interface ContentIndexRow {
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

/** A small SQL builder for the index filters: numbered parameters, ANDed conditions. */
class Filters {
  readonly conditions: string[] = [];
  readonly params: unknown[] = [];

  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  add(condition: string): void {
    this.conditions.push(condition);
  }

  get where(): string {
    return this.conditions.length > 0 ? `WHERE ${this.conditions.join(' AND ')}` : '';
  }

  /**
   * Case-insensitive substring match on the projected display name of one schema, phrased so the
   * trigram index on lower(display_name) serves it (docs/decisions/0121-relay-index-filters.md).
   */
  displayNameContains(schema: string, fragment: string): void {
    // LIKE's wildcards and escape character in the fragment match themselves; lower() leaves them be.
    const pattern = `%${fragment.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    this.add(`entry.doc_schema = ${this.param(schema)}`);
    this.add(`lower(entry.display_name) LIKE lower(${this.param(pattern)})`);
  }
}

/**
 * The relay's HTTP surface (WEB-RELAY.md), mapped to response DTOs: ingest, chain state and logs,
 * single operations, blobs, the index and revocation status. Unknown and malformed ids are the
 * service's constant 404; invalid query input is a 400 in the relay's `{error}` shape.
 */
@Injectable()
export class RelayApiService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly identities: IdentityStateService,
    private readonly origin: OriginIdentityService,
    private readonly ingestion: RelayIngestService,
    private readonly cursors: CursorCodec,
  ) {}

  async ingest(tokens: string[]): Promise<IngestOperationsResponse> {
    const results = await this.ingestion.ingest(tokens, { retain: true });
    return {
      results: results.map((result) => ({
        cid: result.cid,
        status: result.status,
        ...(result.kind !== undefined ? { kind: result.kind } : {}),
        ...(result.chainId !== undefined ? { chainId: result.chainId } : {}),
        ...(result.error !== undefined ? { error: result.error } : {}),
      })),
    };
  }

  async wellKnown(): Promise<RelayWellKnownResponse> {
    // The store-then-verify buffer's size; -1 when it cannot be read (WEB-RELAY.md well-known).
    const pendingOps = await this.ingestion.pendingCount().catch(() => -1);
    return {
      did: this.origin.did,
      protocol: RELAY_PROTOCOL,
      version: RELAY_VERSION,
      capabilities: {
        proof: true,
        write: true,
        content: true,
        log: true,
        revocations: true,
        index: true,
        signing: false,
      },
      profile: this.origin.profileArtifact,
      peers: [],
      stats: { pendingOps },
    };
  }

  async identity(did: string): Promise<IdentityStateResponse> {
    const state = await this.identities.current(did);
    if (!state) throw notFound();
    return { did: state.did, headCID: state.headCid, state: identityStateDto(state) };
  }

  async identityLog(did: string, query: RelayPageQuery): Promise<ChainLogResponse> {
    if (!isPlatDid(did) || !(await this.identities.current(did))) throw notFound();
    return this.chainLog('identity-op', did, query);
  }

  async content(contentId: string): Promise<ContentStateResponse> {
    const chain = await this.contentChain(contentId);
    const { state } = chain;
    return {
      contentId: chain.contentId,
      genesisCID: chain.genesisCid,
      headCID: chain.headCid,
      state: {
        contentId: state.contentId,
        genesisCID: state.genesisCid,
        headCID: state.headCid,
        isDeleted: state.isDeleted,
        currentDocumentCID: state.currentDocumentCID,
        length: state.length,
        creatorDID: state.creatorDid,
      },
    };
  }

  async contentLog(contentId: string, query: RelayPageQuery): Promise<ChainLogResponse> {
    await this.contentChain(contentId);
    return this.chainLog('content-op', contentId, query);
  }

  /** The global log, in ingestion order. */
  async log(query: RelayPageQuery): Promise<GlobalLogResponse> {
    const limit = parseRelayLimit(query.limit);
    const builder = this.operations()
      .select(['op.cid', 'op.jws', 'op.kind', 'op.chainId', 'op.seq'])
      .orderBy('op.seq', 'ASC')
      .limit(limit);
    if (query.after !== undefined) {
      const after = await this.cursorSeq(query.after);
      builder.where('op.seq > :after', { after });
    }
    const rows = await builder.getMany();
    return {
      entries: rows.map((row) => ({ cid: row.cid, jwsToken: row.jws, kind: row.kind, chainId: row.chainId })),
      next: rows.length === limit ? rows[rows.length - 1].cid : null,
    };
  }

  async operation(cid: string): Promise<OperationResponse> {
    if (!isDagCborCid(cid)) throw notFound();
    const row = await this.operations()
      .select(['op.cid', 'op.jws', 'op.kind', 'op.chainId'])
      .where('op.cid = :cid', { cid })
      .getOne();
    if (!row) throw notFound();
    return { cid: row.cid, jwsToken: row.jws, kind: row.kind, chainId: row.chainId };
  }

  /** Countersignatures are refused at ingest, so a known operation has none. */
  async countersignatures(cid: string, query: RelayPageQuery): Promise<CountersignaturesResponse> {
    parseRelayLimit(query.limit);
    await this.operation(cid);
    return { countersignatures: [], next: null };
  }

  /** The current document of a chain whose document the relay holds (public content). */
  async blob(contentId: string): Promise<Record<string, unknown>> {
    const chain = await this.contentChain(contentId);
    if (chain.isDeleted || !chain.currentDocumentCid) throw notFound();
    // Only a document this chain's own operation brought (docs/decisions/0120-relay-documents-per-chain.md).
    const document = await this.dataSource.getRepository(RelayDocument).findOne({
      where: { contentId: chain.contentId, documentCid: chain.currentDocumentCid },
    });
    if (!document) throw notFound();
    return document.document;
  }

  async revocationStatus(credentialCid: string): Promise<RevocationStatusResponse> {
    if (!isDagCborCid(credentialCid)) throw relayBadRequest('not a well-formed credential CID');
    // Several issuers may have "revoked" one CID; the smallest issuer DID answers (WEB-RELAY.md).
    const rows: { jws: string }[] = await this.dataSource.query(
      `SELECT o.jws FROM relay_revocations r JOIN relay_operations o ON o.cid = r.revocation_cid
       WHERE r.credential_cid = $1 ORDER BY r.issuer_did ASC LIMIT 1`,
      [credentialCid],
    );
    return rows.length > 0
      ? { credentialCID: credentialCid, revoked: true, revocation: rows[0].jws }
      : { credentialCID: credentialCid, revoked: false };
  }

  async issuerRevocations(did: string, query: RelayPageQuery): Promise<IssuerRevocationsResponse> {
    if (!isPlatDid(did)) throw relayBadRequest('not a canonical did:plat identifier');
    const limit = parseRelayLimit(query.limit);
    const rows: { credential_cid: string; jws: string }[] = await this.dataSource.query(
      `SELECT r.credential_cid, o.jws FROM relay_revocations r JOIN relay_operations o ON o.cid = r.revocation_cid
       WHERE r.issuer_did = $1 AND ($2::text IS NULL OR r.credential_cid > $2)
       ORDER BY r.credential_cid ASC LIMIT $3`,
      [did, query.after ?? null, limit],
    );
    return {
      did,
      revocations: rows.map((row) => ({ credentialCID: row.credential_cid, revocation: row.jws })),
      next: rows.length === limit ? rows[rows.length - 1].credential_cid : null,
    };
  }

  // ---------------------------------------------------------------------------------------------
  // index (v0)

  async indexIdentities(query: RelayIndexIdentitiesQuery): Promise<IndexIdentitiesResponse> {
    const limit = parseRelayLimit(query.limit);
    const order = parseIndexOrder(query.order);
    const hasPublicProfile = parseRelayBoolean(query.hasPublicProfile);
    const filters = new Filters();
    if (query.did !== undefined) filters.add(`entry.did = ${filters.param(query.did)}`);
    if (hasPublicProfile !== undefined) {
      const predicate = 'entry.profile_anchor IS NOT NULL AND entry.public_read';
      filters.add(hasPublicProfile ? `(${predicate})` : `NOT (${predicate})`);
    }
    if (query.nameContains !== undefined) filters.displayNameContains(PROFILE_SCHEMA, query.nameContains);
    const orderBy = this.seek(filters, 'identities', order, query.after, 'did');
    const rows: IdentityIndexRow[] = await this.dataSource.query(
      `SELECT * FROM (
         SELECT i.did, i.head_cid, i.op_count, i.genesis_at, i.head_at, i.is_deleted, i.profile_anchor,
                (d.document_cid IS NOT NULL) AS public_read, d.doc_schema, d.display_name
         FROM relay_identity_chains i
         LEFT JOIN relay_content_chains c ON c.content_id = i.profile_anchor
         LEFT JOIN relay_documents d
           ON d.content_id = c.content_id AND d.document_cid = c.current_document_cid AND NOT c.is_deleted
       ) entry ${filters.where} ORDER BY ${orderBy} LIMIT ${filters.param(limit)}`,
      filters.params,
    );
    return {
      identities: rows.map(identityIndexRow),
      next: this.nextCursor(rows, limit, 'identities', order, (row) => row.did),
    };
  }

  async indexContent(query: RelayIndexContentQuery): Promise<IndexContentResponse> {
    const limit = parseRelayLimit(query.limit);
    const order = parseIndexOrder(query.order);
    let publicRead = parseRelayBoolean(query.publicRead);
    const isDeleted = parseRelayBoolean(query.isDeleted);
    if (query.titleContains !== undefined) {
      // A non-public title is never projected, so the filter must not probe non-public rows.
      if (publicRead === false) throw relayBadRequest('invalid filter combination');
      publicRead = true;
    }
    const filters = new Filters();
    if (query.contentId !== undefined) filters.add(`entry.content_id = ${filters.param(query.contentId)}`);
    if (query.creator !== undefined) {
      if (!isPlatDid(query.creator)) throw relayBadRequest('creator must be a did:plat DID');
      filters.add(`entry.creator_did = ${filters.param(query.creator)}`);
    }
    if (query.signer !== undefined) {
      if (!isPlatDid(query.signer)) throw relayBadRequest('signer must be a did:plat DID');
      filters.add(
        `EXISTS (SELECT 1 FROM relay_operations s WHERE s.signer_did = ${filters.param(query.signer)}
                 AND s.kind = 'content-op' AND s.chain_id = entry.content_id)`,
      );
    }
    if (query.docSchema !== undefined) filters.add(`entry.doc_schema = ${filters.param(query.docSchema)}`);
    if (query.documentCID !== undefined) {
      filters.add(`entry.current_document_cid = ${filters.param(query.documentCID)}`);
    }
    if (publicRead !== undefined) filters.add(publicRead ? 'entry.public_read' : 'NOT entry.public_read');
    if (isDeleted !== undefined) filters.add(isDeleted ? 'entry.is_deleted' : 'NOT entry.is_deleted');
    if (query.titleContains !== undefined) filters.displayNameContains(POST_SCHEMA, query.titleContains);
    const orderBy = this.seek(filters, 'content', order, query.after, 'content_id');
    const rows: ContentIndexRow[] = await this.dataSource.query(
      `SELECT * FROM (
         SELECT c.content_id, c.genesis_cid, c.head_cid, c.creator_did, c.is_deleted, c.op_count,
                c.genesis_at, c.head_at, c.current_document_cid,
                (d.document_cid IS NOT NULL) AS public_read, d.doc_schema, d.display_name
         FROM relay_content_chains c
         LEFT JOIN relay_documents d
           ON d.content_id = c.content_id AND d.document_cid = c.current_document_cid AND NOT c.is_deleted
       ) entry ${filters.where} ORDER BY ${orderBy} LIMIT ${filters.param(limit)}`,
      filters.params,
    );
    return {
      content: rows.map(contentIndexRow),
      next: this.nextCursor(rows, limit, 'content', order, (row) => row.content_id),
    };
  }

  /**
   * Keyset position of an index page. Lexical mode: `after` is a strictly-greater key (any string,
   * present or not). Ordered mode: `after` is an opaque HMAC'd token; one that does not verify is 400.
   */
  private seek(
    filters: Filters,
    listing: string,
    order: IndexOrder | undefined,
    after: string | undefined,
    key: string,
  ): string {
    if (!order) {
      if (after !== undefined) filters.add(`entry.${key} > ${filters.param(after)}`);
      return `entry.${key} ASC`;
    }
    const column = order === 'genesisAt.desc' ? 'genesis_at' : 'head_at';
    if (after !== undefined) {
      const values = this.cursors.decode(`relay:index:${listing}:${order}`, after);
      if (values.length !== 2 || typeof values[0] !== 'string' || typeof values[1] !== 'string') {
        throw relayBadRequest('invalid cursor');
      }
      const at = filters.param(values[0]);
      const past = filters.param(values[1]);
      filters.add(`(entry.${column} < ${at} OR (entry.${column} = ${at} AND entry.${key} > ${past}))`);
    }
    return `entry.${column} DESC, entry.${key} ASC`;
  }

  private nextCursor<Row extends { genesis_at: string; head_at: string }>(
    rows: Row[],
    limit: number,
    listing: string,
    order: IndexOrder | undefined,
    keyOf: (row: Row) => string,
  ): string | null {
    if (rows.length < limit) return null;
    const last = rows[rows.length - 1];
    if (!order) return keyOf(last);
    const at = order === 'genesisAt.desc' ? last.genesis_at : last.head_at;
    return this.cursors.encode(`relay:index:${listing}:${order}`, [at, keyOf(last)]);
  }

  // ---------------------------------------------------------------------------------------------

  private operations() {
    return this.dataSource.getRepository(RelayOperation).createQueryBuilder('op');
  }

  private async contentChain(contentId: string): Promise<RelayContentChain> {
    if (!isContentId(contentId)) throw notFound();
    const chain = await this.dataSource.getRepository(RelayContentChain).findOne({ where: { contentId } });
    if (!chain) throw notFound();
    return chain;
  }

  /**
   * A per-chain log page (ingestion order). Cursors are relay-local: the CID of the last entry of
   * the previous page, which must be an operation of this chain, else 400 (WEB-RELAY.md).
   */
  private async chainLog(
    kind: RelayOperationKind,
    chainId: string,
    query: RelayPageQuery,
  ): Promise<ChainLogResponse> {
    const limit = parseRelayLimit(query.limit);
    const builder = this.operations()
      .select(['op.cid', 'op.jws', 'op.seq'])
      .where('op.kind = :kind AND op.chain_id = :chainId', { kind, chainId })
      .orderBy('op.seq', 'ASC')
      .limit(limit);
    if (query.after !== undefined) {
      const after = await this.cursorSeq(query.after, kind, chainId);
      builder.andWhere('op.seq > :after', { after });
    }
    const rows = await builder.getMany();
    return {
      entries: rows.map((row) => ({ cid: row.cid, jwsToken: row.jws })),
      next: rows.length === limit ? rows[rows.length - 1].cid : null,
    };
  }

  /** The log position of a cursor CID; an unknown cursor is a 400, never an empty page. */
  private async cursorSeq(after: string, kind?: RelayOperationKind, chainId?: string): Promise<string> {
    const row = isDagCborCid(after)
      ? await this.dataSource.getRepository(RelayOperation).findOne({
          select: { cid: true, seq: true, kind: true, chainId: true },
          where: { cid: after },
        })
      : null;
    if (!row || (kind !== undefined && (row.kind !== kind || row.chainId !== chainId))) {
      throw relayBadRequest('unknown cursor');
    }
    return row.seq;
  }
}

function identityStateDto(state: IdentityState) {
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

function identityIndexRow(row: IdentityIndexRow): IndexIdentityRowDto {
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

function contentIndexRow(row: ContentIndexRow): IndexContentRowDto {
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
