import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { EXPORT_PAGE_ROWS, ExportPage, exportPageOf } from '../../../common/export/export-page';
import { RelayChainsRepository } from '../repositories/relay-chains.repository';
import { RelayOperationsRepository } from '../repositories/relay-operations.repository';

/** One per-chain log entry (WEB-RELAY.md "Per-Chain Logs"): the operation's CID and its compact JWS. */
export interface ChainLogEntry {
  cid: string;
  jwsToken: string;
}

/** A person's identity chain as the relay stores it: its operations, genesis first. */
export interface ExportedIdentityChain {
  did: string;
  operations: ChainLogEntry[];
}

/** A content chain the person created: its operations in ingestion order (parents before children). */
export interface ExportedContentChain {
  contentId: string;
  genesisCid: string;
  headCid: string;
  isDeleted: boolean;
  /**
   * The current document as the relay holds it, whose CID the head's `documentCID` commits to;
   * null once deleted or when the relay holds it no more (docs/decisions/0235).
   */
  document: Record<string, unknown> | null;
  operations: ChainLogEntry[];
}

/**
 * The relay's part of a personal export (issue 35 item 3;
 * docs/decisions/0210-personal-export-archive-layout.md): the signed operations of the person's
 * identity chain and of the content chains they created, exactly as stored, so that anyone can
 * verify them with the protocol's rules (PROTOCOL.md "Verification"). Content chains come a page
 * at a time: one statement for the chains, one for all their operations.
 */
@Injectable()
export class ChainExportService {
  constructor(
    private readonly chains: RelayChainsRepository,
    private readonly operations: RelayOperationsRepository,
  ) {}

  /** The identity chain of `did` (no operations when the relay holds none). */
  async identityChainOf(did: string, runner?: EntityManager): Promise<ExportedIdentityChain> {
    const rows = await this.operations.identityOperations(did, runner);
    return { did, operations: rows.map((row) => ({ cid: row.cid, jwsToken: row.jws })) };
  }

  /** A page of the content chains `did` created, by content id, each with its operations. */
  async contentChainsOf(
    did: string,
    after: string | null,
    runner?: EntityManager,
    limit = Math.floor(EXPORT_PAGE_ROWS / 5),
  ): Promise<ExportPage<ExportedContentChain>> {
    const chains = await this.chains.contentChainsOf(did, after, limit + 1, runner);
    const page = exportPageOf(
      chains,
      limit,
      (chain) => chain.contentId,
      (chain): ExportedContentChain => ({ ...chain, operations: [] }),
    );
    await this.withOperations(page.items, runner);
    return page;
  }

  /**
   * The chains of `contentIds` (the person's posts and profile, which the service's origin identity
   * signs for them) that `did` did not create, each with its operations: two statements.
   */
  async contentChainsByIds(
    did: string,
    contentIds: string[],
    runner?: EntityManager,
  ): Promise<ExportedContentChain[]> {
    if (contentIds.length === 0) return [];
    const chains = (await this.chains.contentChainsByIds(contentIds, did, runner)).map(
      (chain): ExportedContentChain => ({ ...chain, operations: [] }),
    );
    await this.withOperations(chains, runner);
    return chains;
  }

  /** Fills in the chains' operations, one statement for all of them. */
  private async withOperations(chains: ExportedContentChain[], runner?: EntityManager): Promise<void> {
    const byId = new Map(chains.map((chain) => [chain.contentId, chain]));
    if (byId.size === 0) return;
    for (const row of await this.operations.contentOperationsOf([...byId.keys()], runner)) {
      byId.get(row.chainId)?.operations.push({ cid: row.cid, jwsToken: row.jws });
    }
  }
}
