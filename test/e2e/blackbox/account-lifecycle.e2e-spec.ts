import request, { Response } from 'supertest';
import { AccountErasuresService } from '../../../src/account-erasure';
import { Actor, publish } from '../../support/actors';
import { eventually } from '../../support/eventually';
import { legacyImage, pngBytes, spaceUpload } from '../../support/media-uploads';
import { download, unzip } from '../exports/support';
import { bootMedia, MediaTestApp } from '../media/support';
import { admit, makePublic, newSpace, person } from '../memberships/support';
import { newPost, newTopic } from '../posts/support';
import { expectNotFound, expectStatus, NOT_FOUND_TEXT } from '../spaces/support';
import { IdentityState, PLAT, verifyContentChain, verifyIdentityChain } from './chain-verifier';

const DAY_MS = 86_400_000;
type Json = Record<string, unknown>;
const pick = (value: Json, keys: string[]) => Object.fromEntries(keys.map((key) => [key, value[key]]));

/**
 * The independent client issue 35 is checked by: it deletes, restores and erases an account and
 * reads every route afterwards as a stranger and as a former co-member, over HTTP only, and verifies
 * the person's exported chains with its own protocol code (./chain-verifier.ts). Records:
 * docs/decisions/0190 to 0198 (deactivation, erasure) and 0210 to 0214 (exports).
 *
 * A is the subject, B a co-member (owner of the space they share), C a stranger.
 */
