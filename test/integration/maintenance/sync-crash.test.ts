import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { transpileCore } from '../../support/transpiled-core.js';
import type { Request } from '../../support/fake-forge.js';
import { cacheContent, datasetContent, rig, seed, SMALL, TOKEN, untilComplete, type Rig } from './sync-rig.js';

/** A separate Node process running our own core: it syncs until the test kills it with SIGKILL. */
function buildChild(): { dir: string; cleanup: () => void } {
  const build = transpileCore('steward-sync-child');
  writeFileSync(
    join(build.dir, 'sync.mjs'),
    `import { Maintenance, syncStage } from './core/maintenance/index.js';
import { createMemoryLogger } from './core/log/index.js';
const [home, settings] = process.argv.slice(2);
const m = new Maintenance({
  home,
  logger: createMemoryLogger(),
  runners: { sync: syncStage({ home, token: () => ${JSON.stringify(TOKEN)}, settings: JSON.parse(settings), transport: { perPage: 10, retries: 0 } }) },
});
await m.reconcileNow();
process.stdout.write('DONE\\n');
`,
  );
  return build;
}

const tailPage = (req: Request) => /\/repos\/acme\/widgets\/issues$/.test(req.path) && req.query.get('sort') === 'created';

describe('kill -9 during a sync window', () => {
  let build: { dir: string; cleanup: () => void };
  let r: Rig | undefined;
  let child: ChildProcess | undefined;
  beforeAll(() => {
    build = buildChild();
  }, 120_000);
  afterAll(() => build.cleanup());
  afterEach(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    await r?.close();
    r = undefined;
  });

  it.each([
    // Window 2 reads pages 3-5; killed on page 4, nothing of it committed: the restart reads page 3 again.
    { when: 'inside a window', page: '4', read: 1, resume: '3' },
    // Killed as window 3 asks for its first page (5, overlapping window 2): window 2's commit stands.
    { when: 'between windows', page: '5', read: 2, resume: '5' },
  ])('resumes from the committed checkpoint without gaps when killed $when', async ({ page, read, resume }) => {
    r = await rig('github', { policy: { collections: ['issues'] } });
    seed(r.forge, 70, 1_000, 0);
    const settings = { ...SMALL, tailBudgetMs: 60_000 };
    let killed!: () => void;
    const reached = new Promise<void>((resolve) => (killed = resolve));
    const reads = new Map<string, number>();
    r.forge.scripts.push((req) => {
      if (!tailPage(req)) return;
      const p = req.query.get('page') ?? '1';
      reads.set(p, (reads.get(p) ?? 0) + 1);
      if (p === page && reads.get(p) === read) {
        killed();
        return { status: 200, hang: true };
      }
    });
    await r.m.stop();
    child = spawn(process.execPath, [join(build.dir, 'sync.mjs'), r.home.dir, JSON.stringify(settings)], { stdio: ['ignore', 'pipe', 'pipe'] });
    await reached;
    const exited = new Promise((resolve) => child!.on('exit', (_code, signal) => resolve(signal)));
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    r.forge.scripts = [];

    const restarted = r.reopen();
    expect(restarted.list().registrations[0]!.jobs[0]).toMatchObject({ lane: 'tail', state: 'interrupted' });
    const before = r.forge.requests.length;
    await untilComplete({ m: restarted });
    const firstTail = r.forge.requests.slice(before).find(tailPage)!;
    expect(firstTail.query.get('page')).toBe(resume);
    expect(cacheContent(r).issues).toEqual(datasetContent(r.forge).issues);
    await restarted.stop();
  });
});
