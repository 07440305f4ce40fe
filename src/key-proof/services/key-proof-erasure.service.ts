import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { KeyProofRepository } from '../key-proof.repository';
import { ErasedRows } from '../../common/erasure/erased-rows';

/**
 * The key-proof module's part of an account's erasure, inside its transaction
 * (docs/decisions/0196-what-an-erasure-removes-and-keeps.md): every ceremony of the person. Idempotent.
 */
@Injectable()
export class KeyProofErasureService {
  constructor(private readonly ceremonies: KeyProofRepository) {}

  erase(manager: EntityManager, did: string): Promise<ErasedRows> {
    return this.ceremonies.eraseOf(did, manager);
  }
}
