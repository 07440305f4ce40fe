import { JobQueue } from '../../../src/infrastructure/jobs/job-queue';
import { LinkPreviewsService } from '../../../src/link-previews';
import { LinkPreviewResolutionService } from '../../../src/link-previews/services/link-preview-resolution.service';
import { LinkPreviewsRepository } from '../../../src/link-previews/link-previews.repository';
import { bootApp, TestApp } from '../../support/app';
import { html, LocalWeb } from './local-web';

/** LINK_PREVIEWS_ENABLED=false: nothing is queued or fetched; cards stay empty. */
describe('link previews switched off (e2e)', () => {
  const web = new LocalWeb();
  let t: TestApp;

  beforeAll(async () => {
    const port = await web.start();
    web.routes.set('/page', html('<title>Never read</title>'));
    t = await bootApp({
      env: { OUTBOUND_ALLOWED_PRIVATE_HOSTS: `127.0.0.1:${port}`, LINK_PREVIEWS_ENABLED: 'false' },
    });
  });

  afterAll(async () => {
    await t.close();
    await web.stop();
  });

  it('queues nothing, fetches nothing and shows empty cards', async () => {
    const url = web.url('/page');
    const previews = t.app.get(LinkPreviewsService);
    previews.resolveSoon([url]);
    expect((await previews.previewsOf([url])).get(url)).toEqual({
      title: null,
      description: null,
      siteName: null,
      imageUrl: null,
      faviconUrl: null,
    });
    expect((await t.app.get(JobQueue).waiting())['link-previews.resolve']).toEqual({
      count: 0,
      oldestQueuedAt: null,
    });
    // A job queued before the switch was turned off does nothing either.
    await t.app.get(LinkPreviewResolutionService).resolve(url);
    expect(web.hits.size).toBe(0);
    expect(await t.app.get(LinkPreviewsRepository).byUrls([url])).toEqual([]);
  });
});
