import {
  decodeEd25519Multikey,
  documentCid,
  historicalKeys,
  parseDidUrl,
  ProtocolError,
  verifyContentChain,
  verifyIdentityChain,
  type IdentityState,
} from '../../core';
import type { ExportedContentChain, ExportedIdentityChain } from '../services/chain-export.service';

/** An export's `chains/` files, as ChainExportService writes them. */
export interface ExportedChains {
  identity: ExportedIdentityChain;
  signers: ExportedIdentityChain[];
  content: ExportedContentChain[];
}

/** A content chain that verified: where its head is and its current document. */
export interface VerifiedExportedContent {
  contentId: string;
  headCid: string;
  isDeleted: boolean;
  /** The document whose CID the head commits to; null when the export holds none. */
  document: Record<string, unknown> | null;
}

/** Why an export's chains do not verify: `where` names the file and index. */
export class ExportedChainsInvalid extends Error {
  constructor(
    readonly where: string,
    reason: string,
  ) {
    super(`${where}: ${reason}`);
    this.name = 'ExportedChainsInvalid';
  }
}

/**
 * Verifies an export's `chains/` offline with the protocol's rules (PROTOCOL.md "Verification";
 * docs/decisions/0235): every identity chain derives its DID and every operation's CID is the one
 * listed; every content chain verifies with the keys of those identity chains (historical
 * resolution: committed history, WEB-RELAY.md "Key Resolution"), its id, head and deletion are
 * the listed ones, and its document is the one its head commits to. Answers the content chains
 * by id; throws ExportedChainsInvalid at the first fault.
 */
export async function verifyExportedChains(
  chains: ExportedChains,
): Promise<Map<string, VerifiedExportedContent>> {
  const identities = new Map<string, { state: IdentityState; keys: Map<string, Uint8Array> }>();
  const identityFiles: [string, ExportedIdentityChain][] = [
    ['chains/identity.json', chains.identity],
    ...chains.signers.map((chain, index): [string, ExportedIdentityChain] => [
      `chains/signers.json/${index}`,
      chain,
    ]),
  ];
  for (const [where, chain] of identityFiles) {
    const verified = guarded(where, () =>
      verifyIdentityChain(
        chain.operations.map((op) => op.jwsToken),
        { expectedDid: chain.did },
      ),
    );
    verified.operations.forEach((op, index) => {
      if (op.cid !== chain.operations[index].cid) {
        throw new ExportedChainsInvalid(
          where,
          `operation ${index} has CID ${op.cid}, not ${chain.operations[index].cid}`,
        );
      }
    });
    const keys = new Map<string, Uint8Array>();
    for (const key of historicalKeys(verified.operations.map((op) => op.operation))) {
      keys.set(
        key.id,
        guarded(where, () => decodeEd25519Multikey(key.publicKeyMultibase)),
      );
    }
    identities.set(chain.did, { state: verified.state, keys });
  }
  const verifiedContent = new Map<string, VerifiedExportedContent>();
  for (const [index, chain] of chains.content.entries()) {
    const where = `chains/content.json/${index}`;
    const verified = await guardedAsync(where, () =>
      verifyContentChain(
        chain.operations.map((op) => op.jwsToken),
        {
          resolveKey: (kid) => {
            const { did, keyId } = parseDidUrl(kid);
            const key = identities.get(did)?.keys.get(keyId);
            if (!key)
              throw new ProtocolError('KEY_NOT_FOUND', `no identity chain of the export holds ${kid}`);
            return key;
          },
          isRevoked: () => false,
        },
      ),
    );
    verified.records.forEach((record, at) => {
      if (record.cid !== chain.operations[at].cid) {
        throw new ExportedChainsInvalid(
          where,
          `operation ${at} has CID ${record.cid}, not ${chain.operations[at].cid}`,
        );
      }
    });
    const { state } = verified;
    if (state.contentId !== chain.contentId) {
      throw new ExportedChainsInvalid(
        where,
        `the operations make chain ${state.contentId}, not ${chain.contentId}`,
      );
    }
    if (state.headCid !== chain.headCid || state.isDeleted !== chain.isDeleted) {
      throw new ExportedChainsInvalid(
        where,
        `the operations' head is ${state.headCid}, not ${chain.headCid}`,
      );
    }
    const document = chain.document ?? null;
    if (document !== null) {
      const cid = guarded(where, () => documentCid(document));
      if (cid !== state.currentDocumentCID) {
        throw new ExportedChainsInvalid(where, `the document is not the one its head commits to`);
      }
    }
    if (verifiedContent.has(state.contentId)) {
      throw new ExportedChainsInvalid(where, `chain ${state.contentId} appears twice`);
    }
    verifiedContent.set(state.contentId, {
      contentId: state.contentId,
      headCid: state.headCid,
      isDeleted: state.isDeleted,
      document,
    });
  }
  return verifiedContent;
}

function guarded<T>(where: string, verify: () => T): T {
  try {
    return verify();
  } catch (error) {
    if (error instanceof ProtocolError) throw new ExportedChainsInvalid(where, error.message);
    throw error;
  }
}

async function guardedAsync<T>(where: string, verify: () => Promise<T>): Promise<T> {
  try {
    return await verify();
  } catch (error) {
    if (error instanceof ProtocolError) throw new ExportedChainsInvalid(where, error.message);
    throw error;
  }
}
