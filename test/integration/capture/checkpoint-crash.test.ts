import { spawn, type ChildProcess } from 'node:child_process';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { transpileCore } from '../../support/transpiled-core.js';
import { claudeSession } from '../../support/transcripts.js';
import { byProvider, captureHarness, type CaptureHarness } from './harness.js';

const FILES = 120;
const LINES = 300;

/** The child is a real, separate Node process running our own core/: one cold scheduled tick over the roots. */
function buildChild(): { dir: string; cleanup: () => void } {
  const build = transpileCore('steward-checkpoint-crash');
  writeFileSync(
    join(build.dir, 'cold-tick.mjs'),
    `import { Capture } from './core/capture/index.js';
import { GatewayReader, openGateway } from './core/gateway/index.js';
import { ProjectStore } from './core/projects/index.js';
import { parseConfig } from './core/config/index.js';
import { createMemoryLogger } from './core/log/index.js';
const [home, claudeRoot] = process.argv.slice(2);
const db = openGateway(home);
const env = { HOME: home, STEWARD_CLAUDE_ROOTS: claudeRoot, STEWARD_CLAUDE_DESKTOP_ROOTS: '', STEWARD_OPENCLAW_ROOTS: '' };
const capture = new Capture({ db, config: parseConfig({}), env, logger: createMemoryLogger(), projects: new ProjectStore(db, new GatewayReader(db)), record: () => {}, readWorker: false });
process.stdout.write('STARTED\\n');
await capture.tick();
process.stdout.write('DONE\\n');
setInterval(() => {}, 60_000);
`,
  );
  return build;
}

function waitFor(child: ChildProcess, line: string): Promise<void> {
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

async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('kill -9 during a cold import with checkpoints', () => {
  let build: { dir: string; cleanup: () => void };
  let child: ChildProcess | undefined;
  let h: CaptureHarness | undefined;

  beforeAll(() => {
    build = buildChild();
  }, 120_000);
  afterAll(() => build.cleanup());
  afterEach(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await h?.close();
  });

  it('leaves no checkpoint ahead of its rows; the restart reads only what was not checkpointed, and nothing is lost or doubled', async () => {
    h = captureHarness();
    const files = Array.from({ length: FILES }, (_, i) => claudeSession(h!.claudeRoot, `crash-${String(i).padStart(3, '0')}`, LINES));
    const totalBytes = files.reduce((n, f) => n + statSync(f).size, 0);
    // The harness's own Capture never ran; the child owns the gateway until it is killed.
    await h.driver.stop();
    const gateway = h.home.dir;
    child = spawn(process.execPath, [join(build.dir, 'cold-tick.mjs'), gateway, h.claudeRoot], { stdio: ['ignore', 'pipe', 'pipe'], env: h.home.env });
    let finished = false;
    void waitFor(child, 'DONE').then(
      () => (finished = true),
      () => undefined,
    );
    await waitFor(child, 'STARTED');
    const watcher = new Database(join(gateway, 'gateway.db'), { readonly: true, fileMustExist: true });
    const checkpointed = () => {
      try {
        return watcher.prepare('SELECT COUNT(*) FROM file_checkpoints').pluck().get() as number;
      } catch {
        return 0;
      }
    };
    await until(() => checkpointed() >= 10 || finished, 60_000);
    const exited = new Promise((resolve) => child!.on('exit', (_code, signal) => resolve(signal)));
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    expect(finished).toBe(false);

    // At the moment of the crash, every committed checkpoint covers rows that are committed too.
    const atCrash = watcher.prepare('SELECT path, byte_offset AS offset FROM file_checkpoints').all() as Array<{ path: string; offset: number }>;
    watcher.close();
    expect(atCrash.length).toBeGreaterThanOrEqual(10);
    expect(atCrash.length).toBeLessThan(FILES);
    for (const { path, offset } of atCrash) {
      const sessionId = path.slice(path.lastIndexOf('/') + 1, -'.jsonl'.length);
      expect(offset).toBe(statSync(path).size);
      expect(h.count('SELECT COUNT(*) FROM parts WHERE session_id = ?', sessionId)).toBe(LINES);
    }

    // The next owner: files checkpointed before the crash are not read again; everything else is, once.
    const restarted = await h.restart();
    const stats = byProvider(await restarted.tick(), 'claude');
    expect(stats.unchanged).toBe(atCrash.length);
    expect(stats.read).toBe(FILES - atCrash.length);
    expect(stats.bytesRead).toBeLessThan(totalBytes);
    expect(h.count('SELECT COUNT(*) FROM parts')).toBe(FILES * LINES);
    expect(h.count('SELECT COUNT(*) FROM (SELECT session_id FROM parts GROUP BY session_id HAVING COUNT(*) = ?)', LINES)).toBe(FILES);
    expect(h.count('SELECT COUNT(*) FROM sessions')).toBe(FILES);
    expect(h.count('SELECT COUNT(*) FROM spool')).toBe(0);
    expect(h.count('SELECT COUNT(*) FROM file_checkpoints')).toBe(FILES);
  });
});
