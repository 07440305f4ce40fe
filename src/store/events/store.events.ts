/**
 * Domain events of the store, emitted inside the admin write's transaction when a product or a
 * release becomes published (created published, or unpublished before the write); webhooks deliver
 * them (docs/decisions/0161-webhook-events-and-payloads.md).
 */

export class ProductPublished {
  constructor(
    readonly spaceId: string,
    readonly productId: string,
  ) {}
}

export class ReleasePublished {
  constructor(
    readonly spaceId: string,
    readonly releaseId: string,
  ) {}
}
