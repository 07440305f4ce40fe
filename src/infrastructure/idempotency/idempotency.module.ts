import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { WriteIdempotency } from '../../common/idempotency/write-idempotency';
import { IdempotencyKey } from './entities/idempotency-key.entity';
import { IdempotencyStore } from './idempotency-store';
import { IdempotencyRepository } from './idempotency.repository';
import { IdempotentWrites } from './idempotent-writes';

/** `Idempotency-Key` on authenticated writes: the `idempotency_keys` table behind the route access guard. */
@Module({
  imports: [TypeOrmModule.forFeature([IdempotencyKey])],
  providers: [
    IdempotencyRepository,
    IdempotencyStore,
    { provide: WriteIdempotency, useClass: IdempotentWrites },
  ],
  exports: [WriteIdempotency, IdempotencyStore],
})
export class IdempotencyModule {}
