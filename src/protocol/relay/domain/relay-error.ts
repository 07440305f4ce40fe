/**
 * A failure the relay answers in WEB-RELAY.md's own body shape, `{"error": "<prose>"}`. The prose is
 * diagnostic; clients branch on the status.
 */
export class RelayError extends Error {
  override readonly name = 'RelayError';

  constructor(
    readonly status: number,
    message: string,
    readonly details?: unknown[],
  ) {
    super(message);
  }
}

export const relayBadRequest = (message: string, details?: unknown[]) =>
  new RelayError(400, message, details);
