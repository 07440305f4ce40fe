import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { Clock } from '../../common/clock/clock';
import {
  conflict,
  forbidden,
  invalidRequest,
  notFound,
  ValidationDetail,
} from '../../common/errors/api-error';
import { newUuid, parseEntityId } from '../../common/ids/entity-id';
import { CursorCodec } from '../../common/pagination/cursor-codec';
import { DomainEvents } from '../../infrastructure/events/domain-events.service';
import { ApplicationCanceled, ApplicationDecided, ApplicationSubmitted } from '../events/application.events';
import { closeKeysetPage, KeysetColumn, openKeysetPage } from '../../common/pagination/keyset';
import { Page } from '../../common/pagination/page';
import {
  ApplicationResponseInput,
  ApplicationSettingsRequest,
  ApplicationsQuery,
  ApplyRequest,
  DecideApplicationRequest,
} from '../dto/legacy-requests.dto';
import { ApplicationRecord, ApplicationSettingsRecord } from '../dto/legacy-records.dto';
import { SpaceApplication } from '../entities/space-application.entity';
import {
  SpaceView,
  StoredApplicationQuestion,
  SpacesService,
  MembershipWritesService,
  assertRepeats,
  isAdmin,
  SpaceAccessService,
  SpaceDirectoryService,
} from '../../spaces';
import { toApplicationRecord } from './legacy-records.presenter';
import { checkResponses } from '../domain/application-responses';
import { LegacySpacesRepository } from '../legacy-spaces.repository';

/** The admin listing's order: submittedAt then id (`LegacySpacesRepository.applicationsPage`). */
const APPLICATIONS_ORDER: KeysetColumn[] = [
  { expression: 'submitted_at', direction: 'ASC' },
  { expression: 'id', direction: 'ASC' },
];

