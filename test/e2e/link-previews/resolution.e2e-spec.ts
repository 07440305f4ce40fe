import sharp from 'sharp';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { Clock } from '../../../src/common/clock/clock';
import { Metrics } from '../../../src/infrastructure/metrics/metrics';
import { LinkPreviewsService, LinkPreviewView, normalizeLinkUrl } from '../../../src/link-previews';
import { LinkPreview } from '../../../src/link-previews/entities/link-preview.entity';
import { LinkPreviewsRepository } from '../../../src/link-previews/link-previews.repository';
import { MediaStorage } from '../../../src/media/services/storage/media-storage';
import { bootApp, TestApp } from '../../support/app';
import { ShiftedClock } from '../../support/clock';
import { eventually } from '../../support/eventually';
import { html, LocalWeb } from './local-web';

/**
 * Resolution of link previews against local pages (OUTBOUND_ALLOWED_PRIVATE_HOSTS lets the guard
 * through to this test's server only): resolveSoon queues a job, the test waits for its record.
 */
describe('link preview resolution (e2e)', () => {
  const web = new LocalWeb();
  const clock = new ShiftedClock();
  let t: TestApp;
  let previews: LinkPreviewsService;
  let png: Buffer;

  beforeAll(async () => {
    const port = await web.start();
    png = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#c33' } })
      .png()
      .toBuffer();
    t = await bootApp({
      env: {
        OUTBOUND_ALLOWED_PRIVATE_HOSTS: `127.0.0.1:${port}`,
        LINK_PREVIEW_TIMEOUT_MS: '800',
        LINK_PREVIEW_DENY_HOSTS: 'denied.test, other.example',
      },
      override: (builder) => builder.overrideProvider(Clock).useValue(clock),
    });
    previews = t.app.get(LinkPreviewsService);
  });

  afterAll(async () => {
    await t.close();
    await web.stop();
  });

  const record = async (url: string): Promise<LinkPreview | undefined> =>
    (await t.app.get(LinkPreviewsRepository).byUrls([normalizeLinkUrl(url)!]))[0];

  /** Queues the URL and waits for its record. */
  async function resolved(url: string, timeoutMs = 20_000): Promise<LinkPreview> {
    previews.resolveSoon([url]);
    const found = await eventually(
      () => record(url),
      (row) => row !== undefined,
      timeoutMs,
    );
    expect(found).toBeDefined();
    return found!;
  }

  async function view(url: string): Promise<LinkPreviewView> {
    return (await previews.previewsOf([url])).get(url)!;
  }

  it('reads OpenGraph, keeps its image and favicon as media of ours served on /cdn', async () => {
    web.routes.set('/img/og.png', (_q, s) => s.writeHead(200, { 'content-type': 'image/png' }).end(png));
    web.routes.set('/img/icon.png', (_q, s) => s.writeHead(200, { 'content-type': 'image/png' }).end(png));
    web.routes.set(
      '/og',
      html(`<!doctype html><html><head>
        <title>Plain title</title>
        <meta property="og:title" content="  The   OpenGraph title ">
        <meta property="og:description" content="What the page &amp; its author say">
        <meta property="og:site_name" content="Example Site">
        <meta property="og:image" content="/img/og.png">
        <link rel="shortcut icon" href="img/icon.png">
      </head><body>Hello</body></html>`),
    );
    const url = web.url('/og');
    const row = await resolved(url);
    expect(row).toMatchObject({ outcome: 'ok', reason: null, attempts: 1 });
    const card = await view(url);
    expect(card).toMatchObject({
      title: 'The OpenGraph title',
      description: 'What the page & its author say',
      siteName: 'Example Site',
    });
    expect(card.imageUrl).toMatch(/^http:\/\/api\.plat\.test\/cdn\/media_[0-9a-f]{32}\/preview\.png$/);
    expect(card.faviconUrl).toMatch(/^http:\/\/api\.plat\.test\/cdn\/media_[0-9a-f]{32}\/favicon\.png$/);
    const served = await request(t.http).get(new URL(card.imageUrl!).pathname);
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toMatch(/^image\/png/);
  });

  it('keeps a favicon two pages share once, and shows it on both', async () => {
    web.routes.set('/img/shared-icon.png', (_q, s) =>
      s.writeHead(200, { 'content-type': 'image/png' }).end(png),
    );
    web.routes.set('/site-a', html('<title>A</title><link rel=icon href=/img/shared-icon.png>'));
    web.routes.set('/site-b', html('<title>B</title><link rel=icon href=/img/shared-icon.png>'));
    await resolved(web.url('/site-a'));
    await resolved(web.url('/site-b'));
    const cards = await previews.previewsOf([web.url('/site-a'), web.url('/site-b')]);
    expect(cards.get(web.url('/site-a'))!.faviconUrl).toMatch(/\/cdn\/media_/);
    expect(cards.get(web.url('/site-b'))!.faviconUrl).toBe(cards.get(web.url('/site-a'))!.faviconUrl);
    expect(web.hits.get('/img/shared-icon.png')).toBe(1);
  });

  it('reads a Twitter card when there is no OpenGraph', async () => {
    web.routes.set(
      '/twitter',
      html(`<html><head><meta name="twitter:card" content="summary">
        <meta name="twitter:title" content="Tweet title"><meta name="twitter:description" content="Tweet text">
        </head></html>`),
    );
    const url = web.url('/twitter');
    await resolved(url);
    expect(await view(url)).toEqual({
      title: 'Tweet title',
      description: 'Tweet text',
      siteName: null,
      imageUrl: null,
      faviconUrl: null,
    });
  });

  it('falls back to <title> and <meta name=description>; a page without metadata is ok with nulls', async () => {
    web.routes.set(
      '/title',
      html('<html><head><title>Only a title</title><meta name="description" content="Short"></head></html>'),
    );
    web.routes.set('/nothing', html('<html><body><p>No head at all</p></body></html>'));
    await resolved(web.url('/title'));
    expect(await view(web.url('/title'))).toMatchObject({ title: 'Only a title', description: 'Short' });
    const bare = await resolved(web.url('/nothing'));
    expect(bare.outcome).toBe('ok');
    expect(await view(web.url('/nothing'))).toEqual({
      title: null,
      description: null,
      siteName: null,
      imageUrl: null,
      faviconUrl: null,
    });
  });

  it('bounds long texts', async () => {
    web.routes.set(
      '/long',
      html(`<title>${'t'.repeat(500)}</title><meta name="description" content="${'d '.repeat(800)}">`),
    );
    await resolved(web.url('/long'));
    const card = await view(web.url('/long'));
    expect([...card.title!]).toHaveLength(300);
    expect(card.title!.endsWith('…')).toBe(true);
    expect([...card.description!].length).toBeLessThanOrEqual(1000);
  });

  it('follows redirects (up to 5), refuses one to a private address and too many', async () => {
    web.routes.set('/moved', (_q, s) => s.writeHead(301, { location: '/moved-2' }).end());
    web.routes.set('/moved-2', (_q, s) => s.writeHead(302, { location: web.url('/title') }).end());
    const moved = await resolved(web.url('/moved'));
    expect(moved.outcome).toBe('ok');
    expect(moved.title).toBe('Only a title');
    expect(moved.canonicalUrl).toBe(web.url('/title'));

    web.routes.set('/to-private', (_q, s) =>
      s.writeHead(302, { location: `http://10.1.2.3:${web.port}/` }).end(),
    );
    expect(await resolved(web.url('/to-private'))).toMatchObject({ outcome: 'refused', title: null });

    for (let hop = 0; hop < 10; hop += 1) {
      web.routes.set(`/loop-${hop}`, (_q, s) => s.writeHead(302, { location: `/loop-${hop + 1}` }).end());
    }
    const loop = await resolved(web.url('/loop-0'));
    expect(loop).toMatchObject({ outcome: 'refused', reason: 'more than 5 redirects' });
    expect(web.hits.get('/loop-6')).toBeUndefined();
  });

  it('reads only the head of a huge page', async () => {
    const head = '<html><head><title>Huge</title></head><body>';
    web.routes.set('/huge', (_q, s) => {
      s.writeHead(200, { 'content-type': 'text/html' });
      s.write(head);
      // 4 MiB, more than the 512 KiB read; the fetcher hangs up long before.
      for (let i = 0; i < 64; i += 1) s.write('x'.repeat(64 * 1024));
      s.end('</body></html>');
    });
    expect(await resolved(web.url('/huge'))).toMatchObject({ outcome: 'ok', title: 'Huge' });
  });

  it('gives up on a slow page after its retries and records the failure with its reason', async () => {
    web.routes.set('/slow', (_q, s) => {
      s.writeHead(200, { 'content-type': 'text/html' });
      s.write('<html><head>');
      // …and never ends.
    });
    const slow = await resolved(web.url('/slow'), 30_000);
    expect(slow).toMatchObject({ outcome: 'failed', reason: 'timed out', attempts: 1 });
    expect(web.hits.get('/slow')).toBe(3);
  }, 40_000);

  it('records a page that is not HTML as not_html, for a shorter time', async () => {
    web.routes.set('/file.pdf', (_q, s) =>
      s.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.4'),
    );
    const row = await resolved(web.url('/file.pdf'));
    expect(row).toMatchObject({ outcome: 'not_html', reason: 'answered application/pdf' });
    expect(row.expiresAt.getTime() - row.fetchedAt.getTime()).toBe(3600 * 1000);
    expect(await view(web.url('/file.pdf'))).toMatchObject({ title: null });
  });

  it('keeps no image that is too large or not an image, and still shows the page', async () => {
    const big = Buffer.alloc(6 * 1024 * 1024, 1);
    web.routes.set('/img/big.png', (_q, s) => s.writeHead(200, { 'content-type': 'image/png' }).end(big));
    web.routes.set('/img/fake.png', (_q, s) =>
      s.writeHead(200, { 'content-type': 'image/png' }).end('<html>not an image</html>'),
    );
    web.routes.set(
      '/bad-images',
      html(
        '<title>Bad images</title><meta property="og:image" content="/img/big.png"><link rel=icon href=/img/fake.png>',
      ),
    );
    await resolved(web.url('/bad-images'));
    expect(await view(web.url('/bad-images'))).toEqual({
      title: 'Bad images',
      description: null,
      siteName: null,
      imageUrl: null,
      faviconUrl: null,
    });
  });

  it('decodes the charset of the Content-Type header and of <meta charset>', async () => {
    web.routes.set('/latin1', (_q, s) =>
      s
        .writeHead(200, { 'content-type': 'text/html; charset=ISO-8859-1' })
        .end(Buffer.from('<title>Caf\u00e9 cr\u00e8me</title>', 'latin1')),
    );
    web.routes.set('/meta-charset', (_q, s) =>
      s
        .writeHead(200, { 'content-type': 'text/html' })
        .end(Buffer.from('<meta charset="windows-1252"><title>Na\u00efve \u00e9t\u00e9</title>', 'latin1')),
    );
    await resolved(web.url('/latin1'));
    await resolved(web.url('/meta-charset'));
    expect((await view(web.url('/latin1'))).title).toBe('Café crème');
    expect((await view(web.url('/meta-charset'))).title).toBe('Naïve été');
  });

  it('fetches the same URL once however often it is queued, and refreshes it after its TTL', async () => {
    let version = 1;
    web.routes.set('/shared', (_q, s) =>
      s.writeHead(200, { 'content-type': 'text/html' }).end(`<title>Version ${version}</title>`),
    );
    const url = web.url('/shared');
    // Two posts linking the same page, one of them with a fragment and an upper-case host form.
    previews.resolveSoon([url, `${url}#comments`]);
    previews.resolveSoon([url.replace('http://', 'HTTP://')]);
    const first = await resolved(url);
    expect(first.title).toBe('Version 1');
    // A read of a fresh record queues nothing.
    await previews.previewsOf([url]);
    previews.resolveSoon([url]);
    expect(web.hits.get('/shared')).toBe(1);

    version = 2;
    clock.offsetMs = 8 * 24 * 3600 * 1000;
    try {
      // A read past the TTL still shows the old card, and queues the refresh.
      expect((await view(url)).title).toBe('Version 1');
      const refreshed = await eventually(
        () => record(url),
        (row) => row?.title === 'Version 2',
      );
      expect(refreshed).toMatchObject({ title: 'Version 2', attempts: 2 });
      expect(web.hits.get('/shared')).toBe(2);
    } finally {
      clock.offsetMs = 0;
    }
  });

  it('keeps the media of an unchanged image on refresh, and releases the one a changed image replaces', async () => {
    const other = await sharp({ create: { width: 30, height: 30, channels: 3, background: '#36c' } })
      .png()
      .toBuffer();
    let image = '/img/first.png';
    let title = 'One';
    web.routes.set('/img/first.png', (_q, s) => s.writeHead(200, { 'content-type': 'image/png' }).end(png));
    web.routes.set('/img/second.png', (_q, s) =>
      s.writeHead(200, { 'content-type': 'image/png' }).end(other),
    );
    web.routes.set('/changing', (_q, s) =>
      s
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<title>${title}</title><meta property="og:image" content="${image}">`),
    );
    const db = t.app.get(DataSource);
    const mediaCount = async (): Promise<number> =>
      (await db.query<{ n: number }[]>('SELECT count(*)::int AS n FROM media'))[0].n;
    const mediaRow = async (id: string) =>
      (await db.query<{ storage_key: string }[]>('SELECT storage_key FROM media WHERE id = $1', [id]))[0];
    const url = web.url('/changing');
    const first = await resolved(url);
    const firstUrl = (await view(url)).imageUrl;
    expect(firstUrl).toMatch(/\/cdn\/media_[0-9a-f]{32}\/preview\.png$/);
    const firstKey = (await mediaRow(first.imageMediaId!)).storage_key;
    // A variant rendered from it is stored beside it.
    expect((await request(t.http).get(`${new URL(firstUrl!).pathname}?w=10`)).status).toBe(200);
    const media = await mediaCount();

    const refresh = async (expected: string): Promise<LinkPreview> => {
      clock.offsetMs += 8 * 24 * 3600 * 1000;
      previews.resolveSoon([url]);
      return (await eventually(
        () => record(url),
        (row) => row?.title === expected,
      ))!;
    };
    try {
      // The same image: the same media, nothing imported again.
      title = 'Two';
      const same = await refresh('Two');
      expect(same.imageMediaId).toBe(first.imageMediaId);
      expect((await view(url)).imageUrl).toBe(firstUrl);
      expect(await mediaCount()).toBe(media);
      expect(web.hits.get('/img/first.png')).toBe(1);

      // Another image: a new media; the old one's row and stored bytes are gone.
      image = '/img/second.png';
      title = 'Three';
      const changed = await refresh('Three');
      expect(changed.imageMediaId).not.toBe(first.imageMediaId);
      const secondUrl = (await view(url)).imageUrl;
      expect(secondUrl).toMatch(/\/cdn\/media_[0-9a-f]{32}\/preview\.png$/);
      expect(secondUrl).not.toBe(firstUrl);
      // The release follows the record's write (row, original, then variants): wait for it to end.
      const storage = t.app.get(MediaStorage);
      const leftOf = async (id: string, key: string) =>
        [
          ...((await mediaRow(id)) ? ['row'] : []),
          ...((await storage.exists(key)) ? ['original'] : []),
          ...(await storage.list(`${id}/variants`, 10)),
        ].length;
      expect(
        await eventually(
          () => leftOf(first.imageMediaId!, firstKey),
          (n) => n === 0,
        ),
      ).toBe(0);
      expect(await mediaCount()).toBe(media);
      expect((await request(t.http).get(new URL(firstUrl!).pathname)).status).toBe(404);

      // The page loses its image: the card has none, and no media is left behind.
      image = '';
      title = 'Four';
      web.routes.set('/changing', (_q, s) =>
        s.writeHead(200, { 'content-type': 'text/html' }).end(`<title>${title}</title>`),
      );
      const changedKey = (await mediaRow(changed.imageMediaId!)).storage_key;
      const lost = await refresh('Four');
      expect(lost.imageMediaId).toBeNull();
      expect(
        await eventually(
          () => leftOf(changed.imageMediaId!, changedKey),
          (n) => n === 0,
        ),
      ).toBe(0);
      expect(await mediaCount()).toBe(media - 1);
    } finally {
      clock.offsetMs = 0;
    }
  });

  it('retries a failure that later succeeds', async () => {
    let calls = 0;
    web.routes.set('/flaky', (_q, s) => {
      calls += 1;
      if (calls === 1) return s.writeHead(503, { 'content-type': 'text/plain' }).end('busy');
      s.writeHead(200, { 'content-type': 'text/html' }).end('<title>Back again</title>');
    });
    const row = await resolved(web.url('/flaky'));
    expect(row).toMatchObject({ outcome: 'ok', title: 'Back again', attempts: 1 });
    expect(calls).toBe(2);
  });

  it('records a page that fails for its shorter time, and resolves it once it answers after that', async () => {
    let up = false;
    web.routes.set('/comes-back', (_q, s) => {
      if (!up) return s.writeHead(404, { 'content-type': 'text/plain' }).end('gone');
      s.writeHead(200, { 'content-type': 'text/html' }).end('<title>Here now</title>');
    });
    const url = web.url('/comes-back');
    const failed = await resolved(url);
    expect(failed).toMatchObject({ outcome: 'failed', title: null, attempts: 1 });
    expect(failed.expiresAt.getTime() - failed.fetchedAt.getTime()).toBe(3600 * 1000);
    // Within its time, reads and writes queue nothing.
    expect(await view(url)).toMatchObject({ title: null });
    previews.resolveSoon([url]);
    expect(web.hits.get('/comes-back')).toBe(1);

    up = true;
    clock.offsetMs = 2 * 3600 * 1000;
    try {
      // Past it, a read still answers at once and queues the refresh.
      expect(await view(url)).toMatchObject({ title: null });
      const back = await eventually(
        () => record(url),
        (row) => row?.outcome === 'ok',
      );
      expect(back).toMatchObject({ outcome: 'ok', reason: null, title: 'Here now', attempts: 2 });
      expect((await view(url)).title).toBe('Here now');
      expect(web.hits.get('/comes-back')).toBe(2);
    } finally {
      clock.offsetMs = 0;
    }
  });

  it('refuses an address the configuration does not let through, and records it', async () => {
    const row = await resolved(`http://127.0.0.1:${web.port + 1 === 65536 ? 1 : web.port + 1}/x`);
    expect(row).toMatchObject({ outcome: 'refused', reason: expect.stringMatching(/not a public address/) });
    const named = await resolved(`http://localhost:${web.port}/og`);
    expect(named).toMatchObject({ outcome: 'refused', reason: expect.stringMatching(/public addresses/) });
  });

  it('refuses hosts of LINK_PREVIEW_DENY_HOSTS and their subdomains without fetching', async () => {
    const row = await resolved('http://www.denied.test/page');
    expect(row).toMatchObject({
      outcome: 'refused',
      reason: 'www.denied.test is on LINK_PREVIEW_DENY_HOSTS',
    });
  });

  it('counts fetches by outcome and times them', async () => {
    const metrics = await t.app.get(Metrics).registry.getMetricsAsJSON();
    const fetches = metrics.find((metric) => metric.name === 'plat_link_preview_fetches_total')!;
    const count = (outcome: string) =>
      fetches.values.find((value) => value.labels.outcome === outcome)?.value ?? 0;
    expect(count('ok')).toBeGreaterThanOrEqual(10);
    expect(count('refused')).toBeGreaterThanOrEqual(3);
    expect(count('not_html')).toBe(1);
    expect(count('failed')).toBe(2);
    expect(count('retried')).toBe(3);
    const exposition = await t.app.get(Metrics).registry.metrics();
    expect(exposition).toMatch(/plat_link_preview_fetch_duration_seconds_count\{outcome="ok"\} [1-9]/);
  });

  it('never queues what normalizeLinkUrl refuses', async () => {
    previews.resolveSoon([
      'ftp://example.org/',
      'javascript:alert(1)',
      `http://user:pw@127.0.0.1:${web.port}/og`,
    ]);
    expect(await t.app.get(LinkPreviewsRepository).byUrls(['ftp://example.org/'])).toEqual([]);
  });
});
