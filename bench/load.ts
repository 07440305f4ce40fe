import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { LoadJob, LoadReport } from './load-worker';
import { pinned } from './processes';

/** Runs one load job in a fresh load-generator process (bench/load-worker.ts), pinned to `cpu`. */
export async function runLoad(
  job: LoadJob,
  options: { cpu?: string; root: string },
): Promise<Extract<LoadReport, { type: 'done' }>> {
  const [command, args] = pinned(options.cpu, [join(options.root, 'dist/bench/load-worker.js')]);
  const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const limit = (job.warmupMaxSeconds + job.durationSeconds) * 1000 + 60_000;
  const report = await new Promise<LoadReport>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the load generator did not answer within ${limit / 1000} s`));
    }, limit);
    child.once('error', reject);
    child.once('exit', (code) =>
      reject(new Error(`the load generator exited with code ${code} without a report`)),
    );
    child.once('message', (message: LoadReport) => {
      clearTimeout(timer);
      resolve(message);
    });
    child.send(job);
  });
  if (report.type === 'error') throw new Error(`load generator: ${report.message}`);
  return report;
}