/** Applications to join (pending → approved | rejected) and the questions they answer. */
@Injectable()
export class SpaceApplicationsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly spaces: SpacesService,
    private readonly legacy: LegacySpacesRepository,
    private readonly access: SpaceAccessService,
    private readonly writes: MembershipWritesService,
    private readonly cursors: CursorCodec,
    private readonly clock: Clock,
    private readonly events: DomainEvents,
    private readonly directory: SpaceDirectoryService,
  ) {}

  /** Applies to a space whose join mode is application. */
  async apply(
    principal: RequestPrincipal,
    pathId: string,
    request: ApplyRequest,
  ): Promise<ApplicationRecord> {
    assertRepeats('id', request.id, pathId);
    const context = await this.access.resolve(pathId, principal.did);
    if (context.space.joinMode !== 'application') throw forbidden('This space does not take applications');
    return this.dataSource.transaction(async (manager) => {
      const space = await this.access.lock(manager, context.space.id);
      const pending = await this.submit(manager, space, principal.did, request.responses ?? [], null);
      if (pending.existing) throw conflict('An application is already pending');
      return toApplicationRecord(pending.application);
    });
  }

  /**
   * Files a pending application under the space's row lock. A banned person is refused, a member
   * is a conflict; an application already pending is returned as `existing`.
   */
  async submit(
    manager: EntityManager,
    space: SpaceView,
    did: string,
    responses: ApplicationResponseInput[],
    inviteId: string | null,
  ): Promise<{ application: SpaceApplication; existing: boolean }> {
    const membership = await this.directory.membershipOf(space.id, did, manager);
    if (membership?.status === 'banned') throw forbidden('Banned from this space');
    if (membership?.status === 'active') throw conflict('Already a member');
    // Banned, then erased, and back with the same DID (0193-bans-of-erased-people-kept-as-keyed-hashes.md).
    if (!membership && (await this.writes.erasedBan(manager, space.id, did))) {
      throw forbidden('Banned from this space');
    }
    const pending = await this.legacy.pendingApplication(space.id, did, manager);
    if (pending) return { application: pending, existing: true };
    const answers = checkResponses(space.applicationQuestions, responses);
    const application = Object.assign(new SpaceApplication(), {
      id: newUuid(),
      spaceId: space.id,
      applicantDid: did,
      status: 'pending',
      responses: answers,
      inviteId,
      submittedAt: this.clock.now(),
      decidedAt: null,
      decidedByDid: null,
    });
    await this.legacy.insertApplication(application, manager);
    await this.events.emit(manager, new ApplicationSubmitted(space.id, did, application.id));
    return { application, existing: false };
  }

  /** The caller's latest application to the space (also once decided or withdrawn). */
  async mine(principal: RequestPrincipal, pathId: string): Promise<ApplicationRecord> {
    const context = await this.access.resolveApplicant(pathId, principal.did);
    const application = await this.legacy.latestApplication(context.space.id, principal.did);
    if (!application) throw notFound();
    return toApplicationRecord(application);
  }

  /**
   * DELETE /spaces/{id}/applications/me (design.md §9): the applicant withdraws their pending
   * application (→ canceled; the admins are told). Withdrawing again answers the same record; with
   * nothing pending and no withdrawn application last, the 404; a decided one last, 409. The
   * applicant may apply again; a decision on a withdrawn application is 409.
   */
  async withdraw(principal: RequestPrincipal, pathId: string): Promise<ApplicationRecord> {
    const context = await this.access.resolveApplicant(pathId, principal.did);
    return this.dataSource.transaction(async (manager) => {
      await this.access.lock(manager, context.space.id);
      const latest = await this.legacy.latestApplication(context.space.id, principal.did, manager);
      if (!latest) throw notFound();
      if (latest.status === 'canceled') return toApplicationRecord(latest);
      if (latest.status !== 'pending') throw conflict(`Application already ${latest.status}`);
      latest.status = 'canceled';
      latest.decidedAt = this.clock.now();
      latest.decidedByDid = principal.did;
      await this.legacy.decideApplication(latest, manager);
      await this.events.emit(manager, new ApplicationCanceled(latest.spaceId, principal.did, latest.id));
      return toApplicationRecord(latest);
    });
  }

  /** Admins: applications in one state (pending by default), oldest first. */
  async list(
    principal: RequestPrincipal,
    pathId: string,
    query: ApplicationsQuery,
  ): Promise<Page<ApplicationRecord>> {
    const context = await this.access.resolveAdmin(pathId, principal.did);
    const status = query.status ?? 'pending';
    const keyset = {
      listing: `legacy-space-applications:${status}`,
      columns: APPLICATIONS_ORDER,
      keyOf: (row: SpaceApplication) => [row.submittedAt.toISOString(), row.id],
      page: query,
      cursors: this.cursors,
    };
    const seek = openKeysetPage(keyset);
    const page = closeKeysetPage(
      seek,
      await this.legacy.applicationsPage(context.space.id, status, seek),
      keyset,
    );
    return {
      items: page.rows.map(toApplicationRecord),
      nextCursor: page.nextCursor,
      previousCursor: page.previousCursor,
    };
  }

  approve(
    principal: RequestPrincipal,
    pathId: string,
    request: DecideApplicationRequest,
  ): Promise<ApplicationRecord> {
    return this.decide(principal, pathId, request, 'approved');
  }

  reject(
    principal: RequestPrincipal,
    pathId: string,
    request: DecideApplicationRequest,
  ): Promise<ApplicationRecord> {
    return this.decide(principal, pathId, request, 'rejected');
  }

  async settings(principal: RequestPrincipal, pathId: string): Promise<ApplicationSettingsRecord> {
    const context = await this.access.resolve(pathId, principal.did);
    return { questions: context.space.applicationQuestions.map(copyQuestion) };
  }

  async updateSettings(
    principal: RequestPrincipal,
    pathId: string,
    request: ApplicationSettingsRequest,
  ): Promise<ApplicationSettingsRecord> {
    assertRepeats('id', request.id, pathId);
    const seen = new Set<string>();
    const duplicates: ValidationDetail[] = [];
    request.questions.forEach((question, index) => {
      if (seen.has(question.question))
        duplicates.push({ path: `questions.${index}.question`, message: 'question appears twice' });
      seen.add(question.question);
    });
    if (duplicates.length > 0) throw invalidRequest('Invalid request', duplicates);
    const context = await this.access.resolveAdmin(pathId, principal.did);
    const questions = request.questions.map(copyQuestion);
    await this.spaces.storeApplicationQuestions(context.space.id, questions);
    return { questions: questions.map(copyQuestion) };
  }

  /**
   * Admins decide a pending application: approved makes the applicant a member, rejected lets them
   * reapply. Repeating the same decision answers the same record; the other decision is a conflict.
   */
  private async decide(
    principal: RequestPrincipal,
    pathId: string,
    request: DecideApplicationRequest,
    decision: 'approved' | 'rejected',
  ): Promise<ApplicationRecord> {
    assertRepeats('applicationId', request.applicationId, pathId);
    const id = parseEntityId('application', pathId);
    if (!id) throw notFound();
    const found = await this.legacy.findApplication(id);
    if (!found) throw notFound();
    const space = await this.directory.findById(found.spaceId);
    if (!space) throw notFound();
    const context = await this.access.reach(space, principal.did);
    if (!isAdmin(context)) throw forbidden('Admins only');
    return this.dataSource.transaction(async (manager) => {
      await this.access.lock(manager, space.id);
      const application = await this.legacy.findApplication(id, manager);
      if (!application) throw new Error(`Application ${id} not found under its space's lock`);
      if (application.status === decision) return toApplicationRecord(application);
      if (application.status !== 'pending') throw conflict(`Application already ${application.status}`);
      if (decision === 'approved') {
        const membership = await this.directory.membershipOf(space.id, application.applicantDid, manager);
        if (membership?.status === 'banned') throw conflict('Applicant is banned');
        await this.writes.admit(manager, space.id, application.applicantDid);
      }
      application.status = decision;
      application.decidedAt = this.clock.now();
      application.decidedByDid = principal.did;
      await this.legacy.decideApplication(application, manager);
      await this.events.emit(
        manager,
        new ApplicationDecided(space.id, application.applicantDid, application.id, decision, principal.did),
      );
      return toApplicationRecord(application);
    });
  }
}

const copyQuestion = (question: StoredApplicationQuestion): StoredApplicationQuestion => ({
  question: question.question,
  isRequired: question.isRequired,
});
