import { Global, Module } from '@nestjs/common';
import { Clock } from './clock';

/** The service's time source, everywhere (tests replace it with a movable clock). */
@Global()
@Module({ providers: [Clock], exports: [Clock] })
export class ClockModule {}
