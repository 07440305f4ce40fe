import { CallHandler, ExecutionContext, HttpException, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { catchError, from, mergeMap, Observable, throwError } from 'rxjs';
import { REPLAY_RESERVATION, ReplayReservation } from './proof-authenticator';
import { ReplayStore } from './replay-store';

/**
 * design.md §3 "Record the jti last, so that a 401/403/503 does not use it up": the guard reserves
 * a write's (signer, jti) before the handler runs (so two concurrent copies of one proof cannot both
 * write), and this gives the pair back when the route then refuses the request with a 4xx or a 503
 * (nothing was written). A write that succeeded, or failed with an unknown outcome (500), keeps it
 * spent. A non-member's write to a private space is therefore the 404 every time, never a 409
 * (api-spec.md "Authentication" item 4: replay is 409 "for a private space, only for a member").
 */
@Injectable()
export class ReplayReleaseInterceptor implements NestInterceptor {
  constructor(private readonly replays: ReplayStore) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const request = context
      .switchToHttp()
      .getRequest<Request & { [REPLAY_RESERVATION]?: ReplayReservation }>();
    return next.handle().pipe(
      catchError((error: unknown) => {
        const reservation = request[REPLAY_RESERVATION];
        if (!reservation || !releases(error)) return throwError(() => error);
        delete request[REPLAY_RESERVATION];
        return from(this.replays.forget(reservation.did, reservation.jti)).pipe(
          mergeMap(() => throwError(() => error)),
        );
      }),
    );
  }
}

function releases(error: unknown): boolean {
  if (!(error instanceof HttpException)) return false;
  const status = error.getStatus();
  return (status >= 400 && status < 500) || status === 503;
}
