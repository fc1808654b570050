import { spawn } from 'node:child_process';
import { existsSync, watch } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Core } from '../../../core/index.js';
import { serveChild } from '../../support/serve-child.js';

/*
 * A stop signal that came while `steward serve` was still starting met no handler of serve's: the
 * process ended the default way, and had it held the lock or written daemon.json by then, they stayed.
 * The handlers are installed before anything that needs cleaning up is written, so a signal at any
 * point of start-up ends it as `steward stop` does.
 */

const rig = serveChild('serve-start-signal');

/** `steward serve --port 0` (core/cli/main.js), sent `signal` the moment its lock appears: mid start-up. */
async function signalledWhileStarting(dir: string, env: NodeJS.ProcessEnv, signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }> {
  const lock = join(dir, 'steward.lock');
  const watcher = watch(dir);
  const started = rig.child(spawn(process.execPath, [rig.main, 'serve', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] }));
  let out = '';
  started.stdout!.on('data', (chunk: Buffer) => (out += String(chunk)));
  started.stderr!.resume();
  const sent = new Promise<void>((resolve) => {
    const send = () => {
      if (!existsSync(lock)) return;
      watcher.close();
      started.kill(signal);
      resolve();
    };
    watcher.on('change', send);
  });
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => started.once('exit', (code, by) => resolve({ code, signal: by })));
  await Promise.race([sent, ended]);
  watcher.close();
  return { ...(await ended), out };
}

describe.skipIf(process.platform === 'win32')('`steward serve` stopped while it starts', () => {
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    it(`${signal} mid start-up ends it cleanly: no daemon.json, no lock left`, async () => {
      const home = rig.home('steward-serve-start-signal-', { STEWARD_SWEEP_INTERVAL_MS: '3600000' });
      const ended = await signalledWhileStarting(home.dir, home.env, signal);
      // Ended by its own hand (it stopped as `steward stop` stops it), not by the signal's default.
      expect(ended.signal).toBeNull();
      expect(ended.code).toBe(0);
      expect(existsSync(join(home.dir, 'daemon.json'))).toBe(false);
      expect(existsSync(join(home.dir, 'steward.lock'))).toBe(false);
    }, 30_000);
  }
});

describe.skipIf(process.platform === 'win32')('`steward serve` stopped while it waits for a command', () => {
  it('ends the wait by its own hand at SIGTERM, writing no daemon.json and leaving the command its lock', async () => {
    const home = rig.home('steward-serve-wait-signal-', { STEWARD_SWEEP_INTERVAL_MS: '3600000' });
    // A one-shot command (this process) holds the store: serve waits for it.
    const command = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env, schedule: false });
    try {
      const started = rig.child(spawn(process.execPath, [rig.main, 'serve', '--port', '0'], { env: home.env, stdio: ['ignore', 'pipe', 'pipe'] }));
      let err = '';
      const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => started.once('exit', (code, by) => resolve({ code, signal: by })));
      await new Promise<void>((resolve) =>
        started.stderr!.on('data', (chunk: Buffer) => {
          err += String(chunk);
          if (err.includes('is using the store; starting when it finishes')) resolve();
        }),
      );
      started.kill('SIGTERM');
      const end = await ended;
      expect(end.signal).toBeNull();
      expect(end.code).not.toBe(0);
      expect(err).toContain('Steward did not start');
      expect(existsSync(join(home.dir, 'daemon.json'))).toBe(false);
      expect(existsSync(join(home.dir, 'steward.lock'))).toBe(true);
    } finally {
      await command.shutdown();
    }
    expect(existsSync(join(home.dir, 'steward.lock'))).toBe(false);
  }, 30_000);
});
