import { Clock } from '../../src/common/clock/clock';

/** Real time shifted by what the test says (expiry, windows). Sign request proofs by it too. */
export class ShiftedClock extends Clock {
  offsetMs = 0;

  override now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
}
