import { Injectable } from '@nestjs/common';

/** The time source of request-proof windows, credential expiry and ceremonies; tests replace it. */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }
}
