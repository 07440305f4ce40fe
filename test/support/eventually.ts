/**
 * Polls `read` every 50 ms until `accept` holds or `timeoutMs` passes, and answers the last value
 * read. For work of other processes or of a queue (Redis, a child process, a job): nothing there
 * runs on a clock a test could inject.
 */
export async function eventually<T>(
  read: () => T | Promise<T>,
  accept: (value: T) => boolean,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!accept(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  return value;
}

/** `eventually` for a yes-or-no probe: its last answer. */
export function eventuallyTrue(probe: () => Promise<boolean>, timeoutMs = 20_000): Promise<boolean> {
  return eventually(probe, (answer) => answer, timeoutMs);
}
