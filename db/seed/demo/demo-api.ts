import { PlatHttpError, type PlatClient, type PlatIdentity } from '../../../src/protocol/client';

/** A page of any listing (api-spec.md "Page envelope"). */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * The demo seed's way into the API: the `plat` CLI's client (request proofs signed by the person's
 * auth key, the relay found through GET /v1/protocol), throwing on any status not expected.
 */
export class DemoApi {
  constructor(readonly client: PlatClient) {}

  async call<T = Record<string, unknown>>(
    as: PlatIdentity | null,
    method: string,
    path: string,
    body?: unknown,
    expected: readonly number[] = [200, 201],
  ): Promise<{ status: number; body: T }> {
    const response = await this.client.request<T>(method, path, { body, identity: as ?? undefined });
    if (!expected.includes(response.status)) {
      throw new PlatHttpError(method, this.client.url(path), response.status, response.body);
    }
    return { status: response.status, body: response.body };
  }

  /** Every item of a listing (the demo's listings are short: a few pages at most). */
  async all<T>(as: PlatIdentity | null, path: string): Promise<T[]> {
    const items: T[] = [];
    let after: string | null = null;
    for (let page = 0; page < 50; page++) {
      const separator = path.includes('?') ? '&' : '?';
      const cursor: string = after === null ? '' : `&after=${encodeURIComponent(after)}`;
      const { body }: { body: Page<T> } = await this.call<Page<T>>(
        as,
        'GET',
        `${path}${separator}limit=100${cursor}`,
      );
      items.push(...body.items);
      after = body.nextCursor;
      if (after === null) break;
    }
    return items;
  }
}
