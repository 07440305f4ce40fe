import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { MembershipsRepository } from '../memberships.repository';
import { ErasedRows } from '../../common/erasure/erased-rows';

/**
 * The memberships module's part of an account's erasure, inside its transaction
 * (docs/decisions/0196-what-an-erasure-removes-and-keeps.md): every group row of the person goes
 * (group counts are counted from the rows). Idempotent.
 */
@Injectable()
export class GroupMembershipErasureService {
  constructor(private readonly memberships: MembershipsRepository) {}

  erase(manager: EntityManager, did: string): Promise<ErasedRows> {
    return this.memberships.eraseMember(did, manager);
  }
}
