import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';

/**
 * Bytes of uploads a space holds in storage: the original bytes of its media from
 * the moment they are stored until they are dropped (a media that fails processing), kept by the
 * media module in the transaction of each such write (docs/decisions/0114-media-upload-quota.md).
 * Derived files (posters, image variants) are not counted. A space without uploads has no row.
 */
@Entity({ name: 'media_space_usage' })
export class MediaSpaceUsage {
  // Foreign keys name the spaces module's tables only: no relation to its entities.
  @PrimaryColumn({ name: 'space_id', type: 'uuid' })
  @ForeignKey('spaces', { onDelete: 'CASCADE' })
  spaceId: string;

  @Column({ name: 'stored_bytes', type: 'bigint', default: 0 })
  storedBytes: string;
}
