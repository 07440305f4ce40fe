/**
 * Per-host politeness, in this process: at most `concurrency` requests to one host at once, and
 * request starts to one host at least `intervalMs` apart. Hosts with nothing running or waiting are
 * forgotten.
 */
export class HostLimiter {
  private readonly hosts = new Map<string, { active: number; nextStart: number; waiting: (() => void)[] }>();

  constructor(
    private readonly concurrency: number,
    private readonly intervalMs: number,
  ) {}

  async run<T>(host: string, work: () => Promise<T>): Promise<T> {
    const state = this.hosts.get(host) ?? { active: 0, nextStart: 0, waiting: [] };
    this.hosts.set(host, state);
    if (state.active >= this.concurrency) await new Promise<void>((go) => state.waiting.push(go));
    state.active += 1;
    const now = Date.now();
    const start = Math.max(now, state.nextStart);
    state.nextStart = start + this.intervalMs;
    if (start > now) await new Promise((wake) => setTimeout(wake, start - now));
    try {
      return await work();
    } finally {
      state.active -= 1;
      const next = state.waiting.shift();
      if (next) next();
      else if (state.active === 0) {
        const forget = () => {
          if (state.active === 0 && state.waiting.length === 0 && this.hosts.get(host) === state)
            this.hosts.delete(host);
        };
        setTimeout(forget, Math.max(0, state.nextStart - Date.now())).unref();
      }
    }
  }
}
