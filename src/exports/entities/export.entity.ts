import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

declare module '../../common/ids/entity-id' {
  interface EntityPrefixes {
    /** `export_<32 hex>` on the wire. */
    export: true;
  }
}

/** One row of `exports`, the exports module's own table (its migration creates it). */
@Entity({ name: 'exports' })
@Index('idx_exports_owner', ['ownerDid', 'id'])
export class Export {
  /** A UUIDv7 (`newUuid()`): time-ordered, so listings page by it. */
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  /** Who it belongs to. */
  @Column({ name: 'owner_did', type: 'varchar', length: 64 })
  ownerDid: string;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
