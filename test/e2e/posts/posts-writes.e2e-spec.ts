import { Response } from 'supertest';
import { issueCredential } from '../../../src/protocol/client/credentials';
import { Actor } from '../../support/actors';
import { count, expectNotFound } from '../spaces/support';
import {
  admit,
  bootSpaces,
  expectStatus,
  makePublic,
  newPost,
  newSpace,
  newTopic,
  person,
  SpacesTestApp,
} from './support';

const POST_ID = /^post_[0-9a-f]{32}$/;
const MEDIA = 'media_0190f1a2b3c4d5e6f708192a3b4c5d6e';

describe('post writes and the single post (api-spec.md "Writes", "Post response union")', () => {
  let t: SpacesTestApp;
  let owner: Actor;
  let member: Actor;
  let outsider: Actor;
  let app: Actor;
  let space: { id: string; did: string };
  let publicTopic: string;
  let membersTopic: string;
  let signedInTopic: string;
  let groupTopic: string;

  beforeAll(async () => {
    t = await bootSpaces();
    [owner, member, outsider, app] = await Promise.all([person(t), person(t), person(t), person(t)]);
    expectStatus(await owner.signUp('posts-owner', 'Olive Owner'), 201);
    expectStatus(await member.signUp('posts-member'), 201);
    space = await newSpace(owner, 'Writers');
    await makePublic(owner, space.id);
    await admit(owner, space.id, member);
    publicTopic = await newTopic(owner, space.id, 'General', 'public');
    membersTopic = await newTopic(owner, space.id, 'Members', 'members');
    signedInTopic = await newTopic(owner, space.id, 'Signed in', 'signedIn');
    const group = await owner.post(`/spaces/${space.id}/groups`, { name: 'Crew' });
    expectStatus(group, 201);
    groupTopic = await newTopic(owner, space.id, 'Crew room', { groups: [group.body.id as string] });
  });

  afterAll(() => t?.close());

  it('creates a long post (titled) with the full post shape, and a short one without a title', async () => {
    const response = await owner.post(`/v1/spaces/${space.id}/posts`, {
      topic: publicTopic,
      title: '  Hello World  ',
      body: 'First **words** here.\n\nSee https://example.com/a and https://example.org/b\n<!--fold-->Secret https://below.example',
    });
    expectStatus(response, 201);
    const post = response.body;
    expect(post).toEqual({
      id: expect.stringMatching(POST_ID),
      slug: 'hello-world',
      format: 'long-post',
      title: 'Hello World',
      displayTitle: 'Hello World',
      excerpt: expect.any(String),
      author: { did: owner.did, displayName: 'Olive Owner', username: 'posts-owner' },
      upvoteCount: 0,
      commentCount: 0,
      isPinned: false,
      publishedAt: expect.any(String),
      updatedAt: post.publishedAt,
      canonicalUri: expect.stringMatching(
        /^https:\/\/[a-z0-9-]+\.[^/]+\/post\/hello-world-post_[0-9a-f]{32}$/,
      ),
      protocol: { contentId: expect.any(String), headOpCid: expect.any(String) },
      viewer: { upvoted: false },
      body: 'First **words** here.\n\nSee https://example.com/a and https://example.org/b\n',
      attachments: [],
      bodyMedia: [],
      topics: [{ id: publicTopic, name: 'General' }],
      folded: true,
      links: [
        { url: 'https://example.com/a', title: null, description: null, siteName: null, sortOrder: 0 },
        { url: 'https://example.org/b', title: null, description: null, siteName: null, sortOrder: 1 },
      ],
    });
    expect(post.canonicalUri.endsWith(`/post/hello-world-${post.id}`)).toBe(true);
    expect(post.excerpt).not.toContain('Secret');
    expect(post.excerpt).not.toContain('**');

    const short = await newPost(member, space.id, {
      topic: publicTopic,
      body: 'just a thought',
      title: '   ',
    });
    expect(short).toMatchObject({ format: 'short-post', title: null, displayTitle: 'just a thought' });
    expect(short.author).toEqual({ did: member.did, username: 'posts-member' });
    expect(short).not.toHaveProperty('folded');
    expect(short).not.toHaveProperty('links');
    expect(short.protocol).toEqual({ contentId: expect.any(String), headOpCid: expect.any(String) });
  });

  it('entityLinks resolve links to this service’s space sites and publicly readable posts only', async () => {
    const target = await newPost(owner, space.id, { topic: publicTopic, title: 'Target Post', body: 'x' });
    const hiddenPost = await newPost(owner, space.id, { topic: membersTopic, body: 'members only' });
    const siteUrl = (target.canonicalUri as string).split('/post/')[0];
    const hiddenUrl = `${siteUrl}/post/whatever-${hiddenPost.id}`;
    const body = `See ${siteUrl} and [this](${target.canonicalUri as string}), not ${hiddenUrl} nor https://nowhere${siteUrl.slice(siteUrl.indexOf('.'))}`;
    const post = await newPost(member, space.id, { topic: publicTopic, body });
    expect(post.entityLinks).toEqual([
      { url: siteUrl, label: 'Writers', kind: 'space' },
      { url: target.canonicalUri, label: 'Target Post', kind: 'post' },
    ]);
    const plain = await newPost(member, space.id, { topic: publicTopic, body: 'https://example.com only' });
    expect(plain).not.toHaveProperty('entityLinks');
  });

  it('an author without an account is shown by DID alone, as on comments', async () => {
    const nobody = await person(t);
    await admit(owner, space.id, nobody);
    const post = await newPost(nobody, space.id, { topic: publicTopic, body: 'hi' });
    expect(post.author).toEqual({ did: nobody.did });
  });

  it('refuses invalid posts with 400 details and stores nothing', async () => {
    const before = await count(t.dataSource, 'posts');
    const cases: [Record<string, unknown>, string][] = [
      [{ body: 'no topic' }, 'topic'],
      [{ topic: publicTopic }, 'body'],
      [{ topic: publicTopic, body: '   ' }, 'body'],
      [{ topic: publicTopic, body: 'x'.repeat(100_001) }, 'body'],
      [{ topic: publicTopic, body: 'x', title: 't'.repeat(301) }, 'title'],
      [{ topic: publicTopic, body: 'x', extra: 1 }, 'extra'],
      [{ topic: publicTopic, body: 'x', title: 'Long', attachments: [MEDIA] }, 'attachments.0'],
      [{ topic: publicTopic, body: 'x', title: 'Long', attachments: Array(11).fill(MEDIA) }, 'attachments'],
      [{ topic: publicTopic, body: 'x', attachments: Array(5).fill(MEDIA) }, 'attachments'],
      [{ topic: publicTopic, body: `look ![](attachment://${MEDIA})` }, 'body'],
      [{ topic: publicTopic, title: 'Long', body: `look ![](attachment://${MEDIA})` }, 'body'],
      [{ topic: publicTopic, body: 'nul \u0000 byte' }, 'body'],
      [{ topic: publicTopic, body: 'x', title: 'Nul\u0000' }, 'title'],
    ];
    for (const [body, path] of cases) {
      const response = await owner.post(`/v1/spaces/${space.id}/posts`, body);
      expectStatus(response, 400);
      expect(response.body.code).toBe('E_INVALID_REQUEST');
      expect(response.body.details.map((detail: { path: string }) => detail.path)).toContain(path);
    }
    expect(await count(t.dataSource, 'posts')).toBe(before);
  });

  it('a topic the writer cannot post in is 404; non-members get 403 (public) or 404 (private)', async () => {
    const other = await newSpace(owner, 'Elsewhere');
    const foreignTopic = await newTopic(owner, other.id, 'Foreign', 'public');
    for (const topic of [groupTopic, foreignTopic, 'topic_0190f1a2b3c4d5e6f708192a3b4c5d6e', 'nope']) {
      expectNotFound(await member.post(`/v1/spaces/${space.id}/posts`, { topic, body: 'x' }));
    }
    // admins read group topics, so they post there
    await newPost(owner, space.id, { topic: groupTopic, body: 'crew only' });
    expectStatus(await outsider.post(`/v1/spaces/${space.id}/posts`, { topic: publicTopic, body: 'x' }), 403);
    expectNotFound(await outsider.post(`/v1/spaces/${other.id}/posts`, { topic: foreignTopic, body: 'x' }));
    expectNotFound(
      await outsider.post(`/v1/spaces/space_0190f1a2b3c4d5e6f708192a3b4c5d6e/posts`, {
        topic: publicTopic,
        body: 'x',
      }),
    );
    // a credential without write:posts
    const readOnly = member.grant(app, ['read:posts']);
    expectStatus(
      await app.post(
        `/v1/spaces/${space.id}/posts`,
        { topic: publicTopic, body: 'x' },
        { credential: readOnly },
      ),
      403,
    );
    // writes need the read scope too (api-spec.md "Writes")
    const writeOnly = member.grant(app, ['write:posts']);
    expectStatus(
      await app.post(
        `/v1/spaces/${space.id}/posts`,
        { topic: publicTopic, body: 'x' },
        { credential: writeOnly },
      ),
      403,
    );
    // read:posts granted for another space only does not open writes here
    const elsewhere = (await newSpace(owner, 'Read elsewhere')).did;
    const readElsewhere = issueCredential(member.identity, {
      audience: app.did,
      host: t.config.publicHost,
      att: [
        { resource: `space:${space.did}`, action: 'write:posts' },
        { resource: `space:${elsewhere}`, action: 'read:posts' },
      ],
    }).token;
    expectStatus(
      await app.post(
        `/v1/spaces/${space.id}/posts`,
        { topic: publicTopic, body: 'x' },
        { credential: readElsewhere },
      ),
      403,
    );
    const writer = member.grant(app, ['read:posts', 'write:posts']);
    const viaApp = await newPost(
      app,
      space.id,
      { topic: publicTopic, body: 'via app' },
      { credential: writer },
    );
    expect((viaApp.author as { did: string }).did).toBe(member.did);
  });

  it('a broken or non-covering credential is 403 on a public space and the 404 of a missing space otherwise (items 7, 8)', async () => {
    const hidden = await newSpace(owner, 'Hidden writers');
    await admit(owner, hidden.id, member);
    const hiddenTopic = await newTopic(owner, hidden.id, 'Inside', 'public');
    const hiddenPost = await newPost(owner, hidden.id, { topic: hiddenTopic, body: 'inside' });
    const unknownSpace = 'space_0190f1a2b3c4d5e6f708192a3b4c5d6e';
    const revoked = member.grant(app, ['read:posts', 'write:posts', 'write:comments', 'write:upvotes']);
    await member.revoke(revoked);
    const readOnly = member.grant(app, ['read:posts']);
    const writeAs = (credential: string, spaceId: string, topic: string) =>
      app.post(`/v1/spaces/${spaceId}/posts`, { topic, body: 'x' }, { credential });
    const before = await count(t.dataSource, 'posts');

    for (const credential of [revoked, readOnly]) {
      const refused = await writeAs(credential, space.id, publicTopic);
      expectStatus(refused, 403);
      expect(refused.body.code).toBe('E_FORBIDDEN');
      expectNotFound(await writeAs(credential, hidden.id, hiddenTopic));
      expectNotFound(await writeAs(credential, hidden.did, hiddenTopic));
      expectNotFound(await writeAs(credential, unknownSpace, hiddenTopic));
      expectNotFound(await writeAs(credential, 'no-such-space', hiddenTopic));
    }
    expectNotFound(
      await app.put(`/v1/spaces/${hidden.id}/posts/${hiddenPost.id}/upvote`, {}, { credential: revoked }),
    );
    expectNotFound(
      await app.get(`/v1/spaces/${hidden.id}/posts/${hiddenPost.id}/comments`, { credential: revoked }),
    );
    expectStatus(
      await app.get(`/v1/spaces/${space.id}/posts/${hiddenPost.id}/comments`, { credential: revoked }),
      403,
    );
    expect(await count(t.dataSource, 'posts')).toBe(before);
    // the member's covering grant still writes there
    const covering = member.grant(app, ['read:posts', 'write:posts']);
    expectStatus(await writeAs(covering, hidden.id, hiddenTopic), 201);
  });

  it('PATCH changes only the named fields of the author’s own post; 400 for none; 403 for others’ posts, admins too', async () => {
    const post = await newPost(member, space.id, { topic: publicTopic, body: 'draft one' });
    const path = `/v1/spaces/${space.id}/posts/${post.id}`;
    const none = await member.patch(path, {});
    expectStatus(none, 400);
    expect(Array.isArray(none.body.details)).toBe(true);
    expectStatus(await member.patch(path, { body: null }), 400);
    t.clock.offsetMs += 1000;
    const titled = await member.patch(path, { title: 'Now Titled' });
    expectStatus(titled, 200);
    expect(titled.body).toMatchObject({
      id: post.id,
      format: 'long-post',
      title: 'Now Titled',
      slug: 'now-titled',
      body: 'draft one',
    });
    expect(titled.body.publishedAt).toBe(post.publishedAt);
    expect(titled.body.updatedAt > (post.updatedAt as string)).toBe(true);
    const moved = await member.patch(path, { topic: membersTopic, body: 'second draft', title: null });
    expectStatus(moved, 200);
    expect(moved.body).toMatchObject({
      format: 'short-post',
      title: null,
      body: 'second draft',
      topics: [{ id: membersTopic, name: 'Members' }],
    });
    expectNotFound(await member.patch(path, { topic: groupTopic }));
    expectStatus(await member.patch(path, { attachments: [MEDIA] }), 400);
    expect((await member.patch(path, { attachments: [] })).body.attachments).toEqual([]);

    expectStatus(await owner.patch(path, { body: 'hijack' }), 403);
    expectStatus(await owner.delete(path), 403);
    expectStatus(await outsider.patch(path, { body: 'hijack' }), 403);

    const other = await newSpace(member, 'Mine');
    expectNotFound(await member.patch(`/v1/spaces/${other.id}/posts/${post.id}`, { body: 'x' }));
    expectNotFound(await member.delete(`/v1/spaces/${other.id}/posts/${post.id}`));
  });

  it('DELETE answers {deleted: true}; the post is 404 afterwards', async () => {
    const post = await newPost(member, space.id, { topic: publicTopic, body: 'short lived' });
    const path = `/v1/spaces/${space.id}/posts/${post.id}`;
    expectStatus(await t.anonymous.get(path), 200);
    const deleted = await member.delete(path);
    expectStatus(deleted, 200);
    expect(deleted.body).toEqual({ deleted: true });
    expectNotFound(await t.anonymous.get(path));
    expectNotFound(await member.get(path));
    expectNotFound(await member.patch(path, { body: 'again' }));
    expectNotFound(await member.delete(path));
  });

  describe('the single post union', () => {
    let posts: Record<string, string>;
    const cta = () => ({
      displayName: 'Writers',
      description: 'A place to make things',
      avatarUrl: null,
      domain: expect.any(String),
      joinMode: 'open',
      subscribeEnabled: false,
      memberCountSummary: expect.any(String),
    });

    beforeAll(async () => {
      posts = {
        public: (await newPost(owner, space.id, { topic: publicTopic, body: 'open' })).id,
        signedIn: (await newPost(owner, space.id, { topic: signedInTopic, body: 'signed' })).id,
        members: (await newPost(owner, space.id, { topic: membersTopic, body: 'members' })).id,
        group: (await newPost(owner, space.id, { topic: groupTopic, body: 'crew' })).id,
      };
    });

    const get = (caller: Actor | null, id: string, credential?: string) =>
      caller
        ? caller.get(`/v1/spaces/${space.id}/posts/${id}`, credential ? { credential } : {})
        : t.anonymous.get(`/v1/spaces/${space.id}/posts/${id}`);

    /** An eligible single post read without the member-only `viewer` block. */
    const expectEligibleWithoutViewer = (response: Response, id: string, body: string) => {
      expectStatus(response, 200);
      expect(response.body).toEqual({
        state: 'eligible',
        post: expect.objectContaining({ id, body }),
        space: cta(),
      });
      expect(response.body.post).not.toHaveProperty('viewer');
    };

    it('anonymous: public posts eligible without viewer; others gated with their reason', async () => {
      expectEligibleWithoutViewer(await get(null, posts.public), posts.public, 'open');
      for (const [key, reason] of [
        ['signedIn', 'signIn'],
        ['members', 'spaceMembers'],
        ['group', 'restricted'],
      ]) {
        const gated = await get(null, posts[key]);
        expectStatus(gated, 200);
        expect(gated.body).toEqual({ state: 'gated', reason, space: cta() });
      }
    });

    it('a member reads member topics; a member outside the group sees it restricted', async () => {
      for (const key of ['public', 'signedIn', 'members']) {
        const response = await get(member, posts[key]);
        expect(response.body.state).toBe('eligible');
        expect(response.body.post.viewer).toEqual({ upvoted: false });
      }
      expect((await get(member, posts.group)).body).toEqual({
        state: 'gated',
        reason: 'restricted',
        space: cta(),
      });
      expect((await get(owner, posts.group)).body.state).toBe('eligible');
    });

    it('a signed-in non-member reads signedIn posts (reason signIn); a former member reads the anonymous projection', async () => {
      expectEligibleWithoutViewer(await get(outsider, posts.signedIn), posts.signedIn, 'signed');
      expect((await get(outsider, posts.members)).body).toEqual({
        state: 'gated',
        reason: 'spaceMembers',
        space: cta(),
      });
      const listing = await outsider.get(`/v1/spaces/${space.id}/posts?limit=100`);
      expectStatus(listing, 200);
      const listed = (listing.body.items as { id: string; viewer?: unknown }[]).map((item) => item.id);
      expect(listed).toEqual(expect.arrayContaining([posts.public, posts.signedIn]));
      expect(listed).not.toContain(posts.members);
      const leaver = await person(t);
      await admit(owner, space.id, leaver);
      expect((await get(leaver, posts.members)).body.state).toBe('eligible');
      expectStatus(await leaver.delete(`/spaces/${space.id}/membership`), 204);
      expect((await get(leaver, posts.signedIn)).body).toEqual({
        state: 'gated',
        reason: 'signIn',
        space: cta(),
      });
    });

    it('a non-member, a credential without read:posts and a revoked credential read the anonymous projection', async () => {
      expect((await get(outsider, posts.members)).body.state).toBe('gated');
      const noRead = member.grant(app, ['write:posts']);
      expect((await get(app, posts.members, noRead)).body).toMatchObject({
        state: 'gated',
        reason: 'spaceMembers',
      });
      const read = member.grant(app, ['read:posts']);
      expect((await get(app, posts.members, read)).body.state).toBe('eligible');
      await member.revoke(read);
      const revoked = await get(app, posts.members, read);
      expectStatus(revoked, 200);
      expect(revoked.body).toMatchObject({ state: 'gated', reason: 'spaceMembers' });
    });

    it('404 for another space’s post id, malformed ids, deleted topics, and private spaces for outsiders', async () => {
      const other = await newSpace(owner, 'Other');
      await makePublic(owner, other.id);
      expectNotFound(await t.anonymous.get(`/v1/spaces/${other.id}/posts/${posts.public}`));
      expectNotFound(await t.anonymous.get(`/v1/spaces/${space.id}/posts/nope`));
      expectNotFound(
        await t.anonymous.get(`/v1/spaces/${space.id}/posts/post_0190f1a2b3c4d5e6f708192a3b4c5d6e`),
      );

      const doomed = await newTopic(owner, space.id, 'Doomed', 'public');
      const post = await newPost(owner, space.id, { topic: doomed, body: 'soon gone' });
      expectStatus(await owner.delete(`/spaces/${space.id}/topics/${doomed}`), 204);
      expectNotFound(await t.anonymous.get(`/v1/spaces/${space.id}/posts/${post.id}`));
      expectNotFound(await owner.get(`/v1/spaces/${space.id}/posts/${post.id}`));

      const hidden = await newSpace(owner, 'Hidden');
      const hiddenTopic = await newTopic(owner, hidden.id, 'Open', 'public');
      const secret = await newPost(owner, hidden.id, { topic: hiddenTopic, body: 'private space' });
      const path = `/v1/spaces/${hidden.id}/posts/${secret.id}`;
      expectNotFound(await t.anonymous.get(path));
      expectNotFound(await outsider.get(path));
      expect((await owner.get(path)).body.state).toBe('eligible');
    });
  });
});
