import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { runCli } from '../../../core/cli/index.js';
import { captureIo } from '../../support/cli.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { transpileCore } from '../../support/transpiled-core.js';

/*
 * QA: `steward stop` said "Stopped Steward (pid N)" while that process was still alive (its lock and
 * daemon.json gone, its exit ~1.5 s later). It now waits for the process to end before saying so.
 */

/** An owner whose process lingers 1.5 s after it let go of the stores. */
const LINGERING_OWNER = `
import { startOwner } from './core/server/index.js';
const owner = await startOwner({ home: { dir: process.argv[2], kind: 'env' }, env: process.env, port: 0, schedule: false });
process.stdout.write('SERVING\\n');
await owner.stopped;
setTimeout(() => process.exit(0), 1_500);
`;

let build: { dir: string; cleanup: () => void };
let home: TempHome;
let child: ChildProcess | undefined;

beforeAll(() => {
  build = transpileCore('stop-waits');
  writeFileSync(join(build.dir, 'owner.mjs'), LINGERING_OWNER);
}, 120_000);
afterAll(() => build.cleanup());
afterEach(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  child = undefined;
  home?.cleanup();
});

it('says Stopped only once the process has ended', async () => {
  home = tempHome('steward-stop-waits-');
  const started = spawn(process.execPath, [join(build.dir, 'owner.mjs'), home.dir], { stdio: ['ignore', 'pipe', 'pipe'], env: home.env });
  child = started;
  let out = '';
  await new Promise<void>((resolve) => started.stdout!.on('data', (data: Buffer) => ((out += String(data)), out.includes('SERVING') && resolve())));
  const io = captureIo(home.env);
  expect(await runCli(['stop'], io)).toBe(0);
  expect(io.out).toBe(`Stopped Steward (pid ${started.pid}).\n`);
  // Ended by then: it may still wait to be collected by this process (a zombie, which signal 0 reaches),
  // but its exit is reported at once, not the 1.5 s it lingers after letting go.
  const exited = started.exitCode !== null || (await Promise.race([new Promise((resolve) => started.once('exit', () => resolve(true))), new Promise((resolve) => setTimeout(() => resolve(false), 500))]));
  expect(exited).toBe(true);
}, 60_000);
