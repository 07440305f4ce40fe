/**
 * `work`'s result if it settles within `ms`, else `fallback` (work still running is left to finish
 * on its own). For waits that must be bounded: boot, shutdown, health checks.
 */
export async function settleWithin<T>(work: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
