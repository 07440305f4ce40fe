import { createValidationPipe } from '../../../src/common/validation.pipe';
import { AppConfig } from '../../../src/config/app-config';
import { ArchiveRejected } from '../../../src/exports';
import { planOf } from '../../../src/imports/services/space-import-plan';

const AT = '2026-01-01T00:00:00.000Z';
const id = (prefix: string, n: number) => `${prefix}_${String(n).padStart(32, '0')}`;
const pipe = createValidationPipe(new AppConfig());

function archive(
  changes: { space?: object; topics?: object[]; posts?: object[] } = {},
): Map<string, unknown> {
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
    ['pages.json', []],
    [
      'posts.json',
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
      ],
    ],
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
});
