import type { Pool, PoolClient } from 'pg';
import {
  base64urlDecode,
  contentIdFromGenesisCid,
  createKeySigner,
  documentCid,
  formatCreatedAt,
  nextCreatedAt,
  signContentOperation,
  type KeySigner,
} from '../../src/protocol/core';
import { RELAY_CHAINS_STATEMENTS } from '../../src/protocol/relay/repositories/relay-chains.repository';
import { RELAY_ORIGIN_STATEMENTS } from '../../src/protocol/relay/repositories/relay-origin.repository';

/**
 * The content chain of a public post, bare (design.md §1, protocol CONTENT-MODEL.md `post/v1`):
 * the post's public projection as a document, a genesis content operation signed by the app's
 * origin identity (with the protocol library, as the app signs it), and the three relay rows the
 * app's relay ingest writes for a new chain (the document, the operation, the chain with its
 * folded state) in one statement, the last of the post's own transaction, the chain columns set in
 * the post's insert: as the app's OriginChainGenesisService
 * (docs/decisions/0075-the-post-write-in-7-statements.md).
 *
 * The origin key is the one the app generated and stored on its first start (relay_origin_keys,
 * or ORIGIN_KEY when set), read once.
 */

export interface Origin {
  did: string;
  signer: KeySigner;
}

let origin: Promise<Origin> | undefined;

export function originOf(pool: Pool): Promise<Origin> {
  origin ??= loadOrigin(pool).catch((error: unknown) => {
    origin = undefined;
    throw error;
  });
  return origin;
}

async function loadOrigin(pool: Pool): Promise<Origin> {
  if (process.env.ORIGIN_KEY) {
    const signer = createKeySigner(base64urlDecode(process.env.ORIGIN_KEY, 'ORIGIN_KEY'));
    const { rows } = await pool.query<{ did: string }>(RELAY_ORIGIN_STATEMENTS.didOfKey, [signer.multikey]);
    if (!rows[0])
      throw new Error('the origin identity of ORIGIN_KEY is not in the database (start the app once)');
    return { did: rows[0].did, signer };
  }
  const { rows } = await pool.query<{ did: string; seed: Buffer }>(RELAY_ORIGIN_STATEMENTS.firstGenerated);
  if (!rows[0]) throw new Error('no origin key in the database (the app creates it on its first start)');
  return { did: rows[0].did, signer: createKeySigner(new Uint8Array(rows[0].seed)) };
}

export interface NewChain {
  contentId: string;
  headCid: string;
  documentCid: string;
  document: Record<string, unknown>;
  jws: string;
  createdAt: string;
}

/** OriginChainGenesisService.sign: the genesis of `document`, signed before the post's transaction. */
export function signGenesis(
  owner: Origin,
  document: Record<string, unknown>,
  createdAt = formatCreatedAt(new Date()),
): NewChain {
  const documentCID = documentCid(document);
  const { jws, cid } = signContentOperation(
    { version: 1, type: 'create', did: owner.did, documentCID, createdAt },
    owner.signer,
  );
  return {
    contentId: contentIdFromGenesisCid(cid),
    headCid: cid,
    documentCid: documentCID,
    document,
    jws,
    createdAt,
  };
}

/**
 * OriginChainGenesisService.store: the relay's rows of the genesis in one statement (the app's own,
 * RelayChainsRepository's insertGenesis), the post transaction's last (the operation, the chain with
 * its folded state, the document under the chain). When that very operation is stored already (the same document signed in the same millisecond), it signs
 * again a millisecond later, as the app does; the caller then moves the post's chain columns.
 */
export async function storeGenesis(client: PoolClient, owner: Origin, genesis: NewChain): Promise<NewChain> {
  let candidate = genesis;
  for (let attempt = 0; attempt < 5; attempt++) {
    if (attempt > 0) candidate = signGenesis(owner, genesis.document, nextCreatedAt(candidate.createdAt));
    const state = {
      contentId: candidate.contentId,
      genesisCid: candidate.headCid,
      creatorDid: owner.did,
      headCid: candidate.headCid,
      isDeleted: false,
      currentDocumentCID: candidate.documentCid,
      length: 1,
    };
    const { rowCount } = await client.query(RELAY_CHAINS_STATEMENTS.insertGenesis, [
      candidate.documentCid,
      JSON.stringify(candidate.document),
      candidate.headCid,
      candidate.contentId,
      candidate.jws,
      owner.did,
      candidate.createdAt,
      JSON.stringify(state),
      ...documentProjection(candidate.document),
    ]);
    if (rowCount === 1) return candidate;
  }
  throw new Error('could not sign a distinct content genesis');
}

/** relay-document-projection.ts: the document's `$schema` and its display-name registry field. */
function documentProjection(document: Record<string, unknown>): [string | null, string | null] {
  const schema = typeof document.$schema === 'string' ? document.$schema : null;
  const field =
    schema === 'https://schemas.dfos.com/profile/v1'
      ? 'name'
      : schema === 'https://schemas.dfos.com/post/v1'
        ? 'title'
        : null;
  const value = field === null ? undefined : document[field];
  return [schema, typeof value === 'string' && value !== '' ? value : null];
}
