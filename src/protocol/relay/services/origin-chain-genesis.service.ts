import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../../common/clock/clock';
import {
  contentIdFromGenesisCid,
  documentCid,
  formatCreatedAt,
  nextCreatedAt,
  signContentOperation,
  type ContentChainState,
} from '../../core';
import { ChainGenesis, type SignedGenesis } from '../../publishing/domain/chain-genesis';
import { MAX_GENESIS_ATTEMPTS, OriginIdentityError, OriginIdentityService } from './origin-identity.service';
import { projectDocument } from '../domain/relay-document-projection';
import { RelayChainsRepository } from '../repositories/relay-chains.repository';

/**
 * ChainGenesis for the embedded relay. The genesis is the origin's own, signed here with its current
 * key (the origin identity is live: bootstrap refuses a deleted one), so it needs none of ingest's
 * checks against stored state; its rows are exactly those ingest writes for a content genesis
 * (the operation, the chain at its genesis, and the document held under that chain). What ingest does besides is not needed:
 * a content operation changes no identity (no cache to invalidate), and expired buffered operations
 * are swept by the next ingest.
 */
@Injectable()
export class OriginChainGenesisService extends ChainGenesis {
  constructor(
    private readonly origin: OriginIdentityService,
    private readonly clock: Clock,
    private readonly chains: RelayChainsRepository,
  ) {
    super();
  }

  sign(document: Record<string, unknown>, createdAt = formatCreatedAt(this.clock.now())): SignedGenesis {
    const documentCID = documentCid(document);
    const { jws, cid } = signContentOperation(
      { version: 1, type: 'create', did: this.origin.did, documentCID, baseDocumentCID: null, createdAt },
      this.origin.signer,
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

  async store(manager: EntityManager, genesis: SignedGenesis): Promise<SignedGenesis> {
    let candidate = genesis;
    for (let attempt = 0; attempt < MAX_GENESIS_ATTEMPTS; attempt++) {
      if (attempt > 0) {
        candidate = this.sign(
          genesis.document,
          nextCreatedAt(candidate.createdAt, () => this.clock.now()),
        );
      }
      if (await this.insert(manager, candidate)) return candidate;
    }
    throw new OriginIdentityError('could not create a distinct content genesis');
  }

  /** The relay rows of a genesis in one statement; false when that very operation is stored already. */
  private async insert(manager: EntityManager, genesis: SignedGenesis): Promise<boolean> {
    const state: ContentChainState = {
      contentId: genesis.contentId,
      genesisCid: genesis.headCid,
      creatorDid: this.origin.did,
      headCid: genesis.headCid,
      isDeleted: false,
      currentDocumentCID: genesis.documentCid,
      length: 1,
    };
    const { docSchema, displayName } = projectDocument(genesis.document);
    return this.chains.insertGenesis(
      [
        genesis.documentCid,
        JSON.stringify(genesis.document),
        genesis.headCid,
        genesis.contentId,
        genesis.jws,
        this.origin.did,
        genesis.createdAt,
        JSON.stringify(state),
        docSchema,
        displayName,
      ],
      manager,
    );
  }
}
