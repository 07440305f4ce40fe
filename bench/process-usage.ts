import { readFileSync } from 'node:fs';
import type { Target } from './processes';

/** The process's peak and current resident memory (MiB), from /proc. */
export function memory(target: Target): { peak: number; now: number } {
  const text = readFileSync(`/proc/${target.child.pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(text)?.[1] ?? 0) / 1024;
  return { peak: field('VmHWM'), now: field('VmRSS') };
}

/** CPU time of the process (ms). */
export function cpuMs(target: Target): number {
  const stat = readFileSync(`/proc/${target.child.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
