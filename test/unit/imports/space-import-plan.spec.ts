import { createValidationPipe } from '../../../src/common/validation.pipe';
import { AppConfig } from '../../../src/config/app-config';
import { ArchiveRejected } from '../../../src/exports';
import { planOf } from '../../../src/imports/services/space-import-plan';

const AT = '2026-01-01T00:00:00.000Z';
const id = (prefix: string, n: number) => `${prefix}_${String(n).padStart(32, '0')}`;
const pipe = createValidationPipe(new AppConfig());

function archive(
  changes: { space?: object; topics?: object[]; pages?: object[]; posts?: object[]; media?: object[] } = {},
): Map<string, unknown> {
  const posts = (
    changes.posts ?? [
      {
        id: id('post', 2),
        topicId: id('topic', 1),
        title: null,
        body: 'second',
        publishedAt: '2026-01-02T00:00:00.000Z',
      },
      { id: id('post', 1), topicId: id('topic', 1), title: 'First', body: 'first', publishedAt: AT },
      { id: id('post', 3), topicId: id('topic', 2), title: null, body: 'circle only', publishedAt: AT },
    ]
  ).map((post) => ({ attachmentIds: [], ...post }));
  return new Map<string, unknown>([
    [
      'space.json',
      {
        displayName: 'Source',
        description: null,
        isPublic: true,
        joinMode: 'open',
        siteMode: 'join',
        subscribeEnabled: false,
        category: null,
        discoveryOptIn: false,
        links: [],
        ...changes.space,
      },
    ],
    [
      'topics.json',
      changes.topics ?? [
        { id: id('topic', 1), name: 'Open', description: null, access: 'public' },
        { id: id('topic', 2), name: 'Circle', description: null, access: { groups: [id('group', 1)] } },
      ],
    ],
    ['pages.json', changes.pages ?? []],
    ['posts.json', posts],
    ...(changes.media ? [['media.json', changes.media] as [string, unknown]] : []),
  ]);
}

/** What an import writes of an archive (docs/decisions/0222-what-a-space-import-carries.md). */
describe('space import plan', () => {
  it('leaves out group topics and their posts, and orders the posts oldest first', async () => {
    const plan = await planOf(archive(), pipe);
    expect(plan.topics.map((topic) => topic.request.name)).toEqual(['Open']);
    expect(plan.posts.map((post) => post.body)).toEqual(['first', 'second']);
    expect(plan.posts.map((post) => post.title ?? null)).toEqual(['First', null]);
    expect(plan.publicConfig).toMatchObject({ isPublic: true, joinMode: 'open' });
  });

  it('imports a paid or allowlist space as closed, and leaves a private closed one as created', async () => {
    for (const joinMode of ['paid', 'allowlist']) {
      const plan = await planOf(archive({ space: { joinMode } }), pipe);
      expect([joinMode, plan.publicConfig]).toEqual([
        joinMode,
        expect.objectContaining({ isPublic: true, joinMode: 'closed' }),
      ]);
    }
    expect(
      (await planOf(archive({ space: { isPublic: false, joinMode: 'closed' } }), pipe)).publicConfig,
    ).toBeNull();
  });

  it('refuses a record the route would refuse, naming the file and the record', async () => {
    const long = archive({
      topics: [{ id: id('topic', 1), name: 'x'.repeat(500), description: null, access: 'public' }],
    });
    const error = await planOf(long, pipe).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ArchiveRejected);
    expect((error as Error).message).toMatch(/^topics\.json\/0: name /);
  });

  /** Media (docs/decisions/0231-a-space-import-copies-its-media.md). */
  const file = (n: number, filename: string, contentType: string) => ({
    id: id('media', n),
    filename,
    contentType,
    kind: contentType.split('/')[0] === 'application' ? 'file' : contentType.split('/')[0],
    size: 10,
    path: `media/${id('media', n)}/${filename}`,
  });
  const media = [
    file(1, 'logo.png', 'image/png'),
    file(2, 'notes.txt', 'text/plain'),
    file(3, 'song.mp3', 'audio/mpeg'),
  ];
  const post = (fields: object) => ({
    id: id('post', 9),
    topicId: id('topic', 1),
    title: 'With media',
    body: 'text',
    publishedAt: AT,
    ...fields,
  });
  const refusal = async (changes: Parameters<typeof archive>[0]) =>
    ((await planOf(archive(changes), pipe).catch((thrown: unknown) => thrown)) as Error).message;

  it('copies images and files, leaves audio and video out, and keeps the references it copies', async () => {
    const plan = await planOf(
      archive({
        media,
        space: { avatarId: id('media', 1), bannerId: id('media', 7) },
        pages: [
          {
            slug: 'about',
            title: 'About',
            body: `see attachment://${id('media', 1)}`,
            coverId: id('media', 8),
            sortOrder: 0,
            enabled: true,
          },
        ],
        posts: [post({ attachmentIds: [id('media', 2), id('media', 1)] })],
      }),
      pipe,
    );
    expect(plan.media.map((planned) => [planned.archiveId, planned.path, planned.index])).toEqual([
      [id('media', 1), media[0].path, 0],
      [id('media', 2), media[1].path, 1],
    ]);
    expect(plan.media[1].mint).toMatchObject({
      filename: 'notes.txt',
      contentType: 'text/plain',
      contentLength: 10,
    });
    // The banner and the cover are not in the archive (another space's, or legacy uploads): left out.
    expect(plan.images).toEqual({ avatarId: id('media', 1) });
    expect(plan.pages[0].coverId).toBeUndefined();
    expect(plan.posts[0].attachments).toEqual([id('media', 2), id('media', 1)]);
  });

  it('refuses an attachment or inline image it cannot copy, and a file record the mint refuses', async () => {
    expect(await refusal({ media, posts: [post({ attachmentIds: [id('media', 3)] })] })).toBe(
      `posts.json/0: ${id('media', 3)} is audio, not imported`,
    );
    expect(await refusal({ media, posts: [post({ attachmentIds: [id('media', 5)] })] })).toBe(
      `posts.json/0: ${id('media', 5)} is not in media.json`,
    );
    expect(await refusal({ media, posts: [post({ body: `![x](attachment://${id('media', 2)})` })] })).toBe(
      `posts.json/0: ${id('media', 2)} is not an image`,
    );
    expect(await refusal({ media, space: { avatarId: id('media', 2) } })).toBe(
      `space.json: ${id('media', 2)} is not an image`,
    );
    expect(await refusal({ media: [file(1, 'logo.png', 'image/x-unknown')] })).toMatch(
      /^media\.json\/0: contentType /,
    );
    expect(await refusal({ media: [file(1, 'a.png', 'image/png'), file(1, 'b.png', 'image/png')] })).toBe(
      `media.json/1: ${id('media', 1)} appears twice`,
    );
  });
});
