import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { LegacySpacesRepository } from '../legacy-spaces.repository';
import { ErasedRows } from '../../common/erasure/erased-rows';

/**
 * The legacy-spaces module's part of an account's erasure, inside its transaction
 * (docs/decisions/0196-what-an-erasure-removes-and-keeps.md): the person's applications, the
 * decisions they made as an admin no longer naming them, and the invites they created, deleted
 * (docs/decisions/0192-an-erasure-takes-the-persons-media-and-invites.md). Idempotent.
 */
@Injectable()
export class ApplicationErasureService {
  constructor(private readonly legacy: LegacySpacesRepository) {}

  erase(manager: EntityManager, did: string): Promise<ErasedRows> {
    return this.legacy.eraseApplicationsOf(did, manager);
  }
}
