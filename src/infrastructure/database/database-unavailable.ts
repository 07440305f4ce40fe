/**
 * The one place that decides whether an error means "PostgreSQL cannot answer right now": the
 * request may succeed later, unchanged, so the service answers 503 E_SERVICE_UNAVAILABLE (the global
 * exception filter) instead of 500. Everything else (a bug, a constraint, bad SQL) stays a 500.
 *
 * - No connection: refused, reset, unreachable, DNS, the pool's acquisition or connect timeout.
 * - A connection lost mid-statement: terminated, its answer never came (`query_timeout`).
 * - SQLSTATE class 08 (connection exception) and class 53 (insufficient resources:
 *   too many connections, out of memory, disk full).
 * - 57P01–57P03 (terminated by an administrator, crash, or starting up / shutting down), 57P05
 *   (idle session timeout), 25P03 (idle-in-transaction timeout): the server ended the session.
 * - 57014 query_canceled: `statement_timeout` (the service never cancels a statement otherwise).
 * - 55P03 lock_not_available: `lock_timeout` (the service takes no `NOWAIT` lock).
 *
 * Not here: 57P04 database dropped (not transient), 40001/40P01 serialization and deadlock (the
 * write's own conflict, a bug to fix where it happens), every other class.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  return causes(error).some(unavailable);
}

/** What the pg driver says when a query's answer did not come within `query_timeout`. */
export const QUERY_READ_TIMEOUT = 'Query read timeout';

const SQLSTATES = new Set(['57P01', '57P02', '57P03', '57P05', '25P03', '57014', '55P03']);
const SQLSTATE_CLASSES = new Set(['08', '53']);

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** pg and pg-pool raise these as plain `Error`s, without a code. */
const DRIVER_MESSAGES = [
  'timeout exceeded when trying to connect', // pg-pool: no client within connectionTimeoutMillis
  'Connection terminated', // ... unexpectedly / due to connection timeout
  QUERY_READ_TIMEOUT,
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'Cannot use a pool after calling end on the pool', // shutting down
];

function unavailable(error: object): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  // Before the SQLSTATE test: EPIPE has a SQLSTATE's shape.
  if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) {
    // A server error: its message may quote user input, so only the SQLSTATE decides.
    return SQLSTATES.has(code) || SQLSTATE_CLASSES.has(code.slice(0, 2));
  }
  return typeof message === 'string' && DRIVER_MESSAGES.some((known) => message.startsWith(known));
}

/** The error, the driver error TypeORM wraps, and their causes. */
function causes(error: unknown): object[] {
  const found: object[] = [];
  const pending = [error];
  while (pending.length > 0 && found.length < 8) {
    const next = pending.shift();
    if (typeof next !== 'object' || next === null || found.includes(next)) continue;
    found.push(next);
    const { driverError, cause, errors } = next as {
      driverError?: unknown;
      cause?: unknown;
      errors?: unknown;
    };
    pending.push(driverError, cause, ...(Array.isArray(errors) ? errors : []));
  }
  return found;
}
