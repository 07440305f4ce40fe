import { PLAT_BRAND, typFor, type ProtocolBrand } from './brand';
import { cidOfEncoded, isDagCborCid } from './cid';
import { dagCborCanonicalEncode, type JsonObject, type JsonValue } from './encoding';
import { ensure, ProtocolError } from './errors';
import { isBrandDid } from './ids';
import { decodeJws, type DecodedJws } from './jws';
import { MAX_OPERATION_BYTES } from './limits';
import { assertCreatedAt } from './timestamp';

export interface ContentCreateOperation {
  version: 1;
  type: 'create';
  /** author DID, committed by the CID */
  did: string;
  documentCID: string;
  /**
   * committed-but-uninterpreted provenance; PROTOCOL.md's schema requires it (CID or null), so our
   * signers always emit it; optional here only so chains stored without it still parse
   */
  baseDocumentCID?: string | null;
  createdAt: string;
}

export interface ContentUpdateOperation {
  version: 1;
  type: 'update';
  did: string;
  previousOperationCID: string;
  /** null clears the document; the chain continues */
  documentCID: string | null;
  baseDocumentCID?: string | null;
  createdAt: string;
  /** a write credential, when the signer is not the chain creator */
  authorization?: string;
}

export interface ContentDeleteOperation {
  version: 1;
  type: 'delete';
  did: string;
  previousOperationCID: string;
  createdAt: string;
  authorization?: string;
}

export type ContentOperation = ContentCreateOperation | ContentUpdateOperation | ContentDeleteOperation;

function isCidOrNull(value: JsonValue | undefined): boolean {
  return value === null || isDagCborCid(value);
}

/** Structural validation; unknown members are ignored (but committed by the CID and counted). */
export function validateContentOperation(
  payload: JsonObject,
  brand: ProtocolBrand = PLAT_BRAND,
): ContentOperation {
  ensure(payload.version === 1, 'MALFORMED', 'content operation version must be 1');
  ensure(
    isBrandDid(payload.did, brand),
    'MALFORMED',
    `content operation did must be a ${brand.didPrefix} DID`,
  );
  assertCreatedAt(payload.createdAt);
  const type = payload.type;
  if (type !== 'create' && type !== 'update' && type !== 'delete') {
    throw new ProtocolError('MALFORMED', `unknown content operation type: ${String(type)}`);
  }
  if (type === 'create') {
    ensure(isDagCborCid(payload.documentCID), 'MALFORMED', 'create documentCID must be a dag-cbor CID');
  } else {
    ensure(
      isDagCborCid(payload.previousOperationCID),
      'MALFORMED',
      'previousOperationCID must be a dag-cbor CID',
    );
    if (payload.authorization !== undefined) {
      ensure(
        typeof payload.authorization === 'string' && payload.authorization.length > 0,
        'MALFORMED',
        'authorization must be a credential JWS',
      );
    }
  }
  if (type === 'update') {
    ensure(isCidOrNull(payload.documentCID), 'MALFORMED', 'update documentCID must be a CID or null');
  }
  if (type !== 'delete' && payload.baseDocumentCID !== undefined) {
    ensure(isCidOrNull(payload.baseDocumentCID), 'MALFORMED', 'baseDocumentCID must be a CID or null');
  }
  return payload as unknown as ContentOperation;
}

export interface DecodedContentOperation {
  readonly jws: DecodedJws;
  readonly operation: ContentOperation;
  readonly cid: string;
  readonly cidBytes: Uint8Array;
}

/**
 * Everything checkable without chain state or keys: profile and typ, schema, the 64 KiB cap
 * (measured without `authorization`, which has its own credential cap), and header.cid.
 * A relay can use it to learn the CID and parent before locating the chain.
 */
export function decodeContentOperation(
  token: string,
  options: { brand?: ProtocolBrand } = {},
): DecodedContentOperation {
  const brand = options.brand ?? PLAT_BRAND;
  const jws = decodeJws(token, { expectedTyp: typFor('content-op', brand) });
  const operation = validateContentOperation(jws.payload, brand);
  const encoded = dagCborCanonicalEncode(jws.payload);
  let measured = encoded;
  if (jws.payload.authorization !== undefined) {
    const { authorization: _excluded, ...withoutAuthorization } = jws.payload;
    measured = dagCborCanonicalEncode(withoutAuthorization);
  }
  ensure(
    measured.length <= MAX_OPERATION_BYTES,
    'TOO_LARGE',
    `content operation exceeds ${MAX_OPERATION_BYTES} bytes`,
  );
  const { cid, cidBytes } = cidOfEncoded(encoded);
  ensure(jws.header.cid === cid, 'CID_MISMATCH', `header cid does not match the operation CID ${cid}`);
  return { jws, operation, cid, cidBytes };
}
