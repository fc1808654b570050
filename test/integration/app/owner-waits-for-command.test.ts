import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../core/cli/index.js';
import { startOwner, type Owner } from '../../../core/index.js';
import { readDaemonInfo } from '../../../core/server/index.js';
import { lockHolder } from '../../../core/store/lock/index.js';
import { captureIo } from '../../support/cli.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { transpileCore } from '../../support/transpiled-core.js';

/*
 * QA 45u, B2: a one-shot verb (`steward backfill --all &`) opens the stores under the owner lock when
 * no owner runs; `steward serve` (or the app at login) then refused with "already running". An owner
 * now tells such a command from a running owner and waits for it; `info` says a command holds the store.
 */

/** A one-shot verb's hold: Core.open with no owner around, as `connect` does; released on a line on stdin. */
const HOLD_COMMAND = `
import { Core } from './core/core.js';
const core = Core.open({ home: { dir: process.argv[2], kind: 'env' }, env: process.env });
process.stdout.write('HOLDING\\n');
process.stdin.once('data', async () => { await core.shutdown(); process.exit(0); });
`;

/** A running owner, as \`steward serve\` is. */
const HOLD_OWNER = `
import { startOwner } from './core/server/index.js';
await startOwner({ home: { dir: process.argv[2], kind: 'env' }, env: process.env, port: 0, schedule: false });
process.stdout.write('HOLDING\\n');
`;

let build: { dir: string; cleanup: () => void };
let home: TempHome;
let child: ChildProcess | undefined;
let owner: Owner | undefined;

beforeAll(() => {
  build = transpileCore('owner-waits');
  writeFileSync(join(build.dir, 'hold-command.mjs'), HOLD_COMMAND);
  writeFileSync(join(build.dir, 'hold-owner.mjs'), HOLD_OWNER);
}, 120_000);
afterAll(() => build.cleanup());
afterEach(async () => {
  await owner?.stop();
  owner = undefined;
  if (child && child.exitCode === null) child.kill('SIGKILL');
  child = undefined;
  home?.cleanup();
});

async function hold(script: 'hold-command.mjs' | 'hold-owner.mjs'): Promise<ChildProcess> {
  const started = spawn(process.execPath, [join(build.dir, script), home.dir], { stdio: ['pipe', 'pipe', 'pipe'], env: home.env });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    let err = '';
    started.stdout!.on('data', (data: Buffer) => {
      out += String(data);
      if (out.includes('HOLDING')) resolve();
    });
    started.stderr!.on('data', (data: Buffer) => (err += String(data)));
    started.once('exit', (code) => reject(new Error(`holder exited ${code}: ${err}`)));
  });
  return started;
}

const exited = (process: ChildProcess) => new Promise<void>((resolve) => (process.exitCode !== null ? resolve() : process.once('exit', () => resolve())));

describe('an owner starting while a one-shot steward command holds the store', () => {
  it('the lock says which: a command, or an owner', async () => {
    home = tempHome('steward-owner-waits-');
    child = await hold('hold-command.mjs');
    expect(lockHolder(home.dir)).toEqual({ pid: child.pid, role: 'command' });
    child.stdin!.write('release\n');
    await exited(child);
    child = await hold('hold-owner.mjs');
    expect(lockHolder(home.dir)).toEqual({ pid: child.pid, role: 'owner' });
  });

  it("counts a lock from a version before roles as an owner's: refused, as then", () => {
    home = tempHome('steward-owner-waits-');
    // A live process other than this one (this test's parent stands in for it), in the old format.
    writeFileSync(join(home.dir, 'steward.lock'), `${process.ppid}\n`);
    expect(lockHolder(home.dir)).toEqual({ pid: process.ppid, role: 'owner' });
  });

  it('waits for the command to finish, then starts', async () => {
    home = tempHome('steward-owner-waits-');
    child = await hold('hold-command.mjs');
    const waits: Array<{ pid: number; waitedMs: number }> = [];
    let settled = false;
    const starting = startOwner({ home: { dir: home.dir, kind: 'env' }, env: home.env, port: 0, schedule: false, whileCommandRuns: { onWait: (wait) => waits.push(wait) } }).finally(() => (settled = true));
    await new Promise((r) => setTimeout(r, 1_000));
    expect(settled).toBe(false);
    expect(waits[0]).toEqual({ pid: child.pid, waitedMs: 0 });
    child.stdin!.write('release\n');
    owner = await starting;
    expect(readDaemonInfo(home.dir)?.pid).toBe(process.pid);
    expect(lockHolder(home.dir)).toEqual({ pid: process.pid, role: 'owner' });
  });

  it('gives up after its bound, saying the command still holds the store', async () => {
    home = tempHome('steward-owner-waits-');
    child = await hold('hold-command.mjs');
    const starting = startOwner({ home: { dir: home.dir, kind: 'env' }, env: home.env, port: 0, schedule: false, whileCommandRuns: { timeoutMs: 600 } });
    await expect(starting).rejects.toMatchObject({ code: 'busy', message: expect.stringContaining(`A steward command (pid ${child.pid}) is still using the store`) });
    expect(existsSync(join(home.dir, 'daemon.json'))).toBe(false);
  });

  it('refuses at once, as before, when a running owner holds it', async () => {
    home = tempHome('steward-owner-waits-');
    child = await hold('hold-owner.mjs');
    const waits: unknown[] = [];
    await expect(startOwner({ home: { dir: home.dir, kind: 'env' }, env: home.env, port: 0, schedule: false, whileCommandRuns: { onWait: (w) => waits.push(w) } })).rejects.toMatchObject({
      code: 'already_running',
      message: `Steward is already running (pid ${child.pid}).`,
    });
    expect(waits).toEqual([]);
  });

  it('`steward serve` says what it waits for, then serves', async () => {
    home = tempHome('steward-owner-waits-');
    child = await hold('hold-command.mjs');
    const io = captureIo(home.env);
    const serving = runCli(['serve', '--port', '0'], io);
    for (let i = 0; i < 100 && !io.err.includes('A steward command'); i += 1) await new Promise((r) => setTimeout(r, 50));
    expect(io.err).toBe(`A steward command (pid ${child.pid}) is using the store; starting when it finishes…\n`);
    child.stdin!.write('release\n');
    for (let i = 0; i < 200 && readDaemonInfo(home.dir)?.pid !== process.pid; i += 1) await new Promise((r) => setTimeout(r, 50));
    expect(io.out).toMatch(/^Steward control panel: http:\/\/127\.0\.0\.1:\d+\/#token=/);
    expect(await runCli(['stop'], captureIo(home.env))).toBe(0);
    expect(await serving).toBe(0);
  });

  it('`steward info` says a command is using the store, not just "Not running"', async () => {
    home = tempHome('steward-owner-waits-');
    child = await hold('hold-command.mjs');
    const io = captureIo(home.env);
    expect(await runCli(['info'], io)).toBe(0);
    expect(io.out).toMatch(new RegExp(`^Steward \\S+ \\(protocol \\d+\\) — Not running; a steward command \\(pid ${child.pid}\\) is using the store\\n`));
    const json = captureIo(home.env);
    expect(await runCli(['info', '--json'], json)).toBe(0);
    expect(JSON.parse(json.out)).toMatchObject({ running: false, command: { pid: child.pid } });
  });
});
