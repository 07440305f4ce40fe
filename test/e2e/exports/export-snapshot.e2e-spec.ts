import { PostExportService } from '../../../src/posts';
import { Actor } from '../../support/actors';
import { eventually } from '../../support/eventually';
import { makePublic, newSpace, person } from '../memberships/support';
import { newPost, newTopic } from '../posts/support';
import { bootSpaces, expectStatus, SpacesTestApp } from '../spaces/support';
import { download, exportedSpace, unzip } from './support';

type Json = Record<string, unknown>;

/**
 * An export reads one snapshot (docs/decisions/0238-an-export-reads-one-snapshot.md): what the
 * person writes while the archive is being built is in none of its files, though the files read
 * after the write would see it otherwise (comments.json after posts.json).
 */
describe('an export reads one snapshot (e2e)', () => {
  let t: SpacesTestApp;
  let owner: Actor;
  let spaceId: string;
  let topic: string;
  let postId: string;

  beforeAll(async () => {
    t = await bootSpaces();
    owner = await person(t);
    expectStatus(await owner.signUp('snapshot-owner', 'Owner'), 201);
    spaceId = (await newSpace(owner, 'Snapshots')).id;
    await makePublic(owner, spaceId);
    topic = await newTopic(owner, spaceId, 'Open', 'public');
    postId = (await newPost(owner, spaceId, { topic, body: 'before the export' })).id;
  });

  afterAll(() => t?.close());

  /**
   * While the build reads its first page of posts, the owner comments on their post and writes a
   * new one, through the API; then the page is read.
   */
  async function writingMidBuild(method: 'pageOf' | 'pageOfSpace', build: () => Promise<Buffer>) {
    const posts = t.app.get(PostExportService);
    const original = posts[method].bind(posts) as (...args: unknown[]) => Promise<unknown>;
    const written: { commentId?: string; postId?: string } = {};
    const spy = jest.spyOn(posts, method).mockImplementation((async (...args: unknown[]) => {
      if (!written.commentId) {
        const comment = await owner.post(`/v1/spaces/${spaceId}/posts/${postId}/comments`, {
          body: `mid-build ${method}`,
        });
        expectStatus(comment, 201);
        written.commentId = comment.body.id as string;
        written.postId = (await newPost(owner, spaceId, { topic, body: `mid-build ${method}` })).id;
      }
      return original(...args);
    }) as never);
    try {
      const files = await unzip(await build());
      expect(written.commentId).toBeDefined();
      return { files, written };
    } finally {
      spy.mockRestore();
    }
  }

  const json = (files: Map<string, Buffer>, path: string) =>
    JSON.parse(files.get(path)!.toString()) as Json[];

  function expectStateBeforeTheWrites(files: Map<string, Buffer>) {
    const posts = json(files, 'posts.json');
    expect(posts.map((post) => post.id)).toEqual([postId]);
    expect(posts[0].commentCount).toBe(0);
    expect(json(files, 'comments.json')).toEqual([]);
    // chains/ agrees with posts.json: the chains of its posts (and of the profile), no other.
    const profile = JSON.parse(files.get('profile.json')!.toString()) as {
      protocol?: { profile?: { contentId: string } };
    };
    const listed = new Set([...posts.map((post) => post.contentId), profile.protocol?.profile?.contentId]);
    const chains = json(files, 'chains/content.json').map((chain) => chain.contentId);
    expect(chains.filter((id) => !listed.has(id as string))).toEqual([]);
    for (const post of posts) expect(chains).toContain(post.contentId);
  }

  it('a personal export leaves out what the person writes while it is built', async () => {
    const { files, written } = await writingMidBuild('pageOf', async () => {
      const started = await owner.post('/v1/exports');
      expectStatus(started, 202);
      const ready = await eventually(
        () => owner.get(`/v1/exports/${started.body.id as string}`),
        (response) => response.body.state === 'ready' || response.body.state === 'failed',
        60_000,
      );
      expect(ready.body.state).toBe('ready');
      return (await download(t, ready.body.url as string)).body as Buffer;
    });
    expectStateBeforeTheWrites(files);
    // The writes themselves went through.
    expectStatus(await owner.get(`/v1/spaces/${spaceId}/posts/${written.postId}`), 200);
  });

  it('a space export leaves out what is written while it is built', async () => {
    const { files, written } = await writingMidBuild('pageOfSpace', () => exportedSpace(t, owner, spaceId));
    const posts = json(files, 'posts.json');
    // The personal test's writes came before this export: they are in it, this one's are not.
    expect(posts).toHaveLength(2);
    expect(posts.map((post) => post.id)).not.toContain(written.postId);
    expect(posts.find((post) => post.id === postId)?.commentCount).toBe(1);
    const comments = json(files, 'comments.json').map((comment) => comment.id);
    expect(comments).toHaveLength(1);
    expect(comments).not.toContain(written.commentId);
  });
});
