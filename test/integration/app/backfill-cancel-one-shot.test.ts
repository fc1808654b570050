import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../core/cli/index.js';
import { LOCK_FILE, lockHolder } from '../../../core/store/lock/index.js';
import { captureIo } from '../../support/cli.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';
import { transpileCore } from '../../support/transpiled-core.js';

/*
 * QA: `steward backfill --all &` then `steward backfill --cancel` with no owner running refused ("A steward
 * command (pid N) is using the store") and the import ran to its end. The lock now names the verb that
 * holds it; --cancel asks a one-shot backfill of this home to stop, as Ctrl-C does, and waits for it to stop.
 * Review: no signal is ever sent. A lock's pid may be another process's (a crash, then pid reuse, and no
 * /proc identity on macOS or Windows): --cancel leaves a request file the backfill itself picks up.
 */

/** The request `steward backfill --cancel` leaves in STEWARD_HOME for a one-shot backfill. */
const REQUEST_FILE = 'backfill.cancel';

const CLI = `
import { runCli } from './core/cli/index.js';
process.exitCode = await runCli(process.argv.slice(2));
`;

let build: { dir: string; cleanup: () => void };
let home: TempHome;
/** Every child a test started (a victim and the command beside it): all are killed after each test, none left running. */
const children: ChildProcess[] = [];

beforeAll(() => {
  build = transpileCore('backfill-cancel');
  writeFileSync(join(build.dir, 'cli.mjs'), CLI);
}, 120_000);
afterAll(() => build.cleanup());
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  home?.cleanup();
});

