import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { parseEntityId } from '../../../src/common/ids/entity-id';
import { JobQueue } from '../../../src/infrastructure/jobs/job-queue';
import { ANNOUNCE_POST } from '../../../src/notifications/events/post-announcements.subscriber';
import { bootApp } from '../../support/app';
import { Actor } from '../../support/actors';
import {
  admit,
  bootSpaces,
  expectStatus,
  makePublic,
  newPost,
  newSpace,
  newTopic,
  SpacesTestApp,
} from '../posts/support';
import { expectNotFound } from '../spaces/support';
import {
  bootMedia,
  FFMPEG_PRESENT,
  MediaTestApp,
  mint,
  newSpace as mediaSpace,
  person as mediaPerson,
  upload,
  uuidOf,
  wav,
} from '../media/support';
import { JobQueues, REPEATING_KIND_DATA } from './support';
import { eventually } from '../../support/eventually';

const REDIS_URL = process.env.REDIS_URL;

/**
 * One image, two roles (docs/decisions/0117-process-roles.md). An `api` process and a
 * `worker` process on the same database and Redis: the api answers a post's creation and queues
 * its announcement but runs no job (no BullMQ worker of its own, no repeating job scheduled); the
 * worker, booted afterwards, takes the waiting job and announces the post to the members, and
 * schedules the repeating jobs; it answers its health routes and the constant 404 everywhere else.
 */
(REDIS_URL ? describe : describe.skip)(
  `PLAT_ROLE api and worker${REDIS_URL ? '' : ' [skipped: needs REDIS_URL, a real Redis]'}`,
  () => {
    const JOBS_REDIS_PREFIX = `plat:test:${randomUUID()}:jobs`;
    let api: SpacesTestApp;
    let worker: SpacesTestApp | undefined;
    let queues: JobQueues;
    let owner: Actor;
    let member: Actor;
    let space: string;
    let topic: string;

    beforeAll(async () => {
      api = await bootSpaces({ env: { PLAT_ROLE: 'api', JOBS_REDIS_PREFIX } });
      // The shared queue and each bounded kind's own (announcements, probes: one worker each).
      queues = JobQueues.of(api.app.get(JobQueue), REDIS_URL!, JOBS_REDIS_PREFIX);
      owner = await Actor.create(api, { clock: () => api.clock.now() });
      member = await Actor.create(api, { clock: () => api.clock.now() });
      expectStatus(await owner.signUp('olive', 'Olive Owner'), 201);
      expectStatus(await member.signUp('mia', 'Mia Member'), 201);
      space = (await newSpace(owner, 'Roles')).id;
      await makePublic(owner, space);
      await admit(owner, space, member);
      topic = await newTopic(owner, space, 'Open', 'public');
    });

    afterAll(async () => {
      await queues?.close();
      await worker?.close();
      await api?.close();
    });

    const fanout = async (postId: string): Promise<{ done_at: Date | null } | undefined> =>
      (
        (await api.dataSource.query('SELECT done_at FROM notification_fanouts WHERE key = $1', [
          `notify.post.created:${parseEntityId('post', postId)}`,
        ])) as { done_at: Date | null }[]
      )[0];

    it('the api queues the announcement of a post and runs no job; the worker runs it', async () => {
      const post = await newPost(member, space, { topic, title: 'Kiln day', body: 'Firing on Sunday' });

      // The api process has no BullMQ worker on any queue and scheduled nothing: the job waits for
      // a worker on its kind's own queue.
      expect(queues.names).toEqual(expect.arrayContaining(['jobs', `jobs.${ANNOUNCE_POST}`]));
      expect(Object.values(await queues.workers()).every((count) => count === 0)).toBe(true);
      expect(await queues.schedulers()).toEqual([]);
      expect(await queues.kinds(['waiting', 'delayed', 'prioritized'])).toContain(ANNOUNCE_POST);
      expect(await fanout(post.id)).toBeUndefined();

      worker = await bootSpaces({
        env: { PLAT_ROLE: 'worker', JOBS_REDIS_PREFIX },
        databaseUrl: api.databaseUrl,
      });
      const done = await eventually(
        () => fanout(post.id),
        (row) => Boolean(row?.done_at),
      );
      expect(done?.done_at).toBeTruthy();
      // One worker on every queue, the per-kind ones included: the worker process's.
      const workers = await queues.workers();
      expect(workers).toEqual(Object.fromEntries(queues.names.map((name) => [name, 1])));

      // The owner reads the announcement through the api process.
      const listing = await owner.get('/notifications');
      expectStatus(listing, 200);
      const announcements = (listing.body.items as { type: string }[]).filter(
        (item) => item.type === 'notify.post.created',
      );
      expect(announcements).toEqual([
        expect.objectContaining({
          type: 'notify.post.created',
          scope: expect.objectContaining({ type: 'post' }),
        }),
      ]);
    });

    it('the worker schedules the repeating jobs (the api scheduled none)', async () => {
      const schedulers = await eventually(
        () => queues.schedulers(),
        (keys) => keys.length === Object.keys(REPEATING_KIND_DATA).length,
      );
      expect(schedulers).toEqual(Object.keys(REPEATING_KIND_DATA).sort());
    });

    it('the worker answers its health routes and the constant 404 on every API route', async () => {
      expectStatus(await request(worker!.http).get('/health/live'), 200);
      expectStatus(await request(worker!.http).get('/health/ready'), 200);
      for (const path of [
        '/v1/protocol',
        `/v1/spaces/${space}/posts`,
        '/notifications',
        '/relay/',
        '/openapi.json',
        '/',
      ]) {
        expectNotFound(await request(worker!.http).get(path));
      }
      // Refused before it is charged, authenticated or parsed (the api would answer 401).
      expectNotFound(
        await request(worker!.http).post(`/v1/spaces/${space}/posts`).send({ topic, body: 'x' }),
      );
      // The api process serves the same route.
      expectStatus(await request(api.http).get('/v1/protocol'), 200);
    });
  },
);

