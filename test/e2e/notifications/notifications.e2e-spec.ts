import { Response } from 'supertest';
import { refuseWrites } from '../../support/faults';
import {
  addMember,
  bootSpaces,
  Caller,
  createSpace,
  expectInvalid,
  expectNotFound,
  expectStatus,
  SpacesTestApp,
} from '../spaces/support';
import { followJoins, settleJoinsBeforeNotificationReads } from './join-announcements';

interface NotificationBody {
  id: string;
  type: string;
  space: { id: string; did: string; displayName: string | null };
  readState: 'unread' | 'read';
  scope: {
    type: string;
    preview: {
      id: string;
      title: string;
      createdBy: { did: string; displayName: string | null };
      createdAt: string;
    };
  };
  aggregation: {
    type: string;
    items: { did: string; displayName: string | null }[];
    totalCount: number;
  } | null;
  firstActivityAt: string;
  lastActivityAt: string;
  lastReadAt: string | null;
  createdAt: string;
}

/**
 * Notifications through the legacy routes, with real identities: every kind the spaces module
 * emits reaches exactly its audience; grouping, counts, reading, ordering and visibility.
 */
describe('notifications (e2e)', () => {
  let t: SpacesTestApp;

  let restoreSend: () => void;

  beforeAll(async () => {
    t = await bootSpaces();
    // Joins are told by a background job: reads of notifications wait until every join is told.
    restoreSend = settleJoinsBeforeNotificationReads(followJoins(t.app, t.dataSource));
  });

  afterAll(async () => {
    restoreSend();
    await t.close();
  });

  /** Moves the service clock (and the proofs' clock) forward, so activities are strictly ordered. */
  const tick = () => {
    t.clock.offsetMs += 1000;
  };

  async function list(
    caller: Caller,
    query = '',
  ): Promise<{ items: NotificationBody[]; totalCount: number }> {
    const response = await caller.get(`/notifications${query}`);
    expectStatus(response, 200);
    return response.body as { items: NotificationBody[]; totalCount: number };
  }

  /** The types of the caller's unread notifications, most recent first. */
  const types = async (caller: Caller, query = '') =>
    (await list(caller, query)).items.filter((item) => item.readState === 'unread').map((item) => item.type);

  /** A public space of `owner` with the join mode given; answers its id and DID. */
  async function space(
    owner: Caller,
    joinMode: 'open' | 'application' | 'closed' = 'open',
    displayName = 'Makers',
  ): Promise<{ id: string; did: string }> {
    const created = await createSpace(owner, displayName);
    expectStatus(await owner.put(`/spaces/${created.id}/public-config`, { isPublic: true, joinMode }), 200);
    return created;
  }

  /** An owner, an admin and a member in an open space; nobody has notifications afterwards. */
  async function staffedSpace() {
    const owner = t.caller();
    const admin = t.caller();
    const member = t.caller();
    const created = await space(owner);
    expectStatus(await admin.post(`/spaces/${created.id}/join`), 200);
    expectStatus(await member.post(`/spaces/${created.id}/join`), 200);
    expectStatus(await owner.put(`/spaces/${created.id}/members/${admin.did}`, { role: 'admin' }), 200);
    for (const caller of [owner, admin, member]) {
      expectStatus(await caller.post('/notifications/mark-all-read', {}), 200);
    }
    return { owner, admin, member, ...created };
  }

  describe('audiences', () => {
    it('notify.member.joined reaches every other active member, not the joiner or outsiders', async () => {
      const owner = t.caller();
      const member = t.caller();
      const outsider = t.caller();
      const { id, did } = await space(owner);
      expectStatus(await member.post(`/spaces/${id}/join`), 200);
      const newcomer = t.caller();
      expectStatus(await newcomer.post(`/spaces/${id}/join`), 200);

      const ownerItems = (await list(owner)).items;
      expect(ownerItems).toHaveLength(1);
      expect(ownerItems[0]).toMatchObject({
        type: 'notify.member.joined',
        space: { id, did, displayName: 'Makers' },
        readState: 'unread',
        scope: { type: 'member', preview: { id: newcomer.did, createdBy: { did: newcomer.did } } },
        aggregation: { type: 'identity', totalCount: 2 },
        lastReadAt: null,
      });
      expect(await types(member)).toEqual(['notify.member.joined']);
      expect((await list(member)).items[0].scope.preview.id).toBe(newcomer.did);
      expect(await types(newcomer)).toEqual([]);
      expect(await types(outsider)).toEqual([]);
    });

    it('joining again (already a member) notifies no one', async () => {
      const { owner, member, id } = await staffedSpace();
      expectStatus(await member.post(`/spaces/${id}/join`), 200);
      expect(await types(owner)).toEqual([]);
    });

    it('notify.member.role_changed reaches only the member whose role changed', async () => {
      const { owner, admin, member, id } = await staffedSpace();
      expectStatus(await owner.put(`/spaces/${id}/members/${member.did}`, { role: 'admin' }), 200);
      const items = (await list(member)).items;
      expect(items.map((item) => item.type)).toEqual(['notify.member.role_changed']);
      expect(items[0].scope.preview).toMatchObject({
        id: member.did,
        title: 'Your role is now admin',
        createdBy: { did: owner.did },
      });
      expect(await types(owner)).toEqual([]);
      expect(await types(admin)).toEqual([]);
      // The same role again changes nothing and notifies no one.
      expectStatus(await owner.put(`/spaces/${id}/members/${member.did}`, { role: 'admin' }), 200);
      expect((await list(member)).items[0].lastActivityAt).toBe(items[0].lastActivityAt);
    });

    it('notify.member.kicked reaches the other admins only', async () => {
      const { owner, admin, member, id } = await staffedSpace();
      const bystander = t.caller();
      expectStatus(await bystander.post(`/spaces/${id}/join`), 200);
      expectStatus(await member.post('/notifications/mark-all-read', {}), 200);
      expectStatus(await owner.post('/notifications/mark-all-read', {}), 200);
      expectStatus(await admin.post('/notifications/mark-all-read', {}), 200);

      expectStatus(await admin.delete(`/spaces/${id}/members/${member.did}`), 204);
      const ownerItems = (await list(owner)).items.filter((item) => item.readState === 'unread');
      expect(ownerItems.map((item) => item.type)).toEqual(['notify.member.kicked']);
      expect(ownerItems[0].scope.preview).toMatchObject({ id: member.did, createdBy: { did: admin.did } });
      expect((await list(admin)).items.filter((item) => item.readState === 'unread')).toEqual([]);
      expect(await types(bystander)).toEqual([]);
      expect(await types(member)).toEqual([]);
    });

    it('notify.member.banned reaches the other admins only', async () => {
      const { owner, admin, member, id } = await staffedSpace();
      const stranger = t.caller();
      expectStatus(await owner.post(`/spaces/${id}/members/${stranger.did}/bans`, {}), 200);
      const adminItems = (await list(admin)).items.filter((item) => item.readState === 'unread');
      expect(adminItems.map((item) => item.type)).toEqual(['notify.member.banned']);
      expect(adminItems[0].scope.preview).toMatchObject({ id: stranger.did, createdBy: { did: owner.did } });
      expect(await types(owner)).toEqual([]);
      expect(await types(member)).toEqual([]);
      expect(await types(stranger)).toEqual([]);
      // Banning again is the same record, and no new activity.
      expectStatus(await owner.post(`/spaces/${id}/members/${stranger.did}/bans`, {}), 200);
      expect(await types(admin)).toEqual(['notify.member.banned']);
      expect((await list(admin)).items[0].aggregation).toBeNull();
    });

    it('applications: submitted to admins, approved and rejected to the applicant only', async () => {
      const owner = t.caller();
      const admin = t.caller();
      const member = t.caller();
      const { id } = await space(owner, 'application');
      await addMember(owner, id, admin);
      await addMember(owner, id, member);
      expectStatus(await owner.put(`/spaces/${id}/members/${admin.did}`, { role: 'admin' }), 200);
      for (const caller of [owner, admin, member]) {
        expectStatus(await caller.post('/notifications/mark-all-read', {}), 200);
      }

      const accepted = t.caller();
      const refused = t.caller();
      const first = await accepted.post(`/spaces/${id}/applications`, {});
      expectStatus(first, 201);
      const second = await refused.post(`/spaces/${id}/applications`, {});
      expectStatus(second, 201);

      const unread = async (caller: Caller) =>
        (await list(caller)).items.filter((item) => item.readState === 'unread');
      for (const staff of [owner, admin]) {
        const items = await unread(staff);
        expect(items.map((item) => item.type)).toEqual(['notify.application.submitted']);
        expect(items[0].scope).toMatchObject({
          type: 'application',
          preview: { id: second.body.applicationId, createdBy: { did: refused.did } },
        });
        expect(items[0].aggregation).toMatchObject({ type: 'identity', totalCount: 2 });
        expect(items[0].aggregation!.items.map((person) => person.did)).toEqual([refused.did, accepted.did]);
      }
      expect(await unread(member)).toEqual([]);
      expect(await types(accepted)).toEqual([]);

      expectStatus(await owner.post(`/applications/${first.body.applicationId}/approve`, {}), 200);
      expectStatus(await admin.post(`/applications/${second.body.applicationId}/reject`, {}), 200);
      const acceptedItems = (await list(accepted)).items;
      expect(acceptedItems.map((item) => item.type)).toEqual(['notify.application.approved']);
      expect(acceptedItems[0].scope.preview).toMatchObject({
        id: first.body.applicationId,
        createdBy: { did: owner.did },
      });
      // Not a member, yet the applicant sees the decision about their application.
      const refusedItems = (await list(refused)).items;
      expect(refusedItems.map((item) => item.type)).toEqual(['notify.application.rejected']);
      expect(refusedItems[0].scope.preview).toMatchObject({ createdBy: { did: admin.did } });
      // The approval made a member: the other members hear of the join.
      expect((await unread(member)).map((item) => item.type)).toEqual(['notify.member.joined']);
      expect((await unread(owner)).map((item) => item.type).sort()).toEqual([
        'notify.application.submitted',
        'notify.member.joined',
      ]);
    });

    it('notify.application.canceled: a withdrawal reaches the admins only', async () => {
      const owner = t.caller();
      const admin = t.caller();
      const member = t.caller();
      const { id } = await space(owner, 'application');
      await addMember(owner, id, admin);
      await addMember(owner, id, member);
      expectStatus(await owner.put(`/spaces/${id}/members/${admin.did}`, { role: 'admin' }), 200);
      const applicant = t.caller();
      const filed = await applicant.post(`/spaces/${id}/applications`, {});
      for (const caller of [owner, admin, member]) {
        expectStatus(await caller.post('/notifications/mark-all-read', {}), 200);
      }
      tick();
      expectStatus(await applicant.delete(`/spaces/${id}/applications/me`), 200);
      for (const staff of [owner, admin]) {
        const [item] = (await list(staff)).items.filter((entry) => entry.readState === 'unread');
        expect(item).toMatchObject({
          type: 'notify.application.canceled',
          scope: {
            type: 'application',
            preview: { id: filed.body.applicationId, createdBy: { did: applicant.did } },
          },
        });
      }
      expect(await types(member)).toEqual([]);
      expect(await types(applicant)).toEqual([]);
      // Withdrawing again is no activity.
      expectStatus(await owner.post('/notifications/mark-all-read', {}), 200);
      expectStatus(await applicant.delete(`/spaces/${id}/applications/me`), 200);
      expect(await types(owner)).toEqual([]);
    });

    it('an approval that fails mid-write makes no member and notifies no one; it can be retried', async () => {
      const owner = t.caller();
      const member = t.caller();
      const { id } = await space(owner, 'application');
      await addMember(owner, id, member);
      const applicant = t.caller();
      const applied = await applicant.post(`/spaces/${id}/applications`, {});
      expectStatus(applied, 201);
      for (const caller of [owner, member]) {
        expectStatus(await caller.post('/notifications/mark-all-read', {}), 200);
      }
      // The membership row, member count and join event come first; the decision's own update fails.
      const repair = await refuseWrites(t.dataSource, 'space_applications', 'UPDATE');
      const approve = `/applications/${applied.body.applicationId}/approve`;
      try {
        expectStatus(await owner.post(approve, {}, { jti: 'approval-rollback-0001' }), 500);
      } finally {
        await repair();
      }
      const rows = await t.dataSource.query(
        'SELECT count(*)::int AS n FROM space_memberships WHERE member_did = $1',
        [applicant.did],
      );
      expect(rows[0].n).toBe(0);
      expect(await types(member)).toEqual([]);
      expect(await types(applicant)).toEqual([]);
      // Nothing was written, so the same proof's jti goes through now.
      expectStatus(await owner.post(approve, {}, { jti: 'approval-rollback-0001' }), 200);
      expect(await types(member)).toEqual(['notify.member.joined']);
      expect(await types(applicant)).toEqual(['notify.application.approved']);
    });

    it('a refused write notifies no one', async () => {
      const { owner, admin, member, id } = await staffedSpace();
      expectStatus(await admin.delete(`/spaces/${id}/members/${owner.did}`), 403);
      expectStatus(await admin.post(`/spaces/${id}/members/${owner.did}/bans`, {}), 403);
      expectStatus(await member.put(`/spaces/${id}/members/${admin.did}`, { role: 'member' }), 403);
      const closed = await space(owner, 'closed');
      expectStatus(await member.post(`/spaces/${closed.id}/join`), 403);
      for (const caller of [owner, admin, member]) {
        expect((await list(caller)).items.filter((item) => item.readState === 'unread')).toEqual([]);
      }
    });
  });

  describe('names', () => {
    /** Gives the caller an account: a handle, and a display name when given. */
    const signUp = async (caller: Caller, handle: string, displayName?: string) =>
      expectStatus(await caller.post('/users', { handle, ...(displayName ? { displayName } : {}) }), 201);
    const unread = async (caller: Caller) =>
      (await list(caller)).items.filter((item) => item.readState === 'unread');

    it('kicked and banned people with accounts are named (display name, else handle), never a bare DID', async () => {
      const { owner, admin, member, id } = await staffedSpace();
      await signUp(owner, 'nell-owner', 'Nell Owner');
      await signUp(admin, 'ada-admin');
      await signUp(member, 'kit', 'Kit Kicked');
      const handleOnly = t.caller();
      await signUp(handleOnly, 'hal-handle');
      expectStatus(await handleOnly.post(`/spaces/${id}/join`), 200);
      expectStatus(await owner.post('/notifications/mark-all-read', {}), 200);

      tick();
      expectStatus(await admin.delete(`/spaces/${id}/members/${member.did}`), 204);
      const [kicked] = await unread(owner);
      expect(kicked).toMatchObject({
        type: 'notify.member.kicked',
        scope: {
          preview: {
            id: member.did,
            title: 'Kit Kicked was removed',
            createdBy: { did: admin.did, displayName: 'ada-admin' },
          },
        },
        aggregation: null,
      });
      tick();
      expectStatus(await admin.delete(`/spaces/${id}/members/${handleOnly.did}`), 204);
      const [again] = await unread(owner);
      expect(again.scope.preview).toMatchObject({ id: handleOnly.did, title: 'hal-handle was removed' });
      expect(again.aggregation).toEqual({
        type: 'identity',
        items: [
          { did: handleOnly.did, displayName: 'hal-handle' },
          { did: member.did, displayName: 'Kit Kicked' },
        ],
        totalCount: 2,
      });

      // Banned: a former member and someone who never joined, both with accounts.
      const stranger = t.caller();
      await signUp(stranger, 'bo-banned', 'Bo Banned');
      tick();
      expectStatus(await owner.post(`/spaces/${id}/members/${member.did}/bans`, {}), 200);
      const [banned] = (await unread(admin)).filter((item) => item.type === 'notify.member.banned');
      expect(banned.scope.preview).toEqual({
        id: member.did,
        title: 'Kit Kicked was banned',
        createdBy: { did: owner.did, displayName: 'Nell Owner' },
        createdAt: expect.any(String),
      });
      tick();
      expectStatus(await owner.post(`/spaces/${id}/members/${stranger.did}/bans`, {}), 200);
      const [both] = (await unread(admin)).filter((item) => item.type === 'notify.member.banned');
      expect(both.scope.preview).toMatchObject({
        id: stranger.did,
        title: 'Bo Banned was banned',
        createdBy: { did: owner.did, displayName: 'Nell Owner' },
      });
      expect(both.aggregation).toEqual({
        type: 'identity',
        items: [
          { did: stranger.did, displayName: 'Bo Banned' },
          { did: member.did, displayName: 'Kit Kicked' },
        ],
        totalCount: 2,
      });
    });

    it('applicants and withdrawing applicants with accounts are named; so are the deciding admins', async () => {
      const owner = t.caller();
      const admin = t.caller();
      await signUp(owner, 'oda-owner', 'Oda Owner');
      await signUp(admin, 'abe-admin');
      const { id } = await space(owner, 'application');
      await addMember(owner, id, admin);
      expectStatus(await owner.put(`/spaces/${id}/members/${admin.did}`, { role: 'admin' }), 200);
      const handleOnly = t.caller();
      const named = t.caller();
      await signUp(handleOnly, 'ann-applies');
      await signUp(named, 'bea', 'Bea Applicant');
      for (const caller of [owner, admin]) {
        expectStatus(await caller.post('/notifications/mark-all-read', {}), 200);
      }

      tick();
      const first = await handleOnly.post(`/spaces/${id}/applications`, {});
      expectStatus(first, 201);
      const [one] = await unread(owner);
      expect(one.scope.preview).toMatchObject({
        id: first.body.applicationId,
        title: 'ann-applies applied to join',
        createdBy: { did: handleOnly.did, displayName: 'ann-applies' },
      });
      tick();
      const second = await named.post(`/spaces/${id}/applications`, {});
      expectStatus(second, 201);
      // Both applicants, the latest first: the group of the submitted and of the canceled kind.
      const bothApplicants = {
        type: 'identity',
        items: [
          { did: named.did, displayName: 'Bea Applicant' },
          { did: handleOnly.did, displayName: 'ann-applies' },
        ],
        totalCount: 2,
      };
      for (const staff of [owner, admin]) {
        const [submitted] = await unread(staff);
        expect(submitted).toMatchObject({
          type: 'notify.application.submitted',
          scope: {
            preview: {
              id: second.body.applicationId,
              title: 'Bea Applicant applied to join',
              createdBy: { did: named.did, displayName: 'Bea Applicant' },
            },
          },
          aggregation: bothApplicants,
        });
      }

      for (const caller of [owner, admin]) {
        expectStatus(await caller.post('/notifications/mark-all-read', {}), 200);
      }
      tick();
      expectStatus(await handleOnly.delete(`/spaces/${id}/applications/me`), 200);
      tick();
      expectStatus(await named.delete(`/spaces/${id}/applications/me`), 200);
      for (const staff of [owner, admin]) {
        const [canceled] = await unread(staff);
        expect(canceled).toMatchObject({
          type: 'notify.application.canceled',
          scope: {
            preview: {
              id: second.body.applicationId,
              title: 'Bea Applicant withdrew their application',
              createdBy: { did: named.did, displayName: 'Bea Applicant' },
            },
          },
          aggregation: bothApplicants,
        });
      }

      // Applying again, each decided: the deciding admin is named in createdBy and the group.
      const again = await handleOnly.post(`/spaces/${id}/applications`, {});
      expectStatus(again, 201);
      expectStatus(await admin.post(`/applications/${again.body.applicationId}/reject`, {}), 200);
      const [rejected] = await unread(handleOnly);
      expect(rejected).toMatchObject({
        type: 'notify.application.rejected',
        scope: {
          preview: {
            id: again.body.applicationId,
            title: 'Your application was rejected',
            createdBy: { did: admin.did, displayName: 'abe-admin' },
          },
        },
        aggregation: null,
      });
      const later = await named.post(`/spaces/${id}/applications`, {});
      expectStatus(later, 201);
      expectStatus(await owner.post(`/applications/${later.body.applicationId}/approve`, {}), 200);
      const [approved] = await unread(named);
      expect(approved.scope.preview.createdBy).toEqual({ did: owner.did, displayName: 'Oda Owner' });
    });
  });

  describe('aggregation and ordering', () => {
    it('groups unread activity of one kind and space; reading it starts a new group', async () => {
      const owner = t.caller();
      const { id } = await space(owner);
      const people = [t.caller(), t.caller(), t.caller()];
      for (const person of people) {
        tick();
        expectStatus(await person.post(`/spaces/${id}/join`), 200);
      }
      // Leaving and joining again moves the person to the front, counted once.
      tick();
      expectStatus(await people[0].delete(`/spaces/${id}/membership`), 204);
      tick();
      expectStatus(await people[0].post(`/spaces/${id}/join`), 200);
      const { items, totalCount } = await list(owner);
      expect(totalCount).toBe(1);
      const [group] = items;
      expect(group.aggregation).toEqual({
        type: 'identity',
        items: [people[0], people[2], people[1]].map((person) => ({ did: person.did, displayName: null })),
        totalCount: 3,
      });
      expect(Date.parse(group.lastActivityAt)).toBeGreaterThan(Date.parse(group.firstActivityAt));
      expect(group.createdAt).toBe(group.firstActivityAt);

      expectStatus(await owner.post(`/notifications/${group.id}/mark-read`), 200);
      tick();
      const late = t.caller();
      expectStatus(await late.post(`/spaces/${id}/join`), 200);
      const after = await list(owner);
      expect(after.totalCount).toBe(2);
      expect(after.items.map((item) => [item.readState, item.aggregation?.totalCount ?? 1])).toEqual([
        ['unread', 1],
        ['read', 3],
      ]);
      expect(after.items[0].aggregation).toBeNull();
      expect(after.items[0].scope.preview.createdBy.did).toBe(late.did);
    });

    it('lists by most recent activity, across spaces, with keyset pages and a spaceDID filter', async () => {
      const owner = t.caller();
      const a = await space(owner, 'open', 'Alpha');
      const b = await space(owner, 'open', 'Beta');
      tick();
      expectStatus(await t.caller().post(`/spaces/${a.id}/join`), 200);
      tick();
      expectStatus(await t.caller().post(`/spaces/${b.id}/join`), 200);
      expect((await list(owner)).items.map((item) => item.space.id)).toEqual([b.id, a.id]);
      tick();
      expectStatus(await t.caller().post(`/spaces/${a.id}/join`), 200);
      const all = await list(owner);
      expect(all.items.map((item) => item.space.id)).toEqual([a.id, b.id]);
      expect(all.totalCount).toBe(2);

      const first = await owner.get('/notifications?limit=1');
      expectStatus(first, 200);
      expect(first.body.items.map((item: NotificationBody) => item.id)).toEqual([all.items[0].id]);
      expect(first.body.totalCount).toBe(2);
      const next = await owner.get(
        `/notifications?limit=1&after=${encodeURIComponent(first.body.nextCursor)}`,
      );
      expect(next.body.items.map((item: NotificationBody) => item.id)).toEqual([all.items[1].id]);
      expect(next.body.nextCursor).toBeNull();

      const onlyB = await list(owner, `?spaceDID=${encodeURIComponent(b.did)}`);
      expect(onlyB.items.map((item) => item.space.id)).toEqual([b.id]);
      expect(onlyB.totalCount).toBe(1);
      const unknownSpace = await list(owner, `?spaceDID=${encodeURIComponent(t.caller().did!)}`);
      expect(unknownSpace).toMatchObject({ items: [], totalCount: 0 });
    });
  });

  describe('status, reading and per-space counts', () => {
    it('status follows the latest activity and unread count', async () => {
      const owner = t.caller();
      const empty = await owner.get('/notifications/status');
      expectStatus(empty, 200);
      expect(empty.body).toEqual({ lastActivityAt: null, lastNotificationId: null, unreadCount: 0 });

      const a = await space(owner, 'open', 'Alpha');
      const b = await space(owner, 'open', 'Beta');
      tick();
      expectStatus(await t.caller().post(`/spaces/${a.id}/join`), 200);
      tick();
      expectStatus(await t.caller().post(`/spaces/${b.id}/join`), 200);
      const { items } = await list(owner);
      const status = await owner.get('/notifications/status');
      expect(status.body).toEqual({
        lastActivityAt: items[0].lastActivityAt,
        lastNotificationId: items[0].id,
        unreadCount: 2,
      });
      expectStatus(await owner.post(`/notifications/${items[1].id}/mark-read`), 200);
      expect((await owner.get('/notifications/status')).body.unreadCount).toBe(1);
    });

    it('mark-read: own only, idempotent; another person’s or a malformed id is the one 404', async () => {
      const { owner, member, id } = await staffedSpace();
      expectStatus(await t.caller().post(`/spaces/${id}/join`), 200);
      const [notification] = (await list(owner)).items.filter((item) => item.readState === 'unread');

      expectNotFound(await member.post(`/notifications/${notification.id}/mark-read`));
      expect((await list(owner)).items.find((item) => item.id === notification.id)!.readState).toBe('unread');

      const read = await owner.post(`/notifications/${notification.id}/mark-read`);
      expectStatus(read, 200);
      expect(read.body).toMatchObject({ id: notification.id, readState: 'read' });
      expect(read.body.lastReadAt).toEqual(expect.any(String));
      tick();
      const again = await owner.post(`/notifications/${notification.id}/mark-read`);
      expectStatus(again, 200);
      expect(again.body).toEqual(read.body);

      for (const bad of [
        `notification_${'0'.repeat(32)}`,
        'notification_123',
        notification.id.toUpperCase(),
        notification.id.replace('notification_', 'post_'),
        notification.id.slice('notification_'.length),
      ]) {
        expectNotFound(await owner.post(`/notifications/${bad}/mark-read`));
      }
    });

    it('mark-all-read, for everything or one space, and GET /spaces/notifications', async () => {
      const owner = t.caller();
      const a = await space(owner, 'open', 'Alpha');
      const b = await space(owner, 'open', 'Beta');
      tick();
      expectStatus(await t.caller().post(`/spaces/${a.id}/join`), 200);
      tick();
      expectStatus(await t.caller().post(`/spaces/${b.id}/join`), 200);
      const banned = t.caller();
      tick();
      expectStatus(await owner.post(`/spaces/${a.id}/members/${banned.did}/bans`, {}), 200);

      const counts = await owner.get('/spaces/notifications');
      expectStatus(counts, 200);
      const items = (await list(owner)).items;
      const lastOf = (spaceId: string) =>
        items.filter((item) => item.space.id === spaceId).map((item) => item.lastActivityAt)[0];
      expect(counts.body).toEqual({
        items: [
          {
            space: { id: b.id, did: b.did, displayName: 'Beta' },
            unreadCount: 1,
            lastNotifiedAt: lastOf(b.id),
          },
          {
            space: { id: a.id, did: a.did, displayName: 'Alpha' },
            unreadCount: 1,
            lastNotifiedAt: lastOf(a.id),
          },
        ],
        totalUnreadCount: 2,
      });
      // The owner banned: an admins-only kind, but the actor is not told of their own act.
      expect(items.map((item) => item.type)).toEqual(['notify.member.joined', 'notify.member.joined']);

      const some = await owner.post('/notifications/mark-all-read', { spaceDID: b.did });
      expectStatus(some, 200);
      expect(some.body).toEqual({ markedCount: 1 });
      expect((await owner.get('/spaces/notifications')).body).toMatchObject({
        items: [{ space: { id: a.id }, unreadCount: 1 }],
        totalUnreadCount: 1,
      });
      expect((await list(owner)).items.map((item) => [item.space.id, item.readState])).toEqual([
        [b.id, 'read'],
        [a.id, 'unread'],
      ]);
      const rest = await owner.post('/notifications/mark-all-read');
      expect(rest.body).toEqual({ markedCount: 1 });
      expect((await owner.get('/notifications/status')).body.unreadCount).toBe(0);
      expect((await owner.get('/spaces/notifications')).body).toEqual({ items: [], totalUnreadCount: 0 });
      expect((await owner.post('/notifications/mark-all-read', {})).body).toEqual({ markedCount: 0 });
    });
  });

  describe('visibility', () => {
    it('hides notifications of spaces the person left, was banned from, or that were deleted', async () => {
      const { owner, admin, member, id } = await staffedSpace();
      expectStatus(await t.caller().post(`/spaces/${id}/join`), 200);
      const [memberNote] = (await list(member)).items.filter((item) => item.readState === 'unread');
      expect(memberNote.type).toBe('notify.member.joined');
      expectStatus(await member.delete(`/spaces/${id}/membership`), 204);
      expect((await list(member)).totalCount).toBe(0);
      expect((await member.get('/notifications/status')).body.unreadCount).toBe(0);
      expectNotFound(await member.post(`/notifications/${memberNote.id}/mark-read`));

      // Demoted: the admins-only kinds disappear, the others stay.
      const stranger = t.caller();
      expectStatus(await owner.post(`/spaces/${id}/members/${stranger.did}/bans`, {}), 200);
      expect((await types(admin)).sort()).toEqual(['notify.member.banned', 'notify.member.joined']);
      expectStatus(await owner.put(`/spaces/${id}/members/${admin.did}`, { role: 'member' }), 200);
      expect((await types(admin)).sort()).toEqual(['notify.member.joined', 'notify.member.role_changed']);

      expectStatus(await owner.delete(`/spaces/${id}`), 204);
      for (const caller of [owner, admin]) {
        expect((await list(caller)).totalCount).toBe(0);
        expect((await caller.get('/spaces/notifications')).body).toEqual({ items: [], totalUnreadCount: 0 });
      }
    });
  });

  describe('input', () => {
    it('bad input is a 400 with details', async () => {
      const caller = t.caller();
      expectInvalid(await caller.get('/notifications?spaceDID=space_123'), 'spaceDID');
      expectInvalid(await caller.get('/notifications?limit=0'), 'limit');
      expectInvalid(await caller.get('/notifications?unknown=1'));
      expectInvalid(await caller.post('/notifications/mark-all-read', { spaceDID: 42 }), 'spaceDID');
      expectInvalid(
        await caller.post('/notifications/mark-all-read', { spaceDID: 'did:plat:nope' }),
        'spaceDID',
      );
      expectInvalid(await caller.post('/notifications/mark-all-read', { other: true }));
    });

    it('every route needs an identity proof', async () => {
      const responses: Response[] = [
        await t.anonymous.get('/notifications'),
        await t.anonymous.get('/notifications/status'),
        await t.anonymous.post(`/notifications/notification_${'0'.repeat(32)}/mark-read`),
        await t.anonymous.post('/notifications/mark-all-read', {}),
        await t.anonymous.get('/spaces/notifications'),
      ];
      expect(responses.map((response) => response.status)).toEqual([401, 401, 401, 401, 401]);
    });
  });
});
