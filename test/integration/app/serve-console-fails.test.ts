import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../core/cli/index.js';
import { captureIo } from '../../support/cli.js';
import { serveChild } from '../../support/serve-child.js';

/*
 * QA: `steward serve --port 0 > /dev/full` ended at its panel line (ENOSPC, thrown from stdout's error
 * listener), as did a serve whose pty closed before that line (EIO); closing serve's terminal (SIGHUP)
 * killed it with no cleanup. Each left daemon.json and steward.lock behind. A long-running owner
 * survives its console failing in any way, and a closed terminal stops it as SIGTERM does.
 */

const rig = serveChild('serve-console-fails');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Served {
  child: ChildProcess;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * `steward serve --port 0` as the binary runs it (core/cli/main.js), stdout to `stdout` (a pipe, or a
 * file descriptor); resolves at its panel line on a pipe (its signals are heard from then on), else once
 * it listens (its log line on stderr).
 */
async function serve(env: NodeJS.ProcessEnv, stdout: 'pipe' | number): Promise<Served> {
  const started = rig.child(spawn(process.execPath, [rig.main, 'serve', '--port', '0'], { env, stdio: ['ignore', stdout, 'pipe'] }));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => started.once('exit', (code, signal) => resolve({ code, signal })));
  await new Promise<void>((resolve, reject) => {
    let err = '';
    started.stderr!.on('data', (chunk: Buffer) => {
      err += String(chunk);
      if (stdout !== 'pipe' && err.includes('owner listening')) resolve();
    });
    let out = '';
    started.stdout?.on('data', (chunk: Buffer) => {
      out += String(chunk);
      if (out.includes('Steward control panel:')) resolve();
    });
    void exit.then(({ code, signal }) => reject(new Error(`serve exited (${code ?? signal}): ${err}`)));
  });
  return { child: started, exit };
}

const logText = (dir: string) => readFileSync(join(dir, 'logs', 'main.log'), 'utf8');

describe.skipIf(process.platform === 'win32')('`steward serve` when its console fails', () => {
  it.skipIf(!existsSync('/dev/full'))('keeps serving when its stdout cannot be written (ENOSPC), and notes it in its log', async () => {
    const home = rig.home('steward-serve-full-', { STEWARD_SWEEP_INTERVAL_MS: '3600000' });
    const full = openSync('/dev/full', 'w');
    let served: Served;
    try {
      served = await serve(home.env, full);
    } finally {
      closeSync(full);
    }
    let died: unknown;
    void served.exit.then((outcome) => (died = outcome));
    // The panel line is written once listening; its ENOSPC comes just after.
    await sleep(500);
    expect(died).toBeUndefined();

    expect(await runCli(['pause'], captureIo(home.env))).toBe(0);
    const info = captureIo(home.env);
    expect(await runCli(['info', '--json'], info)).toBe(0);
    expect(JSON.parse(info.out)).toMatchObject({ running: true, via: 'owner' });
    expect(await runCli(['resume'], captureIo(home.env))).toBe(0);
    expect(died).toBeUndefined();
    await sleep(300);
    expect(logText(home.dir)).toMatch(/stdout went away[^\n]*code="ENOSPC"/);

    expect(await runCli(['stop'], captureIo(home.env))).toBe(0);
    expect(await served.exit).toEqual({ code: 0, signal: null });
    expect(existsSync(join(home.dir, 'daemon.json'))).toBe(false);
    expect(existsSync(join(home.dir, 'steward.lock'))).toBe(false);
  });

  it.skipIf(!existsSync('/dev/full'))('a one-shot command whose output cannot be written still fails', async () => {
    const home = rig.home('steward-oneshot-full-');
    const full = openSync('/dev/full', 'w');
    try {
      const started = rig.child(spawn(process.execPath, [rig.main, 'info', '--json'], { env: home.env, stdio: ['ignore', full, 'pipe'] }));
      const code = await new Promise<number | null>((resolve) => started.once('exit', resolve));
      expect(code).not.toBe(0);
    } finally {
      closeSync(full);
    }
  });

  it('stops cleanly when its terminal closes (SIGHUP), exiting 0 as after SIGTERM', async () => {
    const home = rig.home('steward-serve-hup-', { STEWARD_SWEEP_INTERVAL_MS: '3600000' });
    const served = await serve(home.env, 'pipe');
    const child = served.child;
    expect(existsSync(join(home.dir, 'daemon.json'))).toBe(true);

    child.kill('SIGHUP');
    expect(await served.exit).toEqual({ code: 0, signal: null });
    expect(existsSync(join(home.dir, 'daemon.json'))).toBe(false);
    expect(existsSync(join(home.dir, 'steward.lock'))).toBe(false);
    expect(logText(home.dir)).toContain('core closed');
  });
});
