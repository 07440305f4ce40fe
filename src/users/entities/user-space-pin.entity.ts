import { Column, Entity, ForeignKey, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { User } from './user.entity';

/**
 * A space a user pinned to their profile (design.md §2), in the user's order (`position`
 * ascending). A pin outlives the membership: reads show it only while the user is an active member
 * of the live space (and, publicly, while the space has a public profile).
 */
@Entity({ name: 'user_space_pins' })
@Index('idx_user_space_pins_order', ['userId', 'position'])
export class UserSpacePin {
  @PrimaryColumn({ name: 'user_id', type: 'uuid' })
  userId: string;

  /** A foreign key to the spaces module's table by name only: no relation to its entity. */
  @PrimaryColumn({ name: 'space_id', type: 'uuid' })
  @ForeignKey('spaces', { onDelete: 'CASCADE' })
  spaceId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Column({ type: 'integer' })
  position: number;

  @Column({ name: 'pin_message', type: 'varchar', length: 280, nullable: true })
  pinMessage: string | null;

  @Column({ name: 'pinned_at', type: 'timestamptz', precision: 3 })
  pinnedAt: Date;
}