describe('black-box account lifecycle: deactivate, restore, erase, export (e2e)', () => {
  let t: MediaTestApp;
  let a: Actor;
  let b: Actor;
  let c: Actor;
  let app: Actor;
  let credential: string;
  let spaceId: string;
  let aIdentityId: string;
  let aPostId: string;
  let bPostId: string;
  let aCommentId: string;
  let bCommentId: string;
  let avatarUrl: string;
  let aProfileContentId: string;
  let aPostContentId: string;
  let attachmentId: string;
  let exportId: string;
  let archive: Map<string, Buffer>;
  /** The export's content chains and the identity states that verify them. */
  let exportedChains: { contentId: string; operations: { cid: string; jwsToken: string }[] }[] = [];
  const identityStates = new Map<string, IdentityState>();
  const clock = () => t.clock.now();
  const HANDLE = 'bb-alice';
  const NAME = 'Alice Quillfeather';

  beforeAll(async () => {
    t = await bootMedia();
    [a, b, c, app] = await Promise.all([person(t), person(t), person(t), person(t)]);
    expectStatus(await b.signUp('bb-bob', 'Bob Marchetti'), 201);
    const account = await a.signUp(HANDLE, NAME);
    expectStatus(account, 201);
    aIdentityId = account.body.id as string;
    expectStatus(await c.signUp('bb-carol', 'Carol'), 201);
    const avatarId = await legacyImage(t, a, 'me.png');
    const profile = await a.patch('/profile', {
      avatarId,
      isPublic: true,
      bio: 'Writes about bridges',
      links: [{ url: 'https://alice.example/', label: 'Site' }],
    });
    expectStatus(profile, 200);
    credential = a.grant(app, ['read:profile']);

    spaceId = (await newSpace(b, 'Bridges')).id;
    await makePublic(b, spaceId);
    await admit(b, spaceId, a);
    const topic = await newTopic(b, spaceId, 'Open', 'public');
    attachmentId = await spaceUpload(t, a, spaceId, {
      filename: 'span.png',
      contentType: 'image/png',
      bytes: await pngBytes(32, 24),
    });
    aPostId = (
      await newPost(a, spaceId, {
        topic,
        title: 'On arches',
        body: 'alice on arches',
        attachments: [attachmentId],
      })
    ).id;
    bPostId = (await newPost(b, spaceId, { topic, body: 'bob on beams' })).id;
    const comment = await a.post(`/v1/spaces/${spaceId}/posts/${bPostId}/comments`, {
      body: 'alice replies',
    });
    expectStatus(comment, 201);
    aCommentId = comment.body.id as string;
    const reply = await b.post(`/v1/spaces/${spaceId}/posts/${aPostId}/comments`, { body: 'bob answers' });
    expectStatus(reply, 201);
    bCommentId = reply.body.id as string;
    expectStatus(
      await b.post(`/spaces/${spaceId}/pages`, {
        title: 'Credits',
        slug: 'credits',
        body: `Thanks [@alice](mention:${aIdentityId}).`,
      }),
      201,
    );
    // The notifications each side gets settle before anything is compared.
    await eventually(
      () => b.get('/notifications'),
      (response) => response.text.includes(a.did),
    );
    await eventually(
      () => a.get('/notifications'),
      (response) => response.text.includes(b.did),
    );
    avatarUrl = (await c.get(`/v1/users/${HANDLE}`)).body.avatarUrl as string;
    // A's public documents on the relay: the profile's and the public post's content chains.
    const aProfile = (await c.get(`/v1/users/${HANDLE}`)).body as {
      protocol: { profile: { contentId: string } };
    };
    aProfileContentId = aProfile.protocol.profile.contentId;
    const aPost = (await c.get(`/v1/spaces/${spaceId}/posts/${aPostId}`)).body as {
      post: { protocol: { contentId: string } };
    };
    aPostContentId = aPost.post.protocol.contentId;
    // Search finds A's post and comment before anything is compared.
    for (const q of ['arches', 'replies']) {
      await eventually(
        () => c.get(`/v1/spaces/${spaceId}/search?q=${q}`),
        (response) => response.status === 200 && (response.body.items as unknown[]).length > 0,
      );
    }
  });

  afterAll(() => t?.close());

  /** Every read route, as the stranger C and the co-member B: status and bytes. */
  async function reads(): Promise<Record<string, Response>> {
    const routes: Record<string, () => Promise<Response>> = {};
    for (const [who, actor] of [
      ['C', c],
      ['B', b],
    ] as const) {
      Object.assign(routes, {
        [`${who} profileByHandle`]: () => actor.get(`/v1/users/${HANDLE}`),
        [`${who} profileByDid`]: () => actor.get(`/v1/users/${a.did}`),
        [`${who} profileById`]: () => actor.get(`/v1/users/${aIdentityId}`),
        [`${who} profileSpaces`]: () => actor.get(`/v1/users/${HANDLE}/spaces`),
        [`${who} directory`]: () => actor.get('/v1/users'),
        [`${who} posts`]: () => actor.get(`/v1/spaces/${spaceId}/posts`),
        [`${who} aPost`]: () => actor.get(`/v1/spaces/${spaceId}/posts/${aPostId}`),
        [`${who} bPost`]: () => actor.get(`/v1/spaces/${spaceId}/posts/${bPostId}`),
        [`${who} commentsOnB`]: () => actor.get(`/v1/spaces/${spaceId}/posts/${bPostId}/comments`),
        [`${who} commentsOnA`]: () => actor.get(`/v1/spaces/${spaceId}/posts/${aPostId}/comments`),
        [`${who} page`]: () => actor.get(`/v1/spaces/${spaceId}/pages/credits`),
        [`${who} space`]: () => actor.get(`/v1/spaces/${spaceId}`),
        [`${who} searchPost`]: () => actor.get(`/v1/spaces/${spaceId}/search?q=arches`),
        [`${who} searchComment`]: () => actor.get(`/v1/spaces/${spaceId}/search?q=replies`),
      });
    }
    // The relay, as anyone reads it: A's identity index entry, A's profile and post documents.
    Object.assign(routes, {
      'relay identityIndex': () => c.get(`/relay/index/v0/identities?did=${a.did}`),
      'relay profileBlob': () => c.get(`/relay/content/${aProfileContentId}/blob`),
      'relay postBlob': () => c.get(`/relay/content/${aPostContentId}/blob`),
    });
    Object.assign(routes, {
      'B members': () => b.get(`/spaces/${spaceId}/members`),
      'B feed': () => b.get('/v1/feed'),
      // Search across one's spaces: a stranger has none.
      'B searchAll': () => b.get('/v1/search?q=arches'),
      'B notifications': () => b.get('/notifications'),
      'app credential': () => app.get('/v1/profile', { credential }),
    });
    const answers: Record<string, Response> = {};
    for (const [name, call] of Object.entries(routes)) answers[name] = await call();
    return answers;
  }

  const json = (response: { text: string }) => JSON.parse(response.text) as Json;
  const items = (response: { text: string }) => json(response).items as Json[];
  const PROFILE_ROUTES = ['profileByHandle', 'profileByDid', 'profileById', 'profileSpaces'];

  /**
   * What a deactivated A looks like from every route, derived from the reads before: the profile
   * the constant 404 byte for byte, left out of the directory and the members, a post's author
   * null, a comment's only {did}, the mention plain text, A's credential refused. Everything else
   * as it was.
   */
  function expectHidden(before: Record<string, Response>, after: Record<string, Response>): void {
    const postHidden = (post: Json) =>
      (post.author as Json | null)?.did === a.did ? { ...post, author: null } : post;
    const commentHidden = (comment: Json) =>
      (comment.author as Json | null)?.did === a.did ? { ...comment, author: { did: a.did } } : comment;
    for (const who of ['C', 'B']) {
      const at = (name: string) => [after[`${who} ${name}`], before[`${who} ${name}`]] as const;
      for (const name of PROFILE_ROUTES) {
        expectNotFound(after[`${who} ${name}`]);
        expect(after[`${who} ${name}`].text).toBe(NOT_FOUND_TEXT);
      }
      const [directory, directoryBefore] = at('directory');
      expect(items(directory)).toEqual(items(directoryBefore).filter((user) => user.did !== a.did));
      const [posts, postsBefore] = at('posts');
      expect(json(posts)).toEqual({ ...json(postsBefore), items: items(postsBefore).map(postHidden) });
      const [aPost, aPostBefore] = at('aPost');
      expect(json(aPost)).toEqual({ ...json(aPostBefore), post: postHidden(json(aPostBefore).post as Json) });
      expect((json(aPost).post as Json).author).toBeNull();
      expect(at('bPost')[0].text).toBe(at('bPost')[1].text);
      const [onB, onBBefore] = at('commentsOnB');
      expect(json(onB)).toEqual({ ...json(onBBefore), items: items(onBBefore).map(commentHidden) });
      expect(items(onB).find((comment) => comment.id === aCommentId)?.author).toEqual({ did: a.did });
      expect(at('commentsOnA')[0].text).toBe(at('commentsOnA')[1].text);
      expect(json(at('page')[0]).body).toBe('Thanks @alice.');
      expect(json(at('page')[0])).toEqual({ ...json(at('page')[1]), body: 'Thanks @alice.' });
      expect(at('space')[0].text).toBe(at('space')[1].text);
      const hit = (result: Json) => ({
        ...result,
        item:
          result.type === 'comment' ? commentHidden(result.item as Json) : postHidden(result.item as Json),
      });
      for (const name of ['searchPost', 'searchComment', ...(who === 'B' ? ['searchAll'] : [])]) {
        const [found, foundBefore] = at(name);
        expect([who, name, items(foundBefore).length > 0]).toEqual([who, name, true]);
        expect(json(found)).toEqual({ ...json(foundBefore), items: items(foundBefore).map(hit) });
      }
      // Nothing of A's profile anywhere: handle, name, identity id, avatar.
      for (const [name, response] of Object.entries(after)) {
        if (!name.startsWith(who) || name.endsWith('notifications')) continue;
        for (const secret of [HANDLE, NAME, aIdentityId, avatarUrl]) {
          expect([name, response.text.includes(secret)]).toEqual([name, false]);
        }
      }
    }
    expect(items(after['B members'])).toEqual(
      items(before['B members']).filter((member) => JSON.stringify(member).indexOf(a.did) < 0),
    );
    expect(items(after['B members']).length).toBe(items(before['B members']).length - 1);
    expect(json(after['B feed'])).toEqual({
      ...json(before['B feed']),
      items: items(before['B feed']).map((post) =>
        (post.author as Json | null)?.did === a.did ? { ...post, author: null } : post,
      ),
    });
    // The relay serves A's profile document to nobody, and its index names A nowhere (0223). The
    // post's document stays, as the post does: it credits A's DID, as a comment shows `{did}`.
    expect(before['relay profileBlob'].text).toContain(NAME);
    expect(after['relay profileBlob'].text).toBe(NOT_FOUND_TEXT);
    expect(after['relay postBlob'].text).toBe(before['relay postBlob'].text);
    const identityRow = (response: Response) => (json(response).identities as Json[])[0];
    expect((identityRow(after['relay identityIndex']).profile as Json | null)?.name ?? null).toBeNull();
    for (const secret of [HANDLE, NAME]) {
      expect(after['relay identityIndex'].text.includes(secret)).toBe(false);
    }
    // Notifications written before keep the name they were written with (0190 "Consequences").
    expect(after['B notifications'].text).toBe(before['B notifications'].text);
    expect(after['app credential'].status).toBe(403);
  }

  /** Everything back exactly: byte for byte, but for the identity head the profile names. */
  function expectSame(before: Record<string, Response>, after: Record<string, Response>): void {
    const headOf = (response: Response) =>
      (json(response).protocol as { headOpCid: string } | undefined)?.headOpCid;
    // The identity index row names the identity's head, which the delete and restore moved on.
    const identityRow = (response: Response) => {
      const { headCID, opCount, headAt, ...rest } = (json(response).identities as Json[])[0];
      return [typeof headCID, typeof opCount, typeof headAt, rest];
    };
    expect(identityRow(after['relay identityIndex'])).toEqual(identityRow(before['relay identityIndex']));
    for (const name of Object.keys(before)) {
      if (name === 'relay identityIndex') continue;
      const head = headOf(before[name]);
      const text = (response: Response) =>
        head && headOf(response) ? response.text.replace(headOf(response)!, head) : response.text;
      expect({ name, status: after[name].status, text: text(after[name]) }).toEqual({
        name,
        status: before[name].status,
        text: text(before[name]),
      });
    }
  }

  let original: Record<string, Response>;
  let restored: Record<string, Response>;

  it('reads every route as the stranger and the co-member while A is active', async () => {
    original = await reads();
    for (const [name, response] of Object.entries(original)) {
      expect([name, response.status]).toEqual([name, 200]);
    }
    const named = { did: a.did, displayName: NAME, username: HANDLE, avatarUrl };
    expect(items(original['C posts']).find((post) => post.id === aPostId)?.author).toEqual(named);
    expect(json(original['C page']).body).toBe(`Thanks [@alice](mention:${aIdentityId}).`);
    expect(items(original['C commentsOnA']).map((comment) => comment.id)).toEqual([bCommentId]);
    expect(original['B members'].text).toContain(a.did);
    expect(original['C directory'].text).toContain(a.did);
    expect(avatarUrl).toEqual(expect.any(String));
    expectStatus(await request(t.http).get(new URL(avatarUrl).pathname + new URL(avatarUrl).search), 200);
  });

  it('an identity delete through the relay hides A from every route; its restore brings every byte back', async () => {
    await publish(t, [a.identity.delete({ clock }).jws]);
    const hidden = await reads();
    expectHidden(original, hidden);
    expect((await a.get('/v1/profile')).status).toBe(401);
    // The relay, read by anyone, says the identity is deleted.
    const state = await c.get(`/relay/proof/v1/identities/${a.did}`);
    expectStatus(state, 200);
    expect(state.body.state.isDeleted).toBe(true);

    await publish(t, [a.identity.restore({ clock }).jws]);
    expect((await c.get(`/relay/proof/v1/identities/${a.did}`)).body.state.isDeleted).toBe(false);
    restored = await reads();
    expectSame(original, restored);
    expectStatus(await a.get('/v1/profile'), 200);
  });

  it('DELETE /profile hides A the same way while pending; POST /profile/restore brings every byte back', async () => {
    expectStatus(await a.send('DELETE', '/profile', { confirmHandle: HANDLE }), 202);
    expectHidden(restored, await reads());
    expectStatus(await a.post('/profile/restore', {}), 204);
    expectSame(restored, await reads());
  });

  it('A’s personal export: its chains verify with the client’s own protocol code', async () => {
    const started = await a.post('/v1/exports');
    expectStatus(started, 202);
    exportId = started.body.id as string;
    const ready = await eventually(
      () => a.get(`/v1/exports/${exportId}`),
      (response) => response.body.state === 'ready' || response.body.state === 'failed',
      60_000,
    );
    expect(ready.body.state).toBe('ready');
    const zip = await download(t, ready.body.url as string);
    expectStatus(zip, 200);
    archive = await unzip(zip.body as Buffer);
    const file = <T>(path: string) => JSON.parse(archive.get(path)!.toString()) as T;

    type Chain = { did: string; operations: { cid: string; jwsToken: string }[] };
    const identity = file<Chain>('chains/identity.json');
    const signers = file<Chain[]>('chains/signers.json');
    const tokens = (chain: Chain) => chain.operations.map((op) => op.jwsToken);
    const own = verifyIdentityChain(tokens(identity), a.did, PLAT);
    // Genesis, the delete and the restore this walk published.
    expect([own.did, own.isDeleted, own.length]).toEqual([a.did, false, 3]);
    expect(own.headCid).toBe(identity.operations[identity.operations.length - 1].cid);
    expect(own.headCid).toBe(a.identity.headCid);
    const states = identityStates;
    states.set(a.did, own);
    for (const signer of signers)
      states.set(signer.did, verifyIdentityChain(tokens(signer), signer.did, PLAT));
    // The same chain the relay serves to anyone.
    const log = await c.get(`/relay/proof/v1/identities/${a.did}/log`);
    expectStatus(log, 200);
    expect(
      verifyIdentityChain(
        (log.body.entries as { jwsToken: string }[]).map((e) => e.jwsToken),
        a.did,
        PLAT,
      ),
    ).toEqual(own);

    const content = file<
      {
        contentId: string;
        genesisCid: string;
        headCid: string;
        isDeleted: boolean;
        operations: { cid: string; jwsToken: string }[];
      }[]
    >('chains/content.json');
    expect(content.length).toBeGreaterThan(0);
    exportedChains = content;
    for (const chain of content) {
      const verified = verifyContentChain(
        chain.operations.map((op) => op.jwsToken),
        (did) => states.get(did),
        PLAT,
      );
      expect(verified).toMatchObject({
        contentId: chain.contentId,
        genesisCid: chain.genesisCid,
        headCid: chain.headCid,
        isDeleted: chain.isDeleted,
      });
      expect(chain.operations.map((op) => op.cid)).toContain(verified.headCid);
    }
    // Every post of A that has a chain names one of these chains.
    const posts = file<Json[]>('posts.json');
    for (const post of posts.filter((row) => typeof row.contentId === 'string')) {
      expect(content.map((chain) => chain.contentId)).toContain(post.contentId);
    }
  });

  it('A’s exported files say what A’s own reads say', async () => {
    const file = <T>(path: string) => JSON.parse(archive.get(path)!.toString()) as T;
    const own = await a.get('/v1/profile');
    expectStatus(own, 200);
    const profile = file<Json>('profile.json');
    const compared = Object.keys(profile).filter((key) => key in own.body);
    expect(compared).toEqual(expect.arrayContaining(['id', 'did', 'handle', 'displayName', 'bio', 'links']));
    expect(pick(profile, compared)).toEqual(pick(own.body as Json, compared));
    const posts = file<Json[]>('posts.json');
    expect(posts.map((post) => post.id)).toEqual([aPostId]);
    const post = json(await a.get(`/v1/spaces/${spaceId}/posts/${aPostId}`)).post as Json;
    const postKeys = Object.keys(posts[0]).filter((key) => key in post);
    expect(postKeys).toEqual(expect.arrayContaining(['id', 'title', 'body']));
    expect(pick(posts[0], postKeys)).toEqual(pick(post, postKeys));
    expect(posts[0].attachmentIds).toEqual((post.attachments as Json[]).map((media) => media.id));
    const comments = file<Json[]>('comments.json');
    const shown = items(await a.get(`/v1/spaces/${spaceId}/posts/${bPostId}/comments`)).find(
      (comment) => comment.id === aCommentId,
    )!;
    expect(comments.map((comment) => comment.id)).toEqual([aCommentId]);
    const commentKeys = Object.keys(comments[0]).filter((key) => key in shown && key !== 'author');
    expect(commentKeys).toEqual(expect.arrayContaining(['id', 'body']));
    expect(pick(comments[0], commentKeys)).toEqual(pick(shown, commentKeys));
    expect((comments[0].author as Json).did).toBe(a.did);
    const memberships = file<{ space: { id: string }; role: string; status: string }[]>('memberships.json');
    const mine = items(await a.get('/v1/memberships'));
    expect(memberships.map((row) => row.space.id).sort()).toEqual(
      mine.map((row) => (row.space as Json).id as string).sort(),
    );
    const notifications = file<Json[]>('notifications.json');
    const inbox = items(await a.get('/notifications'));
    expect(notifications.map((row) => row.id).sort()).toEqual(inbox.map((row) => row.id).sort());
    const media = file<{ id: string; path: string }[]>('media.json');
    expect(media.map((row) => row.id).sort()).toContain(attachmentId);
    for (const row of media) expect(archive.has(row.path)).toBe(true);
  });

  it('erasure to completion: reads show only the tombstones the records keep; the handle is free; the export is gone', async () => {
    const exportUrl = (await a.get(`/v1/exports/${exportId}`)).body.url as string;
    expectStatus(await a.send('DELETE', '/profile', { confirmHandle: HANDLE }), 202);
    t.clock.offsetMs += 31 * DAY_MS;
    expect(await t.app.get(AccountErasuresService).sweep()).toEqual({ erased: 1, failed: 0 });
    const after = await reads();
    for (const who of ['C', 'B']) {
      const at = (name: string) => after[`${who} ${name}`];
      for (const name of [...PROFILE_ROUTES, 'aPost', 'commentsOnA']) expectNotFound(at(name));
      expect(at('directory').text).not.toContain(a.did);
      expect(items(at('posts')).map((post) => post.id)).toEqual(
        items(original[`${who} posts`])
          .map((post) => post.id)
          .filter((id) => id !== aPostId),
      );
      // A's comment: a tombstone, only {did}, no body; the rest of B's thread as it was.
      const tombstone = items(at('commentsOnB')).find((comment) => comment.id === aCommentId);
      expect(tombstone).toMatchObject({ author: { did: a.did }, body: null, attachments: [] });
      expect(json(at('page')).body).toBe('Thanks @alice.');
      expect(items(at('searchPost'))).toEqual([]);
      expect(items(at('searchComment'))).toEqual([]);
      for (const [name, response] of Object.entries(after)) {
        if (!name.startsWith(who)) continue;
        for (const secret of [HANDLE, NAME, aIdentityId, 'alice on arches', 'alice replies', 'On arches']) {
          expect([name, response.text.includes(secret)]).toEqual([name, false]);
        }
      }
    }
    expect(after['B members'].text).not.toContain(a.did);
    expect(items(after['B searchAll'])).toEqual([]);
    expect(after['B notifications'].text).not.toContain(a.did);
    expect(after['B feed'].text).not.toContain(aPostId);
    // The credential A issued: its issuer has no account any more.
    expect(after['app credential'].status).toBe(403);
    // A's avatar and attachment: no longer served.
    await eventually(
      () => request(t.http).get(new URL(avatarUrl).pathname + new URL(avatarUrl).search),
      (response) => response.status === 404,
    );
    // The export: its archive is gone even by its signed URL, and A has no account to ask with.
    const gone = await download(t, exportUrl);
    expect([403, 404]).toContain(gone.status);
    expect((await a.get(`/v1/exports/${exportId}`)).status).not.toBe(200);
    // The relay keeps the operation logs, which still verify.
    const log = await c.get(`/relay/proof/v1/identities/${a.did}/log`);
    expectStatus(log, 200);
    expect(
      verifyIdentityChain(
        (log.body.entries as { jwsToken: string }[]).map((e) => e.jwsToken),
        a.did,
        PLAT,
      ).length,
    ).toBe(3);
    // A's content chains: the relay keeps their operations, which verify, and ends each with a
    // delete; their documents are gone (0196: "the relay deletes the document, keeps the operations").
    for (const chain of exportedChains) {
      const served = await c.get(`/relay/proof/v1/content/${chain.contentId}/log`);
      expectStatus(served, 200);
      const tokens = (served.body.entries as { jwsToken: string }[]).map((e) => e.jwsToken);
      expect(tokens.slice(0, chain.operations.length)).toEqual(chain.operations.map((op) => op.jwsToken));
      const verified = verifyContentChain(tokens, (did) => identityStates.get(did), PLAT);
      expect([chain.contentId, verified.isDeleted]).toEqual([chain.contentId, true]);
      const blob = await c.get(`/relay/content/${chain.contentId}/blob`);
      expect([chain.contentId, blob.status]).toEqual([chain.contentId, 404]);
      expect(blob.text).not.toContain('alice on arches');
    }
    // The handle is free: someone else takes it, and it names them.
    const d = await person(t);
    expectStatus(await d.signUp(HANDLE, 'Dana'), 201);
    expectStatus(await d.patch('/profile', { isPublic: true }), 200);
    const taken = await c.get(`/v1/users/${HANDLE}`);
    expectStatus(taken, 200);
    expect(taken.body.did).toBe(d.did);
    expect(taken.text).not.toContain(a.did);
  });
});
