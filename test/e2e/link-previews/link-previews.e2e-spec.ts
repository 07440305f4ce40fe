import { DataSource } from 'typeorm';
import { schemaDrift } from '../../../src/infrastructure/database/schema-drift';
import { LinkPreviewsService, normalizeLinkUrl } from '../../../src/link-previews';
import { LinkPreviewsRepository } from '../../../src/link-previews/link-previews.repository';
import { bootApp, TestApp } from '../../support/app';

/** The link previews module in the real AppModule on a fresh database. */
describe('link previews (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootApp();
  });

  afterAll(async () => {
    await t.close();
  });

  it('previewsOf answers empty views for URLs it knows nothing of, keyed as given', async () => {
    const urls = ['https://unknown.example/a', 'not a url', 'ftp://example.org/file'];
    const views = await t.app.get(LinkPreviewsService).previewsOf(urls);
    expect([...views.keys()]).toEqual(urls);
    for (const view of views.values()) {
      expect(view).toEqual({
        title: null,
        description: null,
        siteName: null,
        imageUrl: null,
        faviconUrl: null,
      });
    }
  });

  it('previewsOf reads the record of a URL by its normalized form', async () => {
    const url = 'HTTPS://Known.Example:443/page?x=1#section';
    const key = normalizeLinkUrl(url)!;
    expect(key).toBe('https://known.example/page?x=1');
    await t.app.get(LinkPreviewsRepository).upsert({
      url: key,
      canonicalUrl: key,
      title: 'A title',
      description: 'What it says',
      siteName: 'Known',
      imageMediaId: null,
      faviconMediaId: null,
      imageSourceUrl: null,
      faviconSourceUrl: null,
      outcome: 'ok',
      reason: null,
      fetchedAt: new Date(),
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    const views = await t.app.get(LinkPreviewsService).previewsOf([url, key]);
    const expected = {
      title: 'A title',
      description: 'What it says',
      siteName: 'Known',
      imageUrl: null,
      faviconUrl: null,
    };
    expect(views.get(url)).toEqual(expected);
    expect(views.get(key)).toEqual(expected);
  });

  it('has a migration that creates exactly what its entity declares', async () => {
    expect((await schemaDrift(t.app.get(DataSource))).up).toEqual([]);
  });
});
