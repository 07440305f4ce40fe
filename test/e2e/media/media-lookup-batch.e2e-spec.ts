import type { IncomingMessage } from 'node:http';
import { ApiError } from '../../../src/common/errors/api-error';
import { parseEntityId } from '../../../src/common/ids/entity-id';
import { requestScopes } from '../../../src/infrastructure/http/request-scope';
import { MediaLookupService } from '../../../src/media';
import { naming, statementsDuring } from '../../support/statements';
import { Actor } from '../../support/actors';
import { bootMedia, MediaTestApp, mint, newSpace, person, png, uploaded, uuidOf } from './support';

/**
 * MediaLookupService is the media module's batch API (docs/architecture.md "media"): the Media objects,
 * image URLs and uses of many ids are read in one statement however many ids there are; media not
 * ready are missing, and uses check space, uploader, state and kind per id.
 */
describe('MediaLookupService: media for many ids in one statement', () => {
  let t: MediaTestApp;
  let owner: Actor;
  let other: Actor;
  let space: string;
  let spaceUuid: string;
  let images: { id: string }[];
  let file: { id: string };
  let pending: { id: string };
  let elsewhere: { id: string };
  let strangers: { id: string };

  beforeAll(async () => {
    t = await bootMedia();
    [owner, other] = await Promise.all([person(t), person(t)]);
    const created = await newSpace(owner, 'Batch');
    space = created.id;
    spaceUuid = parseEntityId('space', space)!;
    const bytes = await png(8, 8);
    images = [];
    for (const name of ['a.png', 'b.png', 'c.png']) {
      images.push(await uploaded(t, owner, space, { filename: name, contentType: 'image/png' }, bytes));
    }
    file = await uploaded(
      t,
      owner,
      space,
      { filename: 'notes.txt', contentType: 'text/plain' },
      Buffer.from('notes\n'),
    );
    pending = (await mint(owner, space, { filename: 'later.png', contentType: 'image/png' })).media;
    const otherSpace = (await newSpace(owner, 'Elsewhere')).id;
    elsewhere = await uploaded(t, owner, otherSpace, { filename: 'e.png', contentType: 'image/png' }, bytes);
    const theirs = (await newSpace(other, 'Theirs')).id;
    strangers = await uploaded(t, other, theirs, { filename: 's.png', contentType: 'image/png' }, bytes);
  });

  afterAll(() => t?.close());

  /** The statements naming `media` that `read` sends, as if a request made it. */
  async function mediaStatements(read: (lookup: MediaLookupService) => Promise<unknown>) {
    const lookup = t.app.get(MediaLookupService);
    let answer: unknown;
    const statements = await statementsDuring(() =>
      requestScopes.run(
        { request: {} as IncomingMessage, tracksWrites: false, committed: false },
        async () => {
          answer = await read(lookup);
        },
      ),
    );
    return { answer, statements: naming(statements, 'media') };
  }

  it('reads the Media objects of N ids in one statement; not-ready media are missing, any space answers', async () => {
    const ids = [...images, file, pending, elsewhere, strangers].map((media) => uuidOf(media.id));
    const { answer, statements } = await mediaStatements((lookup) =>
      lookup.objects([...ids, null, undefined, ids[0]]),
    );
    expect(statements).toHaveLength(1);
    const objects = answer as Map<string, { id: string; url: string; urlExpiresAt?: string }>;
    expect([...objects.keys()].sort()).toEqual(
      [...images, file, elsewhere, strangers].map((media) => uuidOf(media.id)).sort(),
    );
    expect(objects.get(uuidOf(images[0].id))!.id).toBe(images[0].id);
    expect(objects.get(uuidOf(file.id))!.urlExpiresAt).toBeDefined();
    expect(objects.get(uuidOf(images[0].id))!.urlExpiresAt).toBeUndefined();
  });

  it('reads image URLs and image objects of N ids in one statement each; files are not images', async () => {
    const ids = [...images, file, pending].map((media) => uuidOf(media.id));
    const urls = await mediaStatements((lookup) => lookup.imageUrls(ids));
    expect(urls.statements).toHaveLength(1);
    expect([...(urls.answer as Map<string, string>).keys()].sort()).toEqual(
      images.map((media) => uuidOf(media.id)).sort(),
    );
    const objects = await mediaStatements((lookup) => lookup.imageObjects(ids));
    expect(objects.statements).toHaveLength(1);
    expect((objects.answer as Map<string, unknown>).size).toBe(images.length);
  });

  it('sends no statement for no ids', async () => {
    const { answer, statements } = await mediaStatements((lookup) => lookup.objects([null, undefined]));
    expect(statements).toHaveLength(0);
    expect((answer as Map<string, unknown>).size).toBe(0);
  });

  it("checks N attachments in one statement, refusing another space's, another uploader's and not-ready media", async () => {
    const references = [...images, file].map((media, index) => ({
      path: `attachments[${index}]`,
      mediaId: media.id,
    }));
    const use = { spaceId: spaceUuid, uploaderDid: owner.did };
    const accepted = await mediaStatements((lookup) => lookup.attachable(references, use));
    expect(accepted.statements).toHaveLength(1);
    expect(accepted.answer).toEqual([...images, file].map((media) => uuidOf(media.id)));

    const refused = [
      { path: 'attachments[0]', mediaId: images[0].id },
      { path: 'attachments[1]', mediaId: elsewhere.id },
      { path: 'attachments[2]', mediaId: strangers.id },
      { path: 'attachments[3]', mediaId: pending.id },
      { path: 'attachments[4]', mediaId: file.id, image: true },
      { path: 'attachments[5]', mediaId: 'media_nonsense' },
    ];
    const error = await t.app
      .get(MediaLookupService)
      .attachable(refused, use)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).getStatus()).toBe(400);
    expect((error as ApiError).extra.details).toEqual([
      { path: 'attachments[1]', message: `${elsewhere.id} was uploaded to another space` },
      { path: 'attachments[2]', message: `${strangers.id} is not one of your uploads` },
      { path: 'attachments[3]', message: `${pending.id} is not ready (pending)` },
      { path: 'attachments[4]', message: `${file.id} is not an image` },
      { path: 'attachments[5]', message: 'media_nonsense is not one of your uploads' },
    ]);
  });
});
