import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type * as ConfigModule from '../../../core/config/index.js';
import type * as GatewayModule from '../../../core/gateway/index.js';
import type * as LogModule from '../../../core/log/index.js';
import type * as CaptureModule from '../../../core/capture/index.js';
import type { Capture } from '../../../core/capture/index.js';
import type * as ProjectsModule from '../../../core/projects/index.js';
import type * as TranscriptsModule from '../../../core/transcripts/index.js';
import type { Db } from '../../../core/store/index.js';
import { noRoots, tempHome, type TempHome } from '../../support/home.js';
import { transpileCore } from '../../support/transpiled-core.js';
import { appendJsonl, claudeLine, claudeSession } from '../../support/transcripts.js';
import { AgentStoreFixture, agentStorePath, fixtureEvents } from '../../support/openclaw-store.js';
import { ClaudeProvider } from '../../../core/transcripts/providers/claude/index.js';
import { vanishing } from './harness.js';

interface Core {
  capture: typeof CaptureModule;
  projects: typeof ProjectsModule;
  gateway: typeof GatewayModule;
  config: typeof ConfigModule;
  log: typeof LogModule;
}

const FIXTURES = {
  codex: fileURLToPath(new URL('../../fixtures/transcripts/codex/', import.meta.url)),
  gemini: fileURLToPath(new URL('../../fixtures/transcripts/gemini/', import.meta.url)),
};

// The worker is loaded by URL, so it needs compiled files: our own core/, transpiled for this test.
let build: ReturnType<typeof transpileCore>;
let core: Core;
let home: TempHome;
const open: Array<{ driver: Capture; db: Db }> = [];

beforeAll(async () => {
  build = transpileCore('steward-read-worker');
  const load = (path: string) => import(pathToFileURL(join(build.dir, 'core', path)).href);
  const [capture, projects, gateway, config, log] = await Promise.all([load('capture/index.js'), load('projects/index.js'), load('gateway/index.js'), load('config/index.js'), load('log/index.js')]);
  core = { capture, projects, gateway, config, log } as Core;
}, 120_000);
afterAll(() => build.cleanup());
afterEach(async () => {
  for (const { driver, db } of open.splice(0)) {
    await driver.stop();
    db.close();
  }
  home.cleanup();
});

function driver(name: string, roots: string | Record<string, string>, readWorker: boolean, options: { victim?: string; config?: unknown } = {}): { driver: Capture; db: Db } {
  const dir = join(home.dir, name);
  mkdirSync(dir);
  const db = core.gateway.openGateway(dir);
  const env = { ...home.env, ...noRoots(), ...(typeof roots === 'string' ? { STEWARD_CLAUDE_ROOTS: roots } : roots) };
  const claudeRoot = typeof roots === 'string' ? roots : '';
  const providers = options.victim ? { providers: [vanishing(new ClaudeProvider({ roots: [claudeRoot], desktopRoots: [] }), options.victim)] } : {};
  const projects = new core.projects.ProjectStore(db, new core.gateway.GatewayReader(db));
  const config = core.config.parseConfig(options.config ?? {});
  const opened = { driver: new core.capture.Capture({ db, config, env, logger: core.log.createMemoryLogger(), projects, record: () => {}, readWorker, ...providers }), db };
  open.push(opened);
  return opened;
}

const rows = (db: Db) => ({
  sessionsWithTitles: db.prepare('SELECT session_id, provider, title, parent_session_id FROM sessions ORDER BY session_id').all(),
  parts: db.prepare('SELECT part_id, session_id, role, kind, ts, text, meta FROM parts ORDER BY part_id').all(),
  sessions: db.prepare('SELECT session_id, project_key, cwd, first_ts, last_ts FROM sessions ORDER BY session_id').all(),
});

