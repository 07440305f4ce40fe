import { Injectable, Logger } from '@nestjs/common';

/**
 * Whether the replica is draining (SIGTERM): readiness fails so the load balancer stops sending new
 * requests, and every response whose headers are not yet written closes its connection
 * (closeConnectionsWhenDraining), so keep-alive clients move to other replicas instead of riding
 * this one until the forced exit. Responses that never end by themselves (the live stream) are
 * told through `onDrain`, so the server can stop without waiting them out.
 */
@Injectable()
export class ShutdownState {
  private readonly logger = new Logger(ShutdownState.name);
  private readonly listeners: (() => void)[] = [];
  draining = false;

  startDraining(): void {
    if (this.draining) return;
    this.draining = true;
    for (const listener of this.listeners) {
      try {
        listener();
      } catch (error) {
        this.logger.error({ err: error }, 'drain listener failed');
      }
    }
  }

  /** Runs `listener` once when draining starts (at once when it already has). */
  onDrain(listener: () => void): void {
    if (this.draining) listener();
    else this.listeners.push(listener);
  }
}
