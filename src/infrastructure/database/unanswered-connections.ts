import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Client } from 'pg';
import { AfterQueryEvent, DataSource, EntitySubscriberInterface } from 'typeorm';
import { QUERY_READ_TIMEOUT } from './database-unavailable';

/**
 * Closes a connection whose query got no answer within `query_timeout`. The pg client does not:
 * it keeps the unanswered query in flight and, back in the pool, queues every later query behind
 * it, so after a partition each pooled connection would wedge the requests that draw it. A closed
 * client is dropped by the pool on release and replaced by a new connection: the pool heals.
 * (Connections that fail outright, reset or terminated, the pool drops by itself.)
 */
@Injectable()
export class UnansweredConnections implements EntitySubscriberInterface, OnModuleInit {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  onModuleInit(): void {
    this.dataSource.subscribers.push(this);
  }

  afterQuery(event: AfterQueryEvent): void {
    if (event.success || (event.error as Error | undefined)?.message !== QUERY_READ_TIMEOUT) return;
    const client = (event.queryRunner as { databaseConnection?: Client }).databaseConnection;
    // With a query in flight, end() destroys the socket at once; a later query on it fails fast.
    client?.end().catch(() => undefined);
  }
}
