import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../../src/app.factory';
import type { AppConfig } from '../../../src/config/app-config';
import { drain } from '../../../src/infrastructure/health/drain';
import { PlatClient } from '../../../src/protocol/client';

/**
 * A fetch that sends requests for the public origin to the loopback address the seed's own app
 * listens on, and every other URL (an external relay) where it points. The client keeps believing
 * it talks to PUBLIC_BASE_URL: proofs name PUBLIC_HOST, the relay URL GET /v1/protocol announces is
 * followed as announced, and key files name the URL people will use.
 */
export function loopbackFetch(
  publicBaseUrl: string,
  loopbackUrl: string,
  send: typeof fetch = fetch,
): typeof fetch {
  const from = new URL(publicBaseUrl).origin;
  const to = new URL(loopbackUrl).origin;
  return (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const redirected = url === from || url.startsWith(`${from}/`) ? `${to}${url.slice(from.length)}` : url;
    return send(redirected, init);
  };
}

/**
 * Runs `work` with a client of the service booted in this process on 127.0.0.1 (an ephemeral port,
 * so a service already running on PORT is no obstacle), then drains and closes it.
 */
export async function withLoopbackApp<T>(
  config: AppConfig,
  work: (client: PlatClient) => Promise<T>,
): Promise<T> {
  const app = await createApp(config);
  try {
    await app.listen(0, '127.0.0.1');
    const { port } = (app.getHttpServer() as Server).address() as AddressInfo;
    const client = new PlatClient({
      baseUrl: config.publicBaseUrl,
      audience: config.publicHost,
      fetch: loopbackFetch(config.publicBaseUrl, `http://127.0.0.1:${port}`),
    });
    return await work(client);
  } finally {
    // Draining lets announcements queued by the demo's writes be handed over before the queue closes.
    await drain(app);
  }
}
