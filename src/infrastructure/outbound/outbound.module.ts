import { Module } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { OutboundFetcher } from './outbound-fetcher';

/** The one guarded outbound fetcher (OutboundFetcher), configured from AppConfig. */
@Module({
  providers: [{ provide: OutboundFetcher, inject: [AppConfig], useFactory: OutboundFetcher.fromConfig }],
  exports: [OutboundFetcher],
})
export class OutboundModule {}
