import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { KeysetSeek } from '../common/pagination/keyset';
import { defineStatements } from '../infrastructure/database/statements';
import type { ApplicationStatus } from '../spaces';
import { SpaceApplication, StoredApplicationResponse } from './entities/space-application.entity';
import { SpaceInvite } from './entities/space-invite.entity';
import { affectedRows, ErasedRows } from '../common/erasure/erased-rows';

const APPLICATION_COLUMNS =
  '"id", "space_id", "applicant_did", "status", "responses", "invite_id", "submitted_at", "decided_at", ' +
  '"decided_by_did", "created_at"';

/** Applications of a space ($1) in one state ($2), oldest first (then the cursor and the limit). */
const APPLICATIONS_OF = `SELECT ${APPLICATION_COLUMNS} FROM "space_applications" WHERE "space_id" = $1 AND "status" = $2`;

/** The legacy-spaces module's fixed SQL (docs/decisions/0131-a-repository-per-module.md). */
export const LEGACY_SPACES_STATEMENTS = defineStatements('LegacySpacesRepository', {
  /** The applicant's ($2) latest application to the space ($1), whatever its state. */
  latestApplication:
    `SELECT ${APPLICATION_COLUMNS} FROM "space_applications" WHERE "space_id" = $1 AND "applicant_did" = $2 ` +
    'ORDER BY "submitted_at" DESC, "id" DESC LIMIT 1',
  /** The admin listing of applications: submittedAt then id ascending. */
  applicationsPage: {
    first: `${APPLICATIONS_OF} ORDER BY "submitted_at" ASC, "id" ASC LIMIT $3`,
    after: `${APPLICATIONS_OF} AND ("submitted_at", "id") > ($3, $4) ORDER BY "submitted_at" ASC, "id" ASC LIMIT $5`,
    before: `${APPLICATIONS_OF} AND ("submitted_at", "id") < ($3, $4) ORDER BY "submitted_at" DESC, "id" DESC LIMIT $5`,
  },
  /** Rejects the person's ($2) pending application to the space ($1): decided at $3 by $4. */
  rejectPending:
    'UPDATE "space_applications" SET "status" = \'rejected\', "decided_at" = $3, "decided_by_did" = $4 ' +
    'WHERE "space_id" = $1 AND "applicant_did" = $2 AND "status" = \'pending\'',
  /** Revokes the person's ($2) current invite in the space ($1) at $3. */
  revokeInvitesOf:
    'UPDATE "space_invites" SET "revoked_at" = $3 WHERE "space_id" = $1 AND "creator_did" = $2 AND "revoked_at" IS NULL',
  /**
   * Erasure of a person ($1) (docs/decisions/0196-what-an-erasure-removes-and-keeps.md): their
   * applications, and the decisions they made no longer naming them.
   */
  eraseApplicationsOf: 'DELETE FROM "space_applications" WHERE "applicant_did" = $1',
  forgetDecider: 'UPDATE "space_applications" SET "decided_by_did" = NULL WHERE "decided_by_did" = $1',
  /**
   * The invites they created, revoked or not: an admin's links stop admitting when the admin goes
   * (docs/decisions/0192-an-erasure-takes-the-persons-media-and-invites.md).
   */
  eraseInvitesOf: 'DELETE FROM "space_invites" WHERE "creator_did" = $1',
  /** Revokes every current invite of the space ($1) at $2. */
  revokeInvitesOfSpace:
    'UPDATE "space_invites" SET "revoked_at" = $2 WHERE "space_id" = $1 AND "revoked_at" IS NULL',
});

interface ApplicationRow {
  id: string;
  space_id: string;
  applicant_did: string;
  status: ApplicationStatus;
  responses: StoredApplicationResponse[];
  invite_id: string | null;
  submitted_at: Date;
  decided_at: Date | null;
  decided_by_did: string | null;
  created_at: Date;
}

function applicationFromRow(row: ApplicationRow): SpaceApplication {
  return Object.assign(new SpaceApplication(), {
    id: row.id,
    spaceId: row.space_id,
    applicantDid: row.applicant_did,
    status: row.status,
    responses: row.responses,
    inviteId: row.invite_id,
    submittedAt: row.submitted_at,
    decidedAt: row.decided_at,
    decidedByDid: row.decided_by_did,
    createdAt: row.created_at,
  });
}

