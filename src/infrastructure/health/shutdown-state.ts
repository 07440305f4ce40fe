import { Injectable } from '@nestjs/common';
import type { ServerResponse } from 'node:http';

/**
 * Whether the replica is draining (SIGTERM): readiness fails so the load balancer stops sending new
 * requests, and every response not yet started closes its connection, so keep-alive clients move
 * to other replicas instead of riding this one until the forced exit.
 */
@Injectable()
export class ShutdownState {
  draining = false;
  private readonly unanswered = new Set<ServerResponse>();
  /** One listener shared by every response (`this` is the response), not a closure per request. */
  private readonly closed: (this: ServerResponse) => void;

  constructor() {
    const unanswered = this.unanswered;
    this.closed = function (this: ServerResponse) {
      unanswered.delete(this);
    };
  }

  startDraining(): void {
    this.draining = true;
    for (const response of this.unanswered) {
      if (!response.headersSent) response.setHeader('Connection', 'close');
    }
  }

  /** Called as a request arrives: its response closes the connection if a drain starts first. */
  track(response: ServerResponse): void {
    if (this.draining) {
      response.setHeader('Connection', 'close');
      return;
    }
    this.unanswered.add(response);
    response.once('close', this.closed);
  }
}
