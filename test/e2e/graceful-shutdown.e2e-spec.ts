import type { Server } from 'node:http';
import { PlatIdentity } from '../../src/protocol/client';
import { bootApp, TestApp } from '../support/app';

/** Shutdown (what main.ts does on SIGTERM) lets in-flight requests finish and accepts no new ones. */
describe('graceful shutdown (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootApp();
  });

  afterAll(async () => {
    await t.close();
  });

  it('drains an in-flight request, then refuses new connections', async () => {
    await t.app.listen(0, '127.0.0.1');
    const server = t.app.getHttpServer() as Server;
    const { port } = server.address() as { port: number };
    const base = `http://127.0.0.1:${port}`;
    // A batch of 100 geneses takes long enough to still be running when shutdown starts.
    const operations = Array.from({ length: 100 }, () => PlatIdentity.create().log[0]);
    const inFlight = fetch(`${base}/relay/proof/v1/operations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ operations }),
    });
    await waitForConnection(server);

    const closing = t.app.close();
    const response = await inFlight;
    expect(response.status).toBe(200);
    const body = (await response.json()) as { results: { status: string }[] };
    expect(body.results.filter((result) => result.status === 'new')).toHaveLength(100);
    await closing;
    await expect(fetch(`${base}/health/live`)).rejects.toThrow();
  });
});

async function waitForConnection(server: Server): Promise<void> {
  for (;;) {
    const count = await new Promise<number>((resolve, reject) =>
      server.getConnections((error, connections) => (error ? reject(error) : resolve(connections))),
    );
    if (count > 0) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