/** The same split for media: an upload through the api is probed by the worker. */
(REDIS_URL ? describe : describe.skip)(
  `PLAT_ROLE api and worker: media${REDIS_URL ? '' : ' [skipped: needs REDIS_URL, a real Redis]'}`,
  () => {
    const JOBS_REDIS_PREFIX = `plat:test:${randomUUID()}:jobs`;
    let api: MediaTestApp;
    let worker: MediaTestApp | undefined;

    beforeAll(async () => {
      api = await bootMedia({ env: { PLAT_ROLE: 'api', JOBS_REDIS_PREFIX } });
    });

    afterAll(async () => {
      await worker?.close();
      await api?.close();
    });

    it('an audio uploaded through the api stays pending until a worker probes it', async () => {
      const uploader = await mediaPerson(api);
      const space = await mediaSpace(uploader, 'Tones');
      const minted = await mint(uploader, space.id, { filename: 'tone.wav', contentType: 'audio/wav' });
      const uploaded = await upload(api, minted.uploadUrl, wav(1), minted.uploadHeaders);
      expectStatus(uploaded, 200);
      expect(uploaded.body.status).toBe('pending');
      const state = async () =>
        (
          (await api.dataSource.query('SELECT state, duration_ms FROM media WHERE id = $1', [
            uuidOf(minted.media.id),
          ])) as { state: string; duration_ms: number | null }[]
        )[0];
      expect((await state()).state).toBe('pending');

      worker = await bootMedia({ replicaOf: api, env: { PLAT_ROLE: 'worker', JOBS_REDIS_PREFIX } });
      // The worker takes no upload: its bytes go to the api tier.
      expectNotFound(await upload(worker, minted.uploadUrl, wav(1), minted.uploadHeaders));
      const settled = await eventually(state, (row) => row.state !== 'pending');
      expect(settled.state).toBe('ready');
      if (FFMPEG_PRESENT) expect(settled.duration_ms).toBe(1000);
    });
  },
);

describe('PLAT_ROLE at boot', () => {
  it('refuses a role it does not know', async () => {
    await expect(bootApp({ env: { PLAT_ROLE: 'scheduler' } })).rejects.toThrow(
      'Invalid configuration:\n  - PLAT_ROLE: PLAT_ROLE must be one of: api, worker, all',
    );
  });

  it.each(['api', 'worker'])('refuses PLAT_ROLE=%s without REDIS_URL', async (role) => {
    await expect(bootApp({ env: { PLAT_ROLE: role, REDIS_URL: '' } })).rejects.toThrow(
      `Invalid configuration:\n  - REDIS_URL: required with PLAT_ROLE=${role} (the in-process job queue cannot cross processes)`,
    );
  });
});
