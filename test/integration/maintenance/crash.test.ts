import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { transpileCore } from '../../support/transpiled-core.js';
import { fixture, WIDGETS, type Fixture } from '../../unit/maintenance/support.js';

/** The child is a real, separate Node process running our own core/ code, with a job it holds. */
function buildChild(): { dir: string; cleanup: () => void } {
  const build = transpileCore('steward-maint-child');
  writeFileSync(
    join(build.dir, 'hold-job.mjs'),
    `import { Maintenance } from './core/maintenance/index.js';
import { createMemoryLogger } from './core/log/index.js';
const [home, registrationId] = process.argv.slice(2);
const maintenance = new Maintenance({
  home,
  logger: createMemoryLogger(),
  runners: { sync: () => { process.stdout.write('HOLDING\\n'); return new Promise(() => {}); } },
});
void maintenance.reconcile(registrationId);
setInterval(() => {}, 60_000);
`,
  );
  return build;
}

function waitForLine(child: ChildProcess, line: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes(line)) resolve();
    });
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`child exited (${code}) before ${line}: ${err.slice(0, 500)}`)));
  });
}

describe('kill -9 during a maintenance job', () => {
  let build: { dir: string; cleanup: () => void };
  let f: Fixture;
  let child: ChildProcess | undefined;

  beforeAll(() => {
    build = buildChild();
  }, 120_000);
  afterAll(() => build.cleanup());
  afterEach(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    f?.home.cleanup();
    if (f) rmSync(f.caches, { recursive: true, force: true });
  });

  it('leaves the job interrupted, and the next reconciliation revalidates and reschedules it', async () => {
    f = fixture();
    const cache = f.cache('a.db', [WIDGETS]);
    const { registrationId } = f.open().enroll({ cachePath: cache, repo: 'acme/widgets', idempotencyKey: 'k' });

    child = spawn(process.execPath, [join(build.dir, 'hold-job.mjs'), f.home.dir, registrationId], { stdio: ['ignore', 'pipe', 'pipe'], env: f.home.env });
    await waitForLine(child, 'HOLDING');
    const held = JSON.parse(readFileSync(join(f.home.dir, 'managed-caches.json'), 'utf8')) as { jobs: Array<{ jobId: string; state: string }> };
    expect(held.jobs.map((j) => j.state)).toEqual(['running']);
    const exited = new Promise((resolve) => child!.on('exit', (_code, signal) => resolve(signal)));
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const restarted = f.open();
    const [status] = restarted.list().registrations;
    expect(status!.jobs).toEqual([expect.objectContaining({ jobId: held.jobs[0]!.jobId, state: 'interrupted', errorClass: 'interrupted', rescheduledAs: null })]);
    expect(f.logger.lines.some((l) => l.includes('interrupted by a previous crash'))).toBe(true);

    const pass = await restarted.reconcile();
    expect(pass.jobs).toEqual([expect.objectContaining({ registrationId, stage: 'sync', lane: 'head', state: 'succeeded', rescheduledFrom: held.jobs[0]!.jobId })]);
    const jobs = f.open().list().registrations[0]!.jobs;
    expect(jobs.map((j) => j.state)).toEqual(['succeeded', 'interrupted']);
    expect(jobs[1]!.rescheduledAs).toBe(jobs[0]!.jobId);
  });
});
