import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { MetricsServer } from '../../../src/infrastructure/metrics/metrics-server';
import { packageVersion } from '../../../src/infrastructure/runtime/build-info';
import { Actor } from '../../support/actors';
import {
  bootMedia,
  expectStatus,
  FFMPEG_PRESENT,
  MediaTestApp,
  mint,
  newSpace,
  person,
  settled,
  truncatedWav,
  upload,
  withFfmpeg,
} from '../media/support';

/** One sample of the exposition text, e.g. `plat_jobs_total{kind="media.probe",outcome="completed"} 3`. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = match[2] ? match[2].split(/,(?=\w+=")/) : [];
    if (wanted.every((label) => present.includes(label)) && present.length === wanted.length) {
      return Number(match[3]);
    }
  }
  return undefined;
}

/**
 * Background work can be seen (docs/decisions/0123-traces-and-job-metrics.md). Jobs done and failed and how long they ran, jobs
 * waiting and the oldest one's age, the chain outbox's backlog, media that processing failed, and
 * which build runs, all on the metrics port.
 */
(FFMPEG_PRESENT ? describe : describe.skip)('job, outbox, media and build metrics (e2e)', () => {
  let t: MediaTestApp;
  let uploader: Actor;
  let space: { id: string };
  let port: number;

  const metricsText = async () => {
    const response = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(response.status).toBe(200);
    return response.text();
  };

  beforeAll(async () => {
    t = await bootMedia({ env: { METRICS_PORT: '0', PLAT_COMMIT: 'c0ffee1' } });
    port = t.app.get(MetricsServer).port!;
    uploader = await person(t);
    space = await newSpace(uploader, 'Metered');
  });

  afterAll(() => t?.close());

  async function uploadAndSettle(filename: string, bytes: Buffer) {
    const minted = await mint(uploader, space.id, { filename, contentType: 'audio/wav' });
    expectStatus(await upload(t, minted.uploadUrl, bytes, minted.uploadHeaders), 200);
    return settled(uploader, space.id, minted.media.id);
  }

  it('names the running version and commit: plat_build_info{version,commit} 1', async () => {
    const text = await metricsText();
    expect(sample(text, 'plat_build_info', { version: packageVersion(), commit: 'c0ffee1' })).toBe(1);
    expect(packageVersion()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('counts a processing job that completed and times it; nothing waits afterwards', async () => {
    const bytes = await withFfmpeg(['-f', 'lavfi', '-i', 'sine=frequency=440:duration=1'], 'wav');
    expect((await uploadAndSettle('tone.wav', bytes)).status).toBe('ready');

    const text = await metricsText();
    const probe = { kind: 'media.probe' };
    expect(sample(text, 'plat_jobs_total', { ...probe, outcome: 'completed' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'plat_jobs_total', { ...probe, outcome: 'failed' })).toBeUndefined();
    expect(text).toContain('# TYPE plat_job_duration_seconds histogram');
    expect(sample(text, 'plat_job_duration_seconds_count', probe)).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'plat_job_duration_seconds_sum', probe)).toBeGreaterThan(0);
    // Every registered kind is reported, waiting or not.
    expect(sample(text, 'plat_jobs_waiting', probe)).toBe(0);
    expect(sample(text, 'plat_job_oldest_waiting_seconds', probe)).toBe(0);
    expect(sample(text, 'plat_jobs_waiting', { kind: 'chain-outbox.sweep' })).toBe(0);
  });

  it('counts media whose processing failed, by media kind and reason', async () => {
    const before =
      sample(await metricsText(), 'plat_media_processing_failures_total', {
        kind: 'audio',
        reason: 'refused',
      }) ?? 0;
    const bytes = truncatedWav();
    expect((await uploadAndSettle('broken.wav', bytes)).status).toBe('failed');

    const text = await metricsText();
    expect(sample(text, 'plat_media_processing_failures_total', { kind: 'audio', reason: 'refused' })).toBe(
      before + 1,
    );
    // The job itself did its work (the media failed, for good): it is not a job failure.
    expect(sample(text, 'plat_jobs_total', { kind: 'media.probe', outcome: 'failed' })).toBeUndefined();
  });

  it('reports the chain outbox backlog: rows pending and the age of the oldest', async () => {
    const empty = await metricsText();
    const outbox = { outbox: 'chain_publications' };
    expect(sample(empty, 'plat_outbox_pending', outbox)).toBe(0);
    expect(sample(empty, 'plat_outbox_oldest_seconds', outbox)).toBe(0);

    // A publication stuck for two minutes (a relay that keeps failing), not due again for an hour.
    const dataSource = t.app.get(DataSource);
    const subject = randomUUID();
    await dataSource.query(
      `INSERT INTO chain_publications (owner, subject_id, start_new_chain, version, attempts, due_at, created_at, last_error)
       VALUES ('post', $1, false, 1, 4, now() + interval '1 hour', now() - interval '120 seconds', 'relay down')`,
      [subject],
    );
    try {
      const stuck = await metricsText();
      expect(sample(stuck, 'plat_outbox_pending', outbox)).toBe(1);
      expect(sample(stuck, 'plat_outbox_oldest_seconds', outbox)).toBeGreaterThanOrEqual(119);
      expect(sample(stuck, 'plat_outbox_oldest_seconds', outbox)).toBeLessThan(180);
    } finally {
      await dataSource.query('DELETE FROM chain_publications WHERE subject_id = $1', [subject]);
    }
    expect(sample(await metricsText(), 'plat_outbox_pending', outbox)).toBe(0);
  });
});
