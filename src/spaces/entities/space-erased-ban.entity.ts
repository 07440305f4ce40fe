import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Space } from './space.entity';

/**
 * A ban of an erased person, kept as a keyed hash of their DID only
 * (docs/decisions/0193-bans-of-erased-people-kept-as-keyed-hashes.md): joining the space again with
 * that DID is refused, and nothing here names them.
 */
@Entity({ name: 'space_erased_bans' })
export class SpaceErasedBan {
  @PrimaryColumn({ name: 'space_id', type: 'uuid' })
  spaceId: string;

  /** HMAC-SHA256 of the DID under ERASED_BAN_SECRET, hex. */
  @PrimaryColumn({ name: 'did_hash', type: 'varchar', length: 64 })
  didHash: string;

  @ManyToOne(() => Space, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'space_id' })
  space?: Space;

  @Column({ name: 'banned_at', type: 'timestamptz', precision: 3, nullable: true })
  bannedAt: Date | null;
}
