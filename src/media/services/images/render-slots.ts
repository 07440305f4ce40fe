import { WorkSlots } from '../../../common/concurrency/work-slots';

/**
 * At most `concurrency` renders at once in this process, at most `queueLength` more waiting their
 * turn in arrival order; past that, a render is refused at once (docs/decisions/0106-image-render-slots.md)
 * rather than waiting behind an unbounded line.
 */
export class RenderSlots extends WorkSlots {
  constructor(concurrency: number, queueLength: number) {
    super(concurrency, queueLength, 'Too many images are being transformed; retry shortly');
  }
}
