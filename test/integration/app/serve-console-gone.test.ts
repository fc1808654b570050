import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../core/cli/index.js';
import { captureIo } from '../../support/cli.js';
import { serveChild } from '../../support/serve-child.js';

/*
 * QA: `steward serve --port 0 2>&1 | head -1` ended the server at its next log line: `head` closed the
 * pipe, the logger's unguarded stderr write met EPIPE, and the process died with nothing in its log,
 * leaving daemon.json and steward.lock behind. A daemon outlives its console: it stops writing there,
 * keeps its log file, and keeps serving.
 */

const rig = serveChild('serve-console-gone');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `steward serve --port 0` as the binary runs it (core/cli/main.js), its output on pipes; resolves at its panel line. */
async function serve(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; exit: Promise<number | null> }> {
  const started = rig.child(spawn(process.execPath, [rig.main, 'serve', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] }));
  const exit = new Promise<number | null>((resolve) => started.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    let out = '';
    started.stdout!.on('data', (chunk: Buffer) => {
      out += String(chunk);
      if (out.includes('Steward control panel:')) resolve();
    });
    void exit.then((code) => reject(new Error(`serve exited (${code})`)));
  });
  return { child: started, exit };
}

const logText = (dir: string) => readFileSync(join(dir, 'logs', 'main.log'), 'utf8');

describe.skipIf(process.platform === 'win32')('`steward serve` when its console goes away', () => {
  it('keeps serving and logging to its file after its stdout and stderr pipes close', async () => {
    const home = rig.home('steward-serve-gone-', { STEWARD_SWEEP_INTERVAL_MS: '3600000' });
    const served = await serve(home.env);
    const child = served.child;
    let died: number | null | undefined;
    void served.exit.then((code) => (died = code));
    // As `| head -1` does once it has its line: the reading ends go away.
    child.stdout!.destroy();
    child.stderr!.destroy();
    await sleep(200);

    // Each is logged (and was mirrored to the closed stderr): the first met EPIPE.
    expect(await runCli(['pause'], captureIo(home.env))).toBe(0);
    expect(await runCli(['resume'], captureIo(home.env))).toBe(0);
    await sleep(500);
    expect(died).toBeUndefined();

    const info = captureIo(home.env);
    expect(await runCli(['info', '--json'], info)).toBe(0);
    expect(JSON.parse(info.out)).toMatchObject({ running: true, via: 'owner' });
    await sleep(300);
    expect(logText(home.dir)).toMatch(/paused[\s\S]*resumed/);
    // Why the console fell silent is in the file.
    expect(logText(home.dir)).toMatch(/stderr went away; logging to this file only code="EPIPE"/);

    // It still stops as ever, and cleans up after itself.
    expect(await runCli(['stop'], captureIo(home.env))).toBe(0);
    expect(await served.exit).toBe(0);
    expect(existsSync(join(home.dir, 'daemon.json'))).toBe(false);
    expect(logText(home.dir)).toContain('core closed');
  });
});
