import { Injectable } from '@nestjs/common';

/** A repeating timer started by `Clock.repeat`. */
export interface Repeating {
  stop(): void;
}

/** The time source of request-proof windows, credential expiry and ceremonies; tests replace it. */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }

  /**
   * Runs `tick` every `intervalMs` until stopped (the stream's heartbeat); tests replace it to tick
   * by hand instead of waiting. The timer never keeps the process alive.
   */
  repeat(intervalMs: number, tick: () => void): Repeating {
    const timer = setInterval(tick, intervalMs);
    timer.unref();
    return { stop: () => clearInterval(timer) };
  }
}
