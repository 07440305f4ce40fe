import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { NotificationsRepository } from '../notifications.repository';
import { ErasedRows } from '../../common/erasure/erased-rows';

/**
 * The notifications module's part of an account's erasure, inside its transaction
 * (docs/decisions/0196-what-an-erasure-removes-and-keeps.md): the notifications to the person and
 * every one that names them. Idempotent.
 */
@Injectable()
export class NotificationErasureService {
  constructor(private readonly notifications: NotificationsRepository) {}

  erase(manager: EntityManager, did: string): Promise<ErasedRows> {
    return this.notifications.eraseAbout(did, manager);
  }
}