describe('the read worker', () => {
  it('reads chunks without waiting on the thread pool: no event-loop turn between them, the same lines', async () => {
    home = tempHome('steward-read-worker-');
    const file = join(home.dir, 'blocking.jsonl');
    writeFileSync(file, Array.from({ length: 50 }, (_, i) => `{"n":${i}}\n`).join(''));
    const linesUrl = pathToFileURL(join(build.dir, 'core', 'transcripts', 'lines.js')).href;
    const source = `
      const { parentPort, workerData } = require('node:worker_threads');
      import(workerData.linesUrl).then(async ({ blockOnReads, readCompleteLines }) => {
        blockOnReads();
        let turns = 0;
        let counting = true;
        const count = () => { turns += 1; if (counting) setImmediate(count); };
        setImmediate(count);
        const lines = [];
        const stats = { lines: 0, failedLines: 0, oversizeLines: 0 };
        // Chunk boundaries with an event-loop turn between them: a read that went through the thread pool.
        let turned = 0;
        let seen;
        for await (const group of readCompleteLines(workerData.file, { maxLineBytes: 1024, chunkBytes: 16 }, stats)) {
          if (seen !== undefined && turns !== seen) turned += 1;
          seen = turns;
          lines.push(...group.lines);
        }
        counting = false;
        parentPort.postMessage({ lines, turned, checkpoint: stats.checkpoint });
      });`;
    const worker = new Worker(source, { eval: true, workerData: { linesUrl, file } });
    const [reply] = (await once(worker, 'message')) as [{ lines: string[]; turned: number; checkpoint: { offset: number } }];
    await worker.terminate();
    expect(reply.lines).toEqual(Array.from({ length: 50 }, (_, i) => `{"n":${i}}`));
    expect(reply.checkpoint.offset).toBe(statSync(file).size);
    // About 40 chunks (a line lies across two or three of them), none of them read through the pool.
    expect(reply.turned).toBe(0);
  });

  it('reads the line behind a run of zeros longer than the line cap, as the owner thread does', async () => {
    home = tempHome('steward-read-worker-');
    const file = join(home.dir, 'zeros.jsonl');
    // A crash left zeros (longer than the cap) where bytes were never written; the agent wrote on behind them.
    writeFileSync(file, `{"a":1}\n${'\0'.repeat(100)}{"b":2}\r\n${'\0'.repeat(100)}`);
    const linesUrl = pathToFileURL(join(build.dir, 'core', 'transcripts', 'lines.js')).href;
    const source = `
      const { parentPort, workerData } = require('node:worker_threads');
      import(workerData.linesUrl).then(async ({ blockOnReads, readCompleteLines }) => {
        blockOnReads();
        const stats = { lines: 0, failedLines: 0, oversizeLines: 0 };
        const lines = [];
        const offsets = [];
        for await (const group of readCompleteLines(workerData.file, { maxLineBytes: 32, chunkBytes: 16 }, stats)) {
          lines.push(...group.lines);
          offsets.push(...group.offsets);
        }
        parentPort.postMessage({ lines, offsets, stats });
      });`;
    const worker = new Worker(source, { eval: true, workerData: { linesUrl, file } });
    const [reply] = (await once(worker, 'message')) as [{ lines: string[]; offsets: number[]; stats: { oversizeLines: number; skipped?: object; checkpoint: { offset: number } } }];
    await worker.terminate();
    expect(reply.lines).toEqual(['{"a":1}', '{"b":2}']);
    expect(reply.offsets).toEqual([0, 8]);
    expect(reply.stats.oversizeLines).toBe(0);
    expect(reply.stats.skipped).toBeUndefined();
    // Through the last complete line: the zeros of the tail wait, as a partial line does.
    expect(reply.stats.checkpoint.offset).toBe(8 + 100 + 9);
  });

  it('reads each file once, read-ahead included, and writes exactly what an in-thread read writes', async () => {
    home = tempHome('steward-read-worker-');
    const claudeRoot = join(home.dir, 'claude');
    // Several files, one of them long enough for many batches, so reads overlap file boundaries.
    const files = [claudeSession(claudeRoot, 'sess-long', 700), ...['a', 'b', 'c', 'd', 'e'].map((id) => claudeSession(claudeRoot, `sess-${id}`, 3 + id.charCodeAt(0) - 97))];
    const viaWorker = driver('worker', claudeRoot, true);
    const inThread = driver('thread', claudeRoot, false);

    const [workerStats] = await viaWorker.driver.tick();
    expect(viaWorker.driver.reader.usesWorker).toBe(true);
    expect(workerStats).toMatchObject({ read: 6, failed: 0, partsWritten: 700 + 3 + 4 + 5 + 6 + 7 });
    expect(viaWorker.driver.reader.readsStarted).toBe(6);

    await inThread.driver.tick();
    expect(inThread.driver.reader.usesWorker).toBe(false);
    expect(rows(viaWorker.db)).toEqual(rows(inThread.db));

    // An unchanged tick asks the worker for nothing; one appended line asks for exactly that file.
    expect((await viaWorker.driver.tick())[0]).toMatchObject({ read: 0, unchanged: 6 });
    expect(viaWorker.driver.reader.readsStarted).toBe(6);
    appendJsonl(files[3]!, [claudeLine({ sessionId: 'sess-c', text: 'one more' })]);
    expect((await viaWorker.driver.tick())[0]).toMatchObject({ read: 1, unchanged: 5, partsWritten: 1 });
    expect(viaWorker.driver.reader.readsStarted).toBe(7);
  });

  it('reads many files ahead with bounded credit, and read-aheads cancelled with batches waiting hand all of it back', async () => {
    home = tempHome('steward-read-worker-');
    const claudeRoot = join(home.dir, 'claude');
    // Many more batches than the worker may hold unacknowledged: its credit runs out early in the queue.
    for (let i = 0; i < 40; i += 1) claudeSession(claudeRoot, `sess-${String(i).padStart(2, '0')}`, 300);
    const { TranscriptReader } = (await import(pathToFileURL(join(build.dir, 'core', 'transcripts', 'index.js')).href)) as typeof TranscriptsModule;
    const provider = new ClaudeProvider({ roots: [claudeRoot], desktopRoots: [] });
    const { files } = await provider.discover();
    const options = { maxLineBytes: 1 << 20, windowStartMs: null, batchParts: 50 };
    const reader = new TranscriptReader({ worker: true });
    try {
      reader.readAhead(provider, files.map((file) => ({ file, options })));
      // The worker fills its credit with batches nobody acknowledges, then they are all cancelled.
      await new Promise((resolve) => setTimeout(resolve, 300));
      reader.cancelReadAhead();
      const cancelled = reader.readsStarted;
      let parts = 0;
      for (const [i, file] of files.entries()) {
        const batches = reader.read(provider, file, options, { lines: 0, failedLines: 0, oversizeLines: 0 });
        reader.readAhead(provider, files.slice(i + 1).map((next) => ({ file: next, options })));
        for await (const batch of batches) parts += batch.parts.length;
      }
      // Had the cancelled batches kept their credit, the first read would have waited for it forever.
      expect(parts).toBe(files.length * 300);
      // Then each file was asked for once: every read adopted the read-ahead started for it.
      expect(reader.readsStarted - cancelled).toBe(files.length);
    } finally {
      await reader.stop();
    }
  }, 20_000);

  it('counts a file deleted between listing and reading as vanished, not failed, read-ahead included', async () => {
    home = tempHome('steward-read-worker-');
    const claudeRoot = join(home.dir, 'claude');
    const files = ['a', 'b', 'c'].map((id) => claudeSession(claudeRoot, `sess-${id}`, 3));
    // The middle file is the one the worker reads ahead while the first is written.
    const viaWorker = driver('worker', claudeRoot, true, { victim: files[1] });
    const [stats] = await viaWorker.driver.tick();
    expect(viaWorker.driver.reader.usesWorker).toBe(true);
    expect(stats).toMatchObject({ discovered: 3, read: 2, vanished: 1, failed: 0, partsWritten: 6, errors: [] });
  });

  it('reads every provider in the worker as in-thread: Codex rollouts, Gemini chats, OpenClaw stores (zstd rows, watermarks)', async () => {
    home = tempHome('steward-read-worker-');
    const codex = join(home.dir, 'codex');
    mkdirSync(join(codex, 'sessions', '2026', '07', '13'), { recursive: true });
    for (const name of readdirSync(FIXTURES.codex).filter((n) => n.endsWith('.jsonl'))) copyFileSync(join(FIXTURES.codex, name), join(codex, 'sessions', '2026', '07', '13', name));
    const gemini = join(home.dir, 'gemini');
    mkdirSync(join(gemini, 'tmp', 'site', 'chats'), { recursive: true });
    copyFileSync(join(FIXTURES.gemini, 'legacy-session.json'), join(gemini, 'tmp', 'site', 'chats', 'session-2026-01-14T09-30-5d1e2f3a.json'));
    copyFileSync(join(FIXTURES.gemini, 'current-session.jsonl'), join(gemini, 'tmp', 'site', 'chats', 'session-2026-05-22T14-59-92f625c6.jsonl'));
    const openclaw = join(home.dir, 'openclaw');
    const store = new AgentStoreFixture(agentStorePath(openclaw), 'current', 'main');
    try {
      store.append('7f3c9e2a-5b41-4d8e-9a0c-3e1f2d4b6a01', fixtureEvents().slice(0, 3), 'Trip planning');
      const roots = { STEWARD_CODEX_ROOTS: codex, STEWARD_GEMINI_ROOTS: gemini, STEWARD_OPENCLAW_ROOTS: openclaw };
      const open = { query: { cache: { retention: { default_days: 0 } } } };
      const viaWorker = driver('worker', roots, true, { config: open });
      const inThread = driver('thread', roots, false, { config: open });
      const stats = await viaWorker.driver.tick();
      expect(viaWorker.driver.reader.usesWorker).toBe(true);
      expect(stats.map((s) => [s.provider, s.read, s.failed, s.failedLines])).toEqual([
        ['claude', 0, 0, 0],
        ['openclaw', 1, 0, 0],
        ['codex', 3, 0, 0],
        ['gemini', 2, 0, 0],
      ]);
      await inThread.driver.tick();
      expect(rows(viaWorker.db)).toEqual(rows(inThread.db));
      expect(viaWorker.db.prepare("SELECT COUNT(*) FROM parts WHERE provider = 'openclaw' AND kind = 'thinking'").pluck().get()).toBe(1);

      // The store's watermark comes back from the worker: an append (a reply and a compaction) is read from it, in both.
      store.append('7f3c9e2a-5b41-4d8e-9a0c-3e1f2d4b6a01', fixtureEvents().slice(3));
      store.db.prepare("UPDATE transcript_events SET event_json = '{' WHERE seq = 1").run();
      for (const d of [viaWorker, inThread]) expect((await d.driver.tick())[1]).toMatchObject({ provider: 'openclaw', read: 1, failedLines: 0, partsWritten: 2 });
      expect(rows(viaWorker.db)).toEqual(rows(inThread.db));
    } finally {
      store.close();
    }
  });
  it('fails a truncated archive with the same code in the worker as in-thread, and does not ask the worker for it again until it changes', async () => {
    home = tempHome('steward-read-worker-');
    const codex = join(home.dir, 'codex');
    const day = join(codex, 'sessions', '2026', '12', '01');
    mkdirSync(day, { recursive: true });
    const whole = readFileSync(join(FIXTURES.codex, 'cold', 'rollout-2026-07-13T18-41-30-019f5c5a-eb02-7ff0-90af-653b66eba9f4.jsonl.zst'));
    const broken = join(day, 'rollout-2026-12-01T09-00-00-019fa000-0000-7000-8000-000000000001.jsonl.zst');
    writeFileSync(broken, whole.subarray(0, Math.floor(whole.length / 2)));
    const roots = { STEWARD_CODEX_ROOTS: codex };
    const viaWorker = driver('worker', roots, true);
    const inThread = driver('thread', roots, false);
    const failing = { failed: 1, errors: [{ code: 'read_failed', count: 1 }], unreadable: [{ code: 'read_failed', count: 1 }] };
    const codexOf = async (d: Capture) => (await d.tick()).find((p) => p.provider === 'codex');
    expect(await codexOf(viaWorker.driver)).toMatchObject(failing);
    expect(viaWorker.driver.reader.usesWorker).toBe(true);
    expect(await codexOf(inThread.driver)).toMatchObject(failing);
    const started = viaWorker.driver.reader.readsStarted;
    expect(await codexOf(viaWorker.driver)).toMatchObject({ ...failing, unreadableUnchanged: 1, bytesRead: 0 });
    expect(viaWorker.driver.reader.readsStarted).toBe(started);
  });

  it('fails a legacy Gemini chat cut short as malformed in the worker as in-thread: a file that could not be read, not a line', async () => {
    home = tempHome('steward-read-worker-');
    const gemini = join(home.dir, 'gemini');
    const chats = join(gemini, 'tmp', 'site', 'chats');
    mkdirSync(chats, { recursive: true });
    const whole = readFileSync(join(FIXTURES.gemini, 'legacy-session.json'), 'utf8');
    writeFileSync(join(chats, 'session-2026-01-14T09-30-5d1e2f3a.json'), whole.slice(0, Math.floor(whole.length / 2)));
    const roots = { STEWARD_GEMINI_ROOTS: gemini };
    const viaWorker = driver('worker', roots, true);
    const inThread = driver('thread', roots, false);
    const failing = { read: 0, failed: 1, failedLines: 0, errors: [{ code: 'malformed', count: 1 }], unreadable: [{ code: 'malformed', count: 1 }] };
    const geminiOf = async (d: Capture) => (await d.tick()).find((p) => p.provider === 'gemini');
    expect(await geminiOf(viaWorker.driver)).toMatchObject(failing);
    expect(viaWorker.driver.reader.usesWorker).toBe(true);
    expect(await geminiOf(inThread.driver)).toMatchObject(failing);
  });

  it('fails a rollout with no line that reads as malformed in the worker as in-thread; one with a bad middle line keeps the rest', async () => {
    home = tempHome('steward-read-worker-');
    const codex = join(home.dir, 'codex');
    const day = join(codex, 'sessions', '2026', '12', '01');
    mkdirSync(day, { recursive: true });
    writeFileSync(join(day, 'rollout-2026-12-01T00-00-00-019fa000-0000-7000-8000-000000000000.jsonl'), '{"timestamp":"2026-12-01T00:00:00.000Z","type":"sess\n');
    const id = '019fa111-3333-7eee-8fff-2a3b4c5d6e03';
    const envelope = (timestamp: string, type: string, payload: unknown) => JSON.stringify({ timestamp, type, payload });
    const lines = [
      envelope('2026-12-01T08:00:00.000Z', 'session_meta', { id, timestamp: '2026-12-01T08:00:00.000Z', cwd: '/home/dana/src/site', originator: 'codex_cli_rs', cli_version: '0.162.0', source: 'cli' }),
      envelope('2026-12-01T08:00:01.000Z', 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'deploy the site' }] }),
      'this is not json at all',
      envelope('2026-12-01T08:00:05.000Z', 'response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Deployed.' }] }),
    ];
    writeFileSync(join(day, `rollout-2026-12-01T08-00-00-${id}.jsonl`), lines.map((l) => `${l}\n`).join(''));
    const roots = { STEWARD_CODEX_ROOTS: codex };
    const viaWorker = driver('worker', roots, true, { config: { query: { cache: { retention: { default_days: 0 } } } } });
    const inThread = driver('thread', roots, false, { config: { query: { cache: { retention: { default_days: 0 } } } } });
    const expected = { read: 1, failed: 1, failedLines: 1, skipped: { malformed: 1 }, errors: [{ code: 'malformed', count: 1 }], unreadable: [{ code: 'malformed', count: 1 }] };
    const codexOf = async (d: Capture) => (await d.tick()).find((p) => p.provider === 'codex');
    expect(await codexOf(viaWorker.driver)).toMatchObject(expected);
    expect(viaWorker.driver.reader.usesWorker).toBe(true);
    expect(await codexOf(inThread.driver)).toMatchObject(expected);
    expect(rows(viaWorker.db).parts).toEqual(rows(inThread.db).parts);
    expect(rows(viaWorker.db).parts).toHaveLength(2);
  });

  it('keeps a one-shot `steward backfill` alive while it waits on the worker, and lets it exit when done', () => {
    home = tempHome('steward-read-worker-');
    const root = join(home.dir, 'claude');
    claudeSession(root, 'sess-one', 4);
    claudeSession(root, 'sess-two', 3);
    const run = spawnSync(process.execPath, [join(build.dir, 'core', 'cli', 'main.js'), 'backfill', '--all'], {
      env: { ...home.env, ...noRoots(), STEWARD_CLAUDE_ROOTS: root, STEWARD_READ_WORKER: '1' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    // A worker unreferenced while the command awaited a read left the event loop empty: exit 13, nothing printed.
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    expect(run.stdout).toMatch(/^claude: 2 transcript files, 2 read; 7 new messages/m);
  });
});
