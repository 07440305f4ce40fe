import { HttpStatus } from '@nestjs/common';
import { WorkSlots } from '../../../common/concurrency/work-slots';
import { ApiError } from '../../../common/errors/api-error';

/** Seconds a client is told to wait when every render slot and queue place is taken. */
export const RENDERS_BUSY_RETRY_AFTER_SECONDS = 1;

/** The 503 of a full render queue (design.md §5), with `Retry-After`. */
export function rendersBusy(): ApiError {
  return new ApiError(
    HttpStatus.SERVICE_UNAVAILABLE,
    'Too many images are being transformed; retry shortly',
    {},
    { 'Retry-After': String(RENDERS_BUSY_RETRY_AFTER_SECONDS) },
  );
}

/**
 * At most `concurrency` renders at once in this process, at most `queueLength` more waiting their
 * turn in arrival order; past that, a render is refused at once (docs/decisions/0106-image-render-slots.md)
 * rather than waiting behind an unbounded line.
 */
export class RenderSlots extends WorkSlots {
  constructor(concurrency: number, queueLength: number) {
    super(concurrency, queueLength, rendersBusy);
  }
}
