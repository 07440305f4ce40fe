import { Module } from '@nestjs/common';
import { ConnectionSlots } from './connection-slots';
import { PubSub } from './pubsub';

/**
 * What long-lived connections need across replicas: pub/sub (`PubSub`) and per-person connection
 * counts (`ConnectionSlots`), on Redis with REDIS_URL, in this process without
 * (docs/decisions/0170-a-live-stream-of-notifications.md).
 */
@Module({
  providers: [PubSub, ConnectionSlots],
  exports: [PubSub, ConnectionSlots],
})
export class LiveModule {}
