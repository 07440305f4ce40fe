import { Injectable } from '@nestjs/common';

/** Flipped on SIGTERM so readiness fails and the load balancer stops sending new requests. */
@Injectable()
export class ShutdownState {
  draining = false;
}
