import { Module } from '@nestjs/common';
import { CursorCodec } from './cursor-codec';

/** Keyset cursors (design.md §7), for every module with a listing. */
@Module({ providers: [CursorCodec], exports: [CursorCodec] })
export class PaginationModule {}
