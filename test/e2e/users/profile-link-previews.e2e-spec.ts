import { parseEntityId } from '../../../src/common/ids/entity-id';
import { LinkPreviewsService } from '../../../src/link-previews';
import { Actor } from '../../support/actors';
import { recordResolved } from '../../support/link-previews';
import { naming, statementsDuring } from '../../support/statements';
import { bootMedia, MediaTestApp, png, uploaded } from '../media/support';
import { expectStatus, newSpace, person } from '../posts/support';

const CDN = /^https?:\/\/[^/]+\/cdn\/media_[0-9a-f]{32}\/[^/]+$/;

/**
 * ProfileLink `title` and `imageUrl` of a user's profile (api-spec.md "ProfileLink"): present once
 * the page is resolved and has them, absent otherwise; the same for the owner and for strangers
 * (docs/decisions/0156-link-cards-read-in-one-batch.md).
 */
describe('profile links show their resolved pages', () => {
  let t: MediaTestApp;
  let alice: Actor;
  let image: string;

  beforeAll(async () => {
    t = await bootMedia();
    alice = await person(t);
    expectStatus(await alice.signUp('link-alice'), 201);
    const space = await newSpace(alice, 'Uploads');
    image = (
      await uploaded(t, alice, space.id, { filename: 'og.png', contentType: 'image/png' }, await png(8, 8))
    ).id;
  });

  afterAll(() => t?.close());

  it('a resolved link carries title and imageUrl; an unresolved or metadata-less one keeps today’s shape', async () => {
    const queued = jest.spyOn(t.app.get(LinkPreviewsService), 'resolveSoon');
    const links = [
      { url: 'https://profile.example/home', label: 'Home' },
      { url: 'https://profile.example/bare' },
      { url: 'https://profile.example/later', description: 'Soon' },
    ];
    let written: Record<string, unknown>;
    try {
      const response = await alice.patch('/profile', { isPublic: true, links });
      expectStatus(response, 200);
      written = response.body;
      expect(queued).toHaveBeenLastCalledWith(links.map((link) => link.url));
    } finally {
      queued.mockRestore();
    }
    const asWritten = [
      { url: links[0].url, label: 'Home', description: null },
      { url: links[1].url, label: null, description: null },
      { url: links[2].url, label: null, description: 'Soon' },
    ];
    expect(written.links).toEqual(asWritten);

    await recordResolved(t.app, links[0].url, {
      title: 'Alice at home',
      imageMediaId: parseEntityId('media', image),
    });
    await recordResolved(t.app, links[1].url, {}); // a page without metadata
    const resolved = [
      { ...asWritten[0], title: 'Alice at home', imageUrl: expect.stringMatching(CDN) },
      asWritten[1],
      asWritten[2],
    ];
    const stranger = await t.anonymous.get('/v1/users/link-alice');
    expectStatus(stranger, 200);
    expect(stranger.body.links).toEqual(resolved);
    expect((stranger.body.links[0].imageUrl as string).includes(image)).toBe(true);
    const own = await alice.get('/v1/profile');
    expectStatus(own, 200);
    expect(own.body.links).toEqual(stranger.body.links);
    const listing = await t.anonymous.get('/v1/users');
    expectStatus(listing, 200);
    const row = (listing.body.items as { handle: string; links: unknown }[]).find(
      (item) => item.handle === 'link-alice',
    );
    expect(row?.links).toEqual(stranger.body.links);

    const statements = await statementsDuring(() => t.anonymous.get('/v1/users/link-alice'));
    expect(naming(statements, 'link_previews')).toHaveLength(1);
  });

  it('queueing adds no statement to the profile write', async () => {
    const previews = t.app.get(LinkPreviewsService);
    const write = (n: number) => () =>
      alice.patch('/profile', {
        links: [{ url: `https://count.example/${n}/a` }, { url: `https://count.example/${n}/b` }],
      });
    // The identity cache's epoch is read when its time is up, whichever write comes then.
    const during = async (run: () => Promise<unknown>) =>
      (await statementsDuring(run)).filter((statement) => !/relay_identity_cache_epoch/.test(statement));
    await write(0)();
    const queued = jest.spyOn(previews, 'resolveSoon');
    const queuing = await during(write(1));
    expect(queued).toHaveBeenCalledTimes(1);
    queued.mockImplementation(() => undefined);
    try {
      expect(queuing).toEqual(await during(write(2)));
    } finally {
      queued.mockRestore();
    }
  });
});
