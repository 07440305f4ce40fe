import { parseEntityId } from '../../../src/common/ids/entity-id';
import { LinkPreviewsService } from '../../../src/link-previews';
import { Actor } from '../../support/actors';
import { recordResolved } from '../../support/link-previews';
import { naming, statementsDuring } from '../../support/statements';
import { bootMedia, MediaTestApp, png, uploaded } from '../media/support';
import { admit, expectStatus, makePublic, newSpace, person } from '../posts/support';

const CDN = /^https?:\/\/[^/]+\/cdn\/media_[0-9a-f]{32}\/[^/]+$/;

/**
 * A space's site links as ProfileLinks (api-spec.md "Space (single fetch)", "ProfileLink"):
 * `title` and `imageUrl` once resolved, absent otherwise, the same for members and strangers
 * (docs/decisions/0156-link-cards-read-in-one-batch.md).
 */
describe("a space's site links show their resolved pages", () => {
  let t: MediaTestApp;
  let owner: Actor;
  let member: Actor;
  let space: { id: string; did: string };
  let image: string;

  beforeAll(async () => {
    t = await bootMedia();
    [owner, member] = await Promise.all([person(t), person(t)]);
    space = await newSpace(owner, 'Linked site');
    await makePublic(owner, space.id);
    await admit(owner, space.id, member);
    image = (
      await uploaded(t, owner, space.id, { filename: 'og.png', contentType: 'image/png' }, await png(8, 8))
    ).id;
  });

  afterAll(() => t?.close());

  it('the write queues the links and answers as before; reads show what is resolved', async () => {
    const links = [
      { url: 'https://site.example/shop', label: 'Shop' },
      { url: 'https://site.example/blog', description: 'Our blog' },
    ];
    const before = await t.anonymous.get(`/v1/spaces/${space.id}`);
    expectStatus(before, 200);
    expect(before.body.links).toEqual([]);
    expect(
      naming(await statementsDuring(() => t.anonymous.get(`/v1/spaces/${space.id}`)), 'link_previews'),
    ).toEqual([]);

    const queued = jest.spyOn(t.app.get(LinkPreviewsService), 'resolveSoon');
    try {
      const written = await owner.put(`/spaces/${space.id}/site`, { links });
      expectStatus(written, 200);
      expect(written.body.links).toEqual([
        { url: links[0].url, label: 'Shop', description: null },
        { url: links[1].url, label: null, description: 'Our blog' },
      ]);
      expect(queued).toHaveBeenLastCalledWith(links.map((link) => link.url));
    } finally {
      queued.mockRestore();
    }

    const unresolved = await t.anonymous.get(`/v1/spaces/${space.id}`);
    expect(unresolved.body.links).toEqual([
      { url: links[0].url, label: 'Shop', description: null },
      { url: links[1].url, label: null, description: 'Our blog' },
    ]);

    await recordResolved(t.app, links[0].url, {
      title: 'The shop',
      imageMediaId: parseEntityId('media', image),
    });
    await recordResolved(t.app, links[1].url, { title: 'The blog' });
    const stranger = await t.anonymous.get(`/v1/spaces/${space.id}`);
    expectStatus(stranger, 200);
    expect(stranger.body.links).toEqual([
      {
        url: links[0].url,
        label: 'Shop',
        title: 'The shop',
        description: null,
        imageUrl: expect.stringMatching(CDN),
      },
      { url: links[1].url, label: null, title: 'The blog', description: 'Our blog' },
    ]);
    const asMember = await member.get(`/v1/spaces/${space.id}`);
    expectStatus(asMember, 200);
    expect(asMember.body.links).toEqual(stranger.body.links);
    // Read lately: from memory; after a new resolution: one batched statement
    // (docs/decisions/0158-recent-link-previews-in-memory.md).
    const lookups = async () =>
      naming(await statementsDuring(() => t.anonymous.get(`/v1/spaces/${space.id}`)), 'link_previews');
    expect(await lookups()).toEqual([]);
    await recordResolved(t.app, links[1].url, { title: 'The blog' });
    expect(await lookups()).toHaveLength(1);
  });

  it('queueing adds no statement to the site write', async () => {
    const previews = t.app.get(LinkPreviewsService);
    const write = (n: number) => () =>
      owner.put(`/spaces/${space.id}/site`, {
        links: [{ url: `https://count.example/${n}/a` }, { url: `https://count.example/${n}/b` }],
      });
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