/** Every statement on `space_invites` and `space_applications`. */
@Injectable()
export class LegacySpacesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async eraseApplicationsOf(did: string, runner: EntityManager): Promise<ErasedRows> {
    const applications = affectedRows(
      await runner.query(LEGACY_SPACES_STATEMENTS.eraseApplicationsOf, [did]),
    );
    const decisions = affectedRows(await runner.query(LEGACY_SPACES_STATEMENTS.forgetDecider, [did]));
    const invites = affectedRows(await runner.query(LEGACY_SPACES_STATEMENTS.eraseInvitesOf, [did]));
    return { space_applications: applications + decisions, space_invites: invites };
  }

  // Applications

  /** The application of `id` (writers hold the space's row lock). */
  findApplication(
    id: string,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<SpaceApplication | null> {
    return runner.getRepository(SpaceApplication).findOne({ where: { id } });
  }

  /** The person's pending application to the space (at most one). */
  pendingApplication(
    spaceId: string,
    applicantDid: string,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<SpaceApplication | null> {
    return runner
      .getRepository(SpaceApplication)
      .findOne({ where: { spaceId, applicantDid, status: 'pending' } });
  }

  /** The person's latest application to the space, whatever its state. */
  async latestApplication(
    spaceId: string,
    applicantDid: string,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<SpaceApplication | null> {
    const rows = await runner.query<ApplicationRow[]>(LEGACY_SPACES_STATEMENTS.latestApplication, [
      spaceId,
      applicantDid,
    ]);
    return rows.length === 0 ? null : applicationFromRow(rows[0]);
  }

  /** A page of the space's applications in one state: `seek.take` past the cursor, in reading order. */
  async applicationsPage(
    spaceId: string,
    status: ApplicationStatus,
    seek: KeysetSeek,
  ): Promise<SpaceApplication[]> {
    const statements = LEGACY_SPACES_STATEMENTS.applicationsPage;
    const rows = await this.dataSource.query<ApplicationRow[]>(
      seek.values === null ? statements.first : seek.backward ? statements.before : statements.after,
      [spaceId, status, ...(seek.values ?? []), seek.take],
    );
    return rows.map(applicationFromRow);
  }

  async insertApplication(application: SpaceApplication, runner: EntityManager): Promise<void> {
    await runner.getRepository(SpaceApplication).insert(application);
  }

  /** Stores the decision (or withdrawal) of an application. */
  async decideApplication(
    application: Pick<SpaceApplication, 'id' | 'status' | 'decidedAt' | 'decidedByDid'>,
    runner: EntityManager,
  ): Promise<void> {
    await runner.getRepository(SpaceApplication).update(
      { id: application.id },
      {
        status: application.status,
        decidedAt: application.decidedAt,
        decidedByDid: application.decidedByDid,
      },
    );
  }

  /** Rejects the person's pending application to the space, if any. */
  async rejectPending(spaceId: string, applicantDid: string, at: Date, byDid: string, runner: EntityManager) {
    await runner.query(LEGACY_SPACES_STATEMENTS.rejectPending, [spaceId, applicantDid, at, byDid]);
  }

  // Invites

  findInvite(id: string, runner: EntityManager = this.dataSource.manager): Promise<SpaceInvite | null> {
    return runner.getRepository(SpaceInvite).findOne({ where: { id } });
  }

  inviteByCode(code: string): Promise<SpaceInvite | null> {
    return this.dataSource.getRepository(SpaceInvite).findOne({ where: { code } });
  }

  /** The person's current (unrevoked) invite in the space: at most one. */
  currentInvite(spaceId: string, creatorDid: string): Promise<SpaceInvite | null> {
    return this.dataSource
      .getRepository(SpaceInvite)
      .findOne({ where: { spaceId, creatorDid, revokedAt: IsNull() } });
  }

  async insertInvite(invite: SpaceInvite, runner: EntityManager): Promise<void> {
    await runner.getRepository(SpaceInvite).insert(invite);
  }

  async countInviteUse(id: string, runner: EntityManager): Promise<void> {
    await runner.getRepository(SpaceInvite).increment({ id }, 'uses', 1);
  }

  async revokeInvitesOf(spaceId: string, creatorDid: string, at: Date, runner: EntityManager): Promise<void> {
    await runner.query(LEGACY_SPACES_STATEMENTS.revokeInvitesOf, [spaceId, creatorDid, at]);
  }

  async revokeInvitesOfSpace(spaceId: string, at: Date, runner: EntityManager): Promise<void> {
    await runner.query(LEGACY_SPACES_STATEMENTS.revokeInvitesOfSpace, [spaceId, at]);
  }
}
