import { readFileSync } from 'node:fs';

/**
 * A V8 CPU profile (`node --cpu-prof`) of the app under a scenario's load, summed up: where the
 * samples fell by function (self time) and by origin (our src/ modules, each package of
 * node_modules, Node's internals, garbage collection, idle). Taken before and after a change to the
 * request path (bench/README.md, "Profiles"); the .cpuprofile itself opens in Chrome DevTools or speedscope.
 */
export interface ProfileSummary {
  /** Sampled time, idle included. */
  totalMs: number;
  /** Share of the sampled time the process was busy (not idle). */
  busyShare: number;
  topFunctions: { name: string; where: string; selfShare: number }[];
  byOrigin: { origin: string; selfShare: number }[];
}

interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
  }[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/**
 * `window`: only the samples of the measured run, given as how long before the profile's end it
 * stopped (the app's shutdown) and how long it lasted; boot, warm-up and shutdown are left out.
 */
export function summarizeProfile(
  file: string,
  root: string,
  window?: { endedMsBeforeEnd: number; lengthMs: number },
  top = 15,
): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const self = new Map<number, number>();
  const to = profile.endTime - (window?.endedMsBeforeEnd ?? 0) * 1000;
  const from = window ? to - window.lengthMs * 1000 : -Infinity;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at >= from && at <= to) self.set(id, (self.get(id) ?? 0) + delta);
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0) || 1;
  const byFunction = new Map<string, { name: string; where: string; micros: number }>();
  const byOrigin = new Map<string, number>();
  let idle = 0;
  for (const [id, micros] of self) {
    const frame = frames.get(id)!;
    const name = frame.functionName || '(anonymous)';
    if (name === '(idle)') idle += micros;
    const where = frame.url ? `${shorten(frame.url, root)}:${frame.lineNumber + 1}` : '';
    const key = `${name} ${where}`;
    const entry = byFunction.get(key) ?? { name, where, micros: 0 };
    entry.micros += micros;
    byFunction.set(key, entry);
    const origin = originOf(frame.url, name, root);
    byOrigin.set(origin, (byOrigin.get(origin) ?? 0) + micros);
  }
  const share = (micros: number) => Number((micros / total).toFixed(4));
  return {
    totalMs: Math.round(total / 1000),
    busyShare: share(total - idle),
    topFunctions: [...byFunction.values()]
      .filter((f) => f.name !== '(idle)')
      .sort((a, b) => b.micros - a.micros)
      .slice(0, top)
      .map((f) => ({ name: f.name, where: f.where, selfShare: share(f.micros) })),
    byOrigin: [...byOrigin.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([origin, micros]) => ({ origin, selfShare: share(micros) })),
  };
}

function shorten(url: string, root: string): string {
  const path = url.replace(/^file:\/\//, '');
  return path.startsWith(root) ? path.slice(root.length + 1) : path;
}

/** src/<module>, a node_modules package, node internals, or V8's pseudo-frames. */
function originOf(url: string, name: string, root: string): string {
  if (!url) return name.startsWith('(') ? name : '(native)';
  const path = shorten(url, root);
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (pkg) return pkg[1];
  const ours = /^dist\/(src|bench|db)\/([^/]+)/.exec(path);
  if (ours) return `${ours[1]}/${ours[2]}`;
  if (path.startsWith('node:')) return 'node internals';
  return path;
}

export function formatProfile(scenario: string, summary: ProfileSummary): string {
  const pct = (share: number) => `${(share * 100).toFixed(1)}%`;
  return [
    `${scenario}: ${summary.totalMs} ms sampled, busy ${pct(summary.busyShare)}`,
    '  by origin (self time): ' + summary.byOrigin.map((o) => `${o.origin} ${pct(o.selfShare)}`).join(', '),
    '  top functions (self time):',
    ...summary.topFunctions.map((f) => `    ${pct(f.selfShare).padStart(6)}  ${f.name}  ${f.where}`),
  ].join('\n');
}