/** Enough history that an import of it takes seconds: 300 files of 200 lines. */
function writeHistory(roots: string, files = 300): void {
  const base = Date.now() - 3 * 86_400_000;
  for (let f = 0; f < files; f++) {
    const sessionId = `cancel-${f}`;
    writeJsonl(
      join(roots, 'projects', '-work-cancel', `${sessionId}.jsonl`),
      Array.from({ length: 200 }, (_, i) => claudeLine({ sessionId, cwd: '/work/cancel', ts: new Date(base + f * 1000 + i), type: i % 2 ? 'assistant' : 'user', text: `line ${i} of ${sessionId} ${'words '.repeat(20)}` })),
    );
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A child process of the tests (killed after each), what it wrote so far, and its exit code. */
interface Running {
  proc: ChildProcess;
  out: () => string;
  err: () => string;
  exit: Promise<number | null>;
}

/** Runs `script` (a path) with `args` in a child, collecting its output. */
function runChild(script: string, args: string[], env: NodeJS.ProcessEnv): Running {
  const proc = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  children.push(proc);
  let out = '';
  let err = '';
  proc.stdout!.on('data', (data: Buffer) => (out += String(data)));
  proc.stderr!.on('data', (data: Buffer) => (err += String(data)));
  const exit = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return { proc, out: () => out, err: () => err, exit };
}

/** `steward backfill --all` in a child, over `files` transcript files written into the test's home. */
function backfillAll(files?: number): Running {
  const roots = join(home.dir, 'roots');
  writeHistory(roots, files);
  home.env.STEWARD_CLAUDE_ROOTS = roots;
  return runChild(join(build.dir, 'cli.mjs'), ['backfill', '--all'], home.env);
}

/** Waits until `done`, for at most `ms`. */
async function until(done: () => boolean, ms = 20_000): Promise<void> {
  for (const end = Date.now() + ms; !done() && Date.now() < end; ) await sleep(10);
}

describe('steward backfill --cancel with no owner running', () => {
  it('the lock names the verb holding it, and --cancel stops a one-shot backfill', async () => {
    home = tempHome('steward-cancel-one-shot-');
    const { proc: started, out, exit } = backfillAll();
    await until(() => lockHolder(home.dir)?.pid === started.pid, 5_000);
    expect(lockHolder(home.dir)).toMatchObject({ pid: started.pid, role: 'command', verb: 'backfill' });
    // Well into the import: the Core is open and its files are being read.
    await sleep(700);
    const io = captureIo(home.env);
    const code = await runCli(['backfill', '--cancel'], io);
    expect(io.err).toBe('');
    expect(io.out).toMatch(new RegExp(`^Asked the running import \\(pid ${started.pid}\\) to stop; it stopped`));
    // The request was taken and is gone.
    expect(existsSync(join(home.dir, REQUEST_FILE))).toBe(false);
    expect(code).toBe(0);
    // The backfill stopped between batches, said so, and exits 1 as a cancelled run does.
    expect(await exit).toBe(1);
    expect(out()).toMatch(/claude: cancelled after \d+ of 300 transcript files/);
    expect(lockHolder(home.dir)).toBeUndefined();
  }, 60_000);

  it('never signals a command of another verb: it says the store is in use, as before', async () => {
    home = tempHome('steward-cancel-one-shot-');
    const hold = `
import { Core } from './core/core.js';
const core = Core.open({ home: { dir: process.argv[2], kind: 'env' }, env: process.env });
process.stdout.write('HOLDING\\n');
process.on('SIGINT', () => process.stdout.write('SIGNALLED\\n'));
process.stdin.once('data', async () => { await core.shutdown(); process.exit(0); });
`;
    writeFileSync(join(build.dir, 'hold.mjs'), hold);
    const started = spawn(process.execPath, [join(build.dir, 'hold.mjs'), home.dir], { stdio: ['pipe', 'pipe', 'pipe'], env: home.env });
    children.push(started);
    let out = '';
    await new Promise<void>((resolve) => started.stdout!.on('data', (data: Buffer) => ((out += String(data)), out.includes('HOLDING') && resolve())));
    const io = captureIo(home.env);
    expect(await runCli(['backfill', '--cancel'], io)).toBe(1);
    expect(io.err).toContain(`A steward command (pid ${started.pid}) is using the store`);
    await sleep(200);
    expect(out).not.toContain('SIGNALLED');
    started.stdin!.write('release\n');
  }, 60_000);
  it('Ctrl-C in its own terminal still cancels it between batches, and says a second one stops it at once', async () => {
    home = tempHome('steward-cancel-one-shot-');
    const { proc: started, out, err, exit } = backfillAll();
    await until(() => lockHolder(home.dir)?.pid === started.pid, 5_000);
    await sleep(700);
    started.kill('SIGINT');
    expect(await exit).toBe(1);
    expect(err()).toContain('Press Ctrl-C again to stop at once.');
    expect(out()).toMatch(/claude: cancelled after \d+ of 300 transcript files/);
  }, 60_000);

  /** An unrelated live process that says when it gets SIGINT (and does not end on it). */
  async function victim(): Promise<{ proc: ChildProcess; out: () => string }> {
    writeFileSync(join(build.dir, 'victim.mjs'), `process.on('SIGINT', () => process.stdout.write('SIGNALLED\\n'));\nprocess.stdout.write('READY\\n');\nsetInterval(() => undefined, 1000);\n`);
    const proc = spawn(process.execPath, [join(build.dir, 'victim.mjs')], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(proc);
    let out = '';
    await new Promise<void>((resolve) => proc.stdout!.on('data', (data: Buffer) => ((out += String(data)), out.includes('READY') && resolve())));
    return { proc, out: () => out };
  }

  it('a stale lock with no identity naming a live unrelated process: --cancel never signals it (the reviewer\'s repro)', async () => {
    home = tempHome('steward-cancel-one-shot-');
    const { proc, out } = await victim();
    writeFileSync(join(home.dir, LOCK_FILE), `${proc.pid}\n\ncommand\nbackfill\n`);
    const io = captureIo(home.env);
    const code = await runCli(['backfill', '--cancel'], io);
    await sleep(300);
    expect(out()).not.toContain('SIGNALLED');
    expect(proc.exitCode).toBeNull();
    expect(proc.signalCode).toBeNull();
    // A lock from a version that does not watch for requests: nothing can be asked, so it says the store is in use.
    expect(code).toBe(1);
    expect(io.err).toContain(`A steward command (pid ${proc.pid}) is using the store`);
    expect(existsSync(join(home.dir, REQUEST_FILE))).toBe(false);
  }, 60_000);

  it('a stale backfill lock with a start marker naming a live unrelated process: the request is left, nothing takes it, it is withdrawn and said so', async () => {
    home = tempHome('steward-cancel-one-shot-');
    const { proc, out } = await victim();
    writeFileSync(join(home.dir, LOCK_FILE), `${proc.pid}\n\ncommand\nbackfill\nfrom-a-crashed-backfill\n`);
    const io = captureIo(home.env);
    const code = await runCli(['backfill', '--cancel'], io);
    await sleep(300);
    expect(out()).not.toContain('SIGNALLED');
    expect(proc.exitCode).toBeNull();
    expect(proc.signalCode).toBeNull();
    expect(code).toBe(1);
    expect(io.err).toContain(`No running import took the request to stop (pid ${proc.pid}`);
    expect(existsSync(join(home.dir, REQUEST_FILE))).toBe(false);
  }, 60_000);

  it('a lock naming --cancel\'s own pid is nobody to ask: it never signals itself', async () => {
    home = tempHome('steward-cancel-one-shot-');
    const self = `
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from './core/cli/index.js';
process.on('SIGINT', () => process.stdout.write('SIGNALLED\\n'));
writeFileSync(join(process.argv[2], 'steward.lock'), process.pid + '\\n\\ncommand\\nbackfill\\nmarker\\n');
process.exitCode = await runCli(['backfill', '--cancel']);
`;
    writeFileSync(join(build.dir, 'self.mjs'), self);
    const started = spawn(process.execPath, [join(build.dir, 'self.mjs'), home.dir], { stdio: ['ignore', 'pipe', 'pipe'], env: home.env });
    children.push(started);
    let out = '';
    started.stdout!.on('data', (data: Buffer) => (out += String(data)));
    const code = await new Promise<number | null>((resolve) => started.once('exit', (c) => resolve(c)));
    expect(out).not.toContain('SIGNALLED');
    expect(out).toContain('No backfill was running.');
    expect(code).toBe(0);
    expect(existsSync(join(home.dir, REQUEST_FILE))).toBe(false);
  }, 60_000);

  /**
   * `steward backfill` in a child whose Core answers as a long one would, the way a large import's does:
   * SLOW_INDEXING, the index walk never ends (each answer takes SLOW_INDEXING ms); SLOW_RUN_MS, the
   * import's result comes that late (a cancel honoured over seconds).
   */
  function slowBackfill(env: NodeJS.ProcessEnv): Running {
    const script = `
import { Core } from './core/core.js';
import { runCli } from './core/cli/index.js';
const wait = (ms) => new Promise((r) => setTimeout(r, ms));
const call = Core.prototype.call;
Core.prototype.call = async function (method, params, ctx) {
  if (method === 'Search.Indexing' && process.env.SLOW_INDEXING) {
    await wait(Number(process.env.SLOW_INDEXING));
    return { walking: true, indexing: { phase: 'index', indexedParts: 1, totalParts: 4 } };
  }
  const result = await call.call(this, method, params, ctx);
  if (method === 'Backfill.Run' && process.env.SLOW_RUN_MS) await wait(Number(process.env.SLOW_RUN_MS));
  return result;
};
process.exitCode = await runCli(['backfill', '--all']);
`;
    writeFileSync(join(build.dir, 'slow-backfill.mjs'), script);
    return runChild(join(build.dir, 'slow-backfill.mjs'), [], env);
  }

  it('--cancel while the finished import waits for its indexing stops that wait, as Ctrl-C there does (review: the request was never taken)', async () => {
    home = tempHome('steward-cancel-one-shot-');
    const roots = join(home.dir, 'roots');
    writeHistory(roots, 5);
    home.env.STEWARD_CLAUDE_ROOTS = roots;
    const backfill = slowBackfill({ ...home.env, SLOW_INDEXING: '50' });
    await until(() => backfill.err().includes('Making the imported history searchable'));
    expect(backfill.err()).toContain('Making the imported history searchable');
    const io = captureIo(home.env);
    const code = await runCli(['backfill', '--cancel'], io);
    expect(io.err).toBe('');
    expect(io.out).toMatch(new RegExp(`^Asked the running import \\(pid ${backfill.proc.pid}\\) to stop; it stopped`));
    expect(code).toBe(0);
    // The import had finished whole: its result stands, and it exits as a finished one does.
    expect(await backfill.exit).toBe(0);
    expect(backfill.out()).toMatch(/claude: 5 transcript files/);
    expect(backfill.out()).not.toContain('cancelled');
    expect(backfill.err()).toContain('`steward backfill --cancel` asked this import to stop: it had finished importing, so only the wait for its indexing stops.');
    expect(backfill.err()).toContain('Stopped before the imported history was all searchable: the next `steward sweep`, or a running Steward (`steward serve`), goes on from there.');
    expect(existsSync(join(home.dir, REQUEST_FILE))).toBe(false);
    expect(lockHolder(home.dir)).toBeUndefined();
  }, 60_000);

  it('a second --cancel while the first is being honoured is taken too, and gets the same words', async () => {
    home = tempHome('steward-cancel-one-shot-');
    const roots = join(home.dir, 'roots');
    writeHistory(roots, 5);
    home.env.STEWARD_CLAUDE_ROOTS = roots;
    const backfill = slowBackfill({ ...home.env, SLOW_RUN_MS: '3000' });
    await until(() => lockHolder(home.dir)?.pid === backfill.proc.pid);
    await sleep(700);
    const first = captureIo(home.env);
    const firstCode = runCli(['backfill', '--cancel'], first);
    // The first request is taken: the backfill is stopping, and has not stopped yet.
    await until(() => backfill.err().includes('`steward backfill --cancel` asked this import to stop'));
    expect(backfill.proc.exitCode).toBeNull();
    const second = captureIo(home.env);
    const secondCode = await runCli(['backfill', '--cancel'], second);
    expect(await firstCode).toBe(0);
    for (const io of [first, second]) {
      expect(io.err).toBe('');
      expect(io.out).toMatch(new RegExp(`^Asked the running import \\(pid ${backfill.proc.pid}\\) to stop; it stopped`));
    }
    expect(secondCode).toBe(0);
    expect(await backfill.exit).not.toBeNull();
    expect(existsSync(join(home.dir, REQUEST_FILE))).toBe(false);
  }, 60_000);

  it('Ctrl-C on a --cancel still waiting withdraws its request', async () => {
    home = tempHome('steward-cancel-one-shot-');
    const { proc } = await victim();
    writeFileSync(join(home.dir, LOCK_FILE), `${proc.pid}\n\ncommand\nbackfill\nfrom-a-crashed-backfill\n`);
    const { proc: cancel, err, exit } = runChild(join(build.dir, 'core', 'cli', 'main.js'), ['backfill', '--cancel'], home.env);
    await until(() => existsSync(join(home.dir, REQUEST_FILE)));
    expect(existsSync(join(home.dir, REQUEST_FILE))).toBe(true);
    cancel.kill('SIGINT');
    expect(await exit).toBe(130);
    expect(err()).toContain('Interrupted: the request to stop was withdrawn; nothing was stopped.');
    expect(existsSync(join(home.dir, REQUEST_FILE))).toBe(false);
  }, 60_000);

  it('a request left from before is not this backfill\'s: it is removed at the start and the import runs to its end', async () => {
    home = tempHome('steward-cancel-one-shot-');
    writeFileSync(join(home.dir, REQUEST_FILE), JSON.stringify({ pid: 999_999, marker: 'from-before' }), { mode: 0o600 });
    const { out, exit } = backfillAll(5);
    expect(await exit).toBe(0);
    expect(out()).toMatch(/claude: 5 transcript files/);
    expect(out()).not.toContain('cancelled');
    expect(existsSync(join(home.dir, REQUEST_FILE))).toBe(false);
  }, 60_000);
});
