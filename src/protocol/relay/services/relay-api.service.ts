import { Injectable } from '@nestjs/common';
import { notFound } from '../../../common/errors/api-error';
import { CursorCodec } from '../../../common/pagination/cursor-codec';
import { isContentId, isDagCborCid, isPlatDid } from '../../core';
import { PROFILE_SCHEMA } from '../../publishing/domain/content-publisher';
import {
  ChainLogResponse,
  ContentStateResponse,
  CountersignaturesResponse,
  GlobalLogResponse,
  IdentityStateResponse,
  IndexContentResponse,
  IndexIdentitiesResponse,
  IngestOperationsResponse,
  IssuerRevocationsResponse,
  OperationResponse,
  RelayWellKnownResponse,
  RevocationStatusResponse,
} from '../dto/relay-responses.dto';
import { RelayIndexContentQuery, RelayIndexIdentitiesQuery, RelayPageQuery } from '../dto/relay-requests.dto';
import { RelayContentChain, type RelayOperationKind } from '../entities';
import { RelayChainsRepository, type IndexPosition } from '../repositories/relay-chains.repository';
import { RelayOperationsRepository } from '../repositories/relay-operations.repository';
import { RelayRevocationsRepository } from '../repositories/relay-revocations.repository';
import { AccountDeactivationService } from './account-deactivation.service';
import { IdentityStateService } from './identity-state.service';
import { OriginIdentityService } from './origin-identity.service';
import { relayBadRequest } from '../domain/relay-error';
import { POST_SCHEMA } from '../domain/relay-document-projection';
import { RelayIngestService } from './relay-ingest.service';
import { presentContentIndexRow, presentIdentityIndexRow, presentIdentityState } from './relay.presenter';
import { parseIndexOrder, parseRelayBoolean, parseRelayLimit, type IndexOrder } from '../domain/relay-paging';

export const RELAY_PROTOCOL = 'plat-web-relay';
export const RELAY_VERSION = '0.1.0';

/**
 * The relay's HTTP surface (WEB-RELAY.md), mapped to response DTOs: ingest, chain state and logs,
 * single operations, blobs, the index and revocation status. Unknown and malformed ids are the
 * service's constant 404; invalid query input is a 400 in the relay's `{error}` shape.
 */
@Injectable()
export class RelayApiService {
  constructor(
    private readonly operationRows: RelayOperationsRepository,
    private readonly chains: RelayChainsRepository,
    private readonly revocations: RelayRevocationsRepository,
    private readonly identities: IdentityStateService,
    private readonly deactivations: AccountDeactivationService,
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
    return { did: state.did, headCID: state.headCid, state: presentIdentityState(state) };
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
    const after = query.after === undefined ? undefined : await this.cursorSeq(query.after);
    const rows = await this.operationRows.log(limit, after);
    return {
      entries: rows.map((row) => ({ cid: row.cid, jwsToken: row.jws, kind: row.kind, chainId: row.chainId })),
      next: rows.length === limit ? rows[rows.length - 1].cid : null,
    };
  }

  async operation(cid: string): Promise<OperationResponse> {
    if (!isDagCborCid(cid)) throw notFound();
    const row = await this.operationRows.findEntry(cid);
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
    const document = await this.chains.findDocument(chain.contentId, chain.currentDocumentCid);
    if (!document) throw notFound();
    // Neither a deactivated creator's documents nor the profile of a deactivated person, until a
    // restore; the logs still are (docs/decisions/0223-relay-documents-of-deactivated-identities.md).
    for (const did of new Set([chain.creatorDid, profileSubject(document.document)])) {
      if (did !== null && (await this.isDeactivated(did))) throw notFound();
    }
    return document.document;
  }

  async revocationStatus(credentialCid: string): Promise<RevocationStatusResponse> {
    if (!isDagCborCid(credentialCid)) throw relayBadRequest('not a well-formed credential CID');
    // Several issuers may have "revoked" one CID; the smallest issuer DID answers (WEB-RELAY.md).
    const rows = await this.revocations.statusOf(credentialCid);
    return rows.length > 0
      ? { credentialCID: credentialCid, revoked: true, revocation: rows[0].jws }
      : { credentialCID: credentialCid, revoked: false };
  }

