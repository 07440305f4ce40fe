import { createValidationPipe } from '../../../src/common/validation.pipe';
import { AppConfig } from '../../../src/config/app-config';
import { ArchiveRejected } from '../../../src/exports';
import { planOf } from '../../../src/imports/services/space-import-plan';

const AT = '2026-01-01T00:00:00.000Z';
const id = (prefix: string, n: number) => `${prefix}_${String(n).padStart(32, '0')}`;
const pipe = createValidationPipe(new AppConfig());

function archive(
  changes: {
    space?: object;
    topics?: object[];
    pages?: object[];
    posts?: object[];
    media?: object[];
    store?: { products: object[]; releases: object[]; events: object[] };
  } = {},
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
    ...(changes.store
      ? ([
          ['products.json', changes.store.products],
          ['releases.json', changes.store.releases],
          ['events.json', changes.store.events],
        ] as [string, unknown][])
      : []),
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

  it('copies images, files, audio and video, and keeps the references it copies', async () => {
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
        posts: [post({ attachmentIds: [id('media', 2), id('media', 1), id('media', 3)] })],
      }),
      pipe,
    );
    expect(plan.media.map((planned) => [planned.archiveId, planned.path, planned.index])).toEqual([
      [id('media', 1), media[0].path, 0],
      [id('media', 2), media[1].path, 1],
      [id('media', 3), media[2].path, 2],
    ]);
    expect(plan.media[1].mint).toMatchObject({
      filename: 'notes.txt',
      contentType: 'text/plain',
      contentLength: 10,
    });
    // The banner and the cover are not in the archive (another space's, or legacy uploads): left out.
    expect(plan.images).toEqual({ avatarId: id('media', 1) });
    expect(plan.pages[0].coverId).toBeUndefined();
    expect(plan.posts[0].attachments).toEqual([id('media', 2), id('media', 1), id('media', 3)]);
  });

  it('refuses an attachment or inline image it cannot copy, and a file record the mint refuses', async () => {
    // Audio attaches (it is copied), but neither stands for an image.
    expect(await refusal({ media, posts: [post({ body: `![x](attachment://${id('media', 3)})` })] })).toBe(
      `posts.json/0: ${id('media', 3)} is not an image`,
    );
    expect(await refusal({ media, space: { bannerId: id('media', 3) } })).toBe(
      `space.json: ${id('media', 3)} is not an image`,
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

  /** Events and the store (docs/decisions/0232-space-import-events-and-the-store.md). */
  const product = {
    id: id('product', 1),
    slug: 'record',
    name: 'Record',
    description: null,
    coverId: id('media', 9),
    sortOrder: 0,
    prices: [
      { id: id('price', 1), type: 'one-time', currency: 'EUR', amount: 1200, archived: false },
      {
        id: id('price', 2),
        type: 'recurring',
        currency: 'EUR',
        amount: 300,
        interval: 'month',
        archived: true,
      },
    ],
    isSoldOut: false,
    purchasable: true,
    published: true,
  };
  const release = {
    slug: 'first',
    title: 'First',
    description: null,
    coverId: null,
    credits: [{ name: 'Ada', role: 'producer', did: null }],
    productIds: [id('product', 1)],
    published: true,
  };
  const event = {
    title: 'Jam',
    description: null,
    location: null,
    type: 'attend',
    mode: 'place',
    url: null,
    isAllDay: false,
    startsAt: '2027-01-14T17:00:00.000Z',
    endsAt: null,
    timeZone: 'Europe/Berlin',
    startDate: null,
    endDate: null,
    rrule: 'FREQ=WEEKLY;COUNT=3',
    coverId: null,
    requiresTicket: true,
    ticketProductIds: [id('product', 1)],
    visibility: 'draft',
  };

  it('carries products with new prices, releases and events with the archive’s product ids', async () => {
    const plan = await planOf(
      archive({ store: { products: [product], releases: [release], events: [event] } }),
      pipe,
    );
    expect(plan.products).toHaveLength(1);
    expect(plan.products[0].archiveId).toBe(id('product', 1));
    // Prices lose their ids (the new product's are new); a cover the archive lacks is left out.
    expect(plan.products[0].request.prices.map((price) => price.id)).toEqual([undefined, undefined]);
    expect(plan.products[0].request).toMatchObject({ soldOut: false, purchasable: true, published: true });
    expect(plan.products[0].request.coverId).toBeUndefined();
    expect(plan.releases[0]).toMatchObject({
      productIds: [id('product', 1)],
      credits: [{ name: 'Ada', role: 'producer' }],
    });
    expect(plan.events[0]).toMatchObject({
      rrule: 'FREQ=WEEKLY;COUNT=3',
      visibility: 'draft',
      ticketProductIds: [id('product', 1)],
    });
  });

  it('refuses a product id not in products.json, and a record its route refuses', async () => {
    const unknown = id('product', 7);
    expect(
      await refusal({
        store: { products: [product], releases: [{ ...release, productIds: [unknown] }], events: [] },
      }),
    ).toBe(`releases.json/0: ${unknown} is not in products.json`);
    expect(
      await refusal({
        store: { products: [], releases: [], events: [{ ...event, ticketProductIds: [unknown] }] },
      }),
    ).toBe(`events.json/0: ${unknown} is not in products.json`);
    expect(
      await refusal({
        store: {
          products: [{ ...product, prices: [{ ...product.prices[0], currency: 'eur' }] }],
          releases: [],
          events: [],
        },
      }),
    ).toMatch(/^products\.json\/0: /);
  });
});
