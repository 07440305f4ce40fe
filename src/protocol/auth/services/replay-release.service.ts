import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ErrorResponseHooks } from '../../../common/errors/error-response-hooks';
import { RequestWrites } from '../../../infrastructure/database/request-writes';
import { REPLAY_RESERVATION, ReplayReservation } from './proof-authentication.service';
import { ReplayService } from './replay.service';

type ReservingRequest = Request & { [REPLAY_RESERVATION]?: ReplayReservation };

/**
 * design.md §3 "Record the jti last, so that a 401/403/503 does not use it up": the guard reserves
 * a write's (signer, jti) before the handler runs (so two concurrent copies of one proof cannot both
 * write), and this gives the pair back, before the response leaves, when the route then refuses the
 * request with a 4xx (nothing was written), or with a 500 or 503 before the request committed
 * anything (its transaction rolled back, or the database was unreachable before it wrote:
 * `RequestWrites`). A write that succeeded, or failed after a commit (or with a commit whose
 * outcome was lost), keeps it spent. A non-member's write to a private space is therefore the
 * 404 every time, never a 409 (api-spec.md "Authentication" item 4: replay is 409 "for a private
 * space, only for a member"). A hook of the exception filter rather than an interceptor, since any
 * interceptor makes Nest wrap every request of every route.
 */
@Injectable()
export class ReplayReleaseService implements ErrorResponseHooks {
  constructor(
    private readonly replays: ReplayService,
    private readonly writes: RequestWrites,
  ) {}

  async beforeErrorResponse(request: ReservingRequest, status: number): Promise<void> {
    const reservation = request[REPLAY_RESERVATION];
    if (!reservation) return;
    // A 4xx refused the write; a 5xx gives the jti back only when nothing is known to be written.
    if (status >= 500 && this.writes.committedAnything(request)) return;
    delete request[REPLAY_RESERVATION];
    await this.replays.forget(reservation.did, reservation.jti);
  }
}