  async issuerRevocations(did: string, query: RelayPageQuery): Promise<IssuerRevocationsResponse> {
    if (!isPlatDid(did)) throw relayBadRequest('not a canonical did:plat identifier');
    const limit = parseRelayLimit(query.limit);
    const rows = await this.revocations.byIssuer(did, query.after ?? null, limit);
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
    const position = this.seek('identities', order, query.after);
    const rows = await this.chains.identityIndex(
      {
        did: query.did,
        hasPublicProfile,
        namePattern: query.nameContains === undefined ? undefined : likePattern(query.nameContains),
        profileSchema: PROFILE_SCHEMA,
      },
      order,
      position,
      limit,
    );
    return {
      identities: rows.map(presentIdentityIndexRow),
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
    if (query.creator !== undefined && !isPlatDid(query.creator)) {
      throw relayBadRequest('creator must be a did:plat DID');
    }
    if (query.signer !== undefined && !isPlatDid(query.signer)) {
      throw relayBadRequest('signer must be a did:plat DID');
    }
    const position = this.seek('content', order, query.after);
    const rows = await this.chains.contentIndex(
      {
        contentId: query.contentId,
        creator: query.creator,
        signer: query.signer,
        docSchema: query.docSchema,
        documentCid: query.documentCID,
        publicRead,
        isDeleted,
        titlePattern: query.titleContains === undefined ? undefined : likePattern(query.titleContains),
        postSchema: POST_SCHEMA,
      },
      order,
      position,
      limit,
    );
    return {
      content: rows.map(presentContentIndexRow),
      next: this.nextCursor(rows, limit, 'content', order, (row) => row.content_id),
    };
  }

  /**
   * Keyset position of an index page. Lexical mode: `after` is a strictly-greater key (any string,
   * present or not). Ordered mode: `after` is an opaque HMAC'd token; one that does not verify is 400.
   */
  private seek(listing: string, order: IndexOrder | undefined, after: string | undefined): IndexPosition {
    if (after === undefined) return undefined;
    if (!order) return { key: after };
    const values = this.cursors.decode(`relay:index:${listing}:${order}`, after);
    if (values.length !== 2 || typeof values[0] !== 'string' || typeof values[1] !== 'string') {
      throw relayBadRequest('invalid cursor');
    }
    return { at: values[0], key: values[1] };
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

  /** Deleted by its identity chain, or held by the platform (an erasure pending). */
  private async isDeactivated(did: string): Promise<boolean> {
    const state = await this.identities.current(did);
    return state?.isDeleted === true || (await this.deactivations.isDeactivated(did));
  }

  private async contentChain(contentId: string): Promise<RelayContentChain> {
    if (!isContentId(contentId)) throw notFound();
    const chain = await this.chains.findContentChain(contentId);
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
    const after = query.after === undefined ? undefined : await this.cursorSeq(query.after, kind, chainId);
    const rows = await this.operationRows.chainLog(kind, chainId, limit, after);
    return {
      entries: rows.map((row) => ({ cid: row.cid, jwsToken: row.jws })),
      next: rows.length === limit ? rows[rows.length - 1].cid : null,
    };
  }

  /** The log position of a cursor CID; an unknown cursor is a 400, never an empty page. */
  private async cursorSeq(after: string, kind?: RelayOperationKind, chainId?: string): Promise<string> {
    const row = isDagCborCid(after) ? await this.operationRows.findPosition(after) : null;
    if (!row || (kind !== undefined && (row.kind !== kind || row.chainId !== chainId))) {
      throw relayBadRequest('unknown cursor');
    }
    return row.seq;
  }
}

/**
 * A case-insensitive substring as a LIKE pattern: LIKE's wildcards and escape character in the
 * fragment match themselves (lower() leaves them be), phrased so the trigram index on
 * lower(display_name) serves it (docs/decisions/0121-relay-index-filters.md).
 */
function likePattern(fragment: string): string {
  return `%${fragment.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The person a profile/v1 document describes (its `did`), or null for any other document. */
function profileSubject(document: Record<string, unknown>): string | null {
  return document.$schema === PROFILE_SCHEMA && typeof document.did === 'string' ? document.did : null;
}
