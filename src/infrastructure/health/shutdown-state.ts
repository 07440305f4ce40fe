import { Injectable } from '@nestjs/common';

/**
 * Whether the replica is draining (SIGTERM): readiness fails so the load balancer stops sending new
 * requests, and every response whose headers are not yet written closes its connection
 * (closeConnectionsWhenDraining), so keep-alive clients move to other replicas instead of riding
 * this one until the forced exit.
 */
@Injectable()
export class ShutdownState {
  draining = false;

  startDraining(): void {
    this.draining = true;
  }
}
