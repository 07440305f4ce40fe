import { formatEntityId } from '../../common/ids/entity-id';
import { ApplicationRecord, InviteRecord } from '../dto/legacy-records.dto';
import { SpaceApplication } from '../entities/space-application.entity';
import { SpaceInvite } from '../entities/space-invite.entity';

const iso = (date: Date) => date.toISOString();

/** Invites and applications to their legacy records, field by field. */
export function toInviteRecord(invite: SpaceInvite): InviteRecord {
  return {
    inviteId: formatEntityId('space_invite', invite.id),
    inviteCode: invite.code,
    spaceId: formatEntityId('space', invite.spaceId),
    expiresAt: iso(invite.expiresAt),
    usesRemaining: Math.max(0, invite.maxUses - invite.uses),
    maxUses: invite.maxUses,
    joinModeOverride: invite.joinModeOverride,
    createdAt: iso(invite.createdAt),
  };
}

export function toApplicationRecord(application: SpaceApplication): ApplicationRecord {
  return {
    applicationId: formatEntityId('application', application.id),
    spaceId: formatEntityId('space', application.spaceId),
    applicantDid: application.applicantDid,
    status: application.status,
    responses: application.responses.map((r) => ({ question: r.question, response: r.response })),
    submittedAt: iso(application.submittedAt),
    decidedAt: application.decidedAt ? iso(application.decidedAt) : null,
  };
}
