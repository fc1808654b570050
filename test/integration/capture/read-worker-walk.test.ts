import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type * as ConfigModule from '../../../core/config/index.js';
import type * as TranscriptsModule from '../../../core/transcripts/index.js';
import type { DiscoveryResult, TranscriptProvider } from '../../../core/transcripts/index.js';
import { noRoots, tempHome, type TempHome } from '../../support/home.js';
import { transpileCore } from '../../support/transpiled-core.js';
import { claudeSession, desktopSession } from '../../support/transcripts.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/transcripts/', import.meta.url));

// The worker is loaded by URL, so it needs compiled files: our own core/, transpiled for this test.
let build: ReturnType<typeof transpileCore>;
let transcripts: typeof TranscriptsModule;
let config: typeof ConfigModule;
let home: TempHome;
const readers: Array<{ stop(): Promise<void> }> = [];

beforeAll(async () => {
  build = transpileCore('steward-read-worker-walk');
  const load = (path: string) => import(pathToFileURL(join(build.dir, 'core', path)).href);
  [transcripts, config] = await Promise.all([load('transcripts/index.js'), load('config/index.js')]);
});
afterAll(() => build.cleanup());
afterEach(async () => {
  for (const reader of readers.splice(0)) await reader.stop();
  home.cleanup();
});

function reader(): TranscriptsModule.TranscriptReader {
  const made = new transcripts.TranscriptReader({ worker: true });
  readers.push(made);
  return made;
}

function providers(env: Record<string, string>): TranscriptProvider[] {
  return transcripts.createProviders(config.parseConfig({}), { ...home.env, ...noRoots(), ...env });
}

/** A discovery as a comparable value: files by path (their identity, size, time, source and sidecar), failures. */
function comparable(result: DiscoveryResult): unknown {
  const files = [...result.files].sort((a, b) => (a.path < b.path ? -1 : 1)).map((f) => ({ ...f, dev: String(f.dev), ino: String(f.ino) }));
  return { files, failed: result.failed, errors: result.errors ?? [], cancelled: result.cancelled ?? false };
}

/** Counts the owner's own asynchronous listings and stats while `work` runs. */
async function ownerFsCalls<T>(work: () => Promise<T>): Promise<{ calls: number; result: T }> {
  const fsp = createRequire(import.meta.url)('node:fs/promises') as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const real = { stat: fsp.stat!, readdir: fsp.readdir! };
  let calls = 0;
  for (const name of ['stat', 'readdir'] as const) {
    fsp[name] = (...args: unknown[]) => ((calls += 1), real[name](...args));
  }
  syncBuiltinESMExports();
  try {
    const result = await work();
    return { calls, result };
  } finally {
    Object.assign(fsp, real);
    syncBuiltinESMExports();
  }
}

/** A Claude root with what real trees hold: a linked project, a loop, a dangling link, a file linked twice, subagents, a second root naming the same folder. */
function claudeTree(): Record<string, string> {
  const root = join(home.dir, 'claude');
  const project = join(root, 'projects', '-work-fixture-project');
  const first = claudeSession(root, 'sess-one', 4);
  claudeSession(root, 'sess-two', 3);
  const subagents = join(project, 'sess-one', 'subagents');
  mkdirSync(subagents, { recursive: true });
  writeFileSync(join(subagents, 'agent-a1b2c3.jsonl'), '{"type":"user"}\n');
  writeFileSync(join(subagents, 'agent-a1b2c3.meta.json'), '{"agentType":"Explore"}');
  const outside = join(home.dir, 'elsewhere', '-work-linked');
  mkdirSync(outside, { recursive: true });
  writeFileSync(join(outside, 'sess-linked.jsonl'), '{"type":"user"}\n');
  symlinkSync(outside, join(root, 'projects', '-work-linked'));
  symlinkSync(join(root, 'projects'), join(project, 'loop'));
  symlinkSync(join(home.dir, 'nowhere.jsonl'), join(project, 'dangling.jsonl'));
  symlinkSync(first, join(project, 'alias.jsonl'));
  symlinkSync(root, join(home.dir, 'claude-again'));
  const userData = join(home.dir, 'Claude');
  desktopSession(userData, 'desk-one', 3, 'A desktop task', ['/work/chosen']);
  return { STEWARD_CLAUDE_ROOTS: `${root}:${join(home.dir, 'claude-again')}`, STEWARD_CLAUDE_DESKTOP_ROOTS: userData };
}

describe('walking on the read worker', () => {
  it('finds exactly what the walk on the owner finds, for every provider, without the owner listing or stat-ing anything', async () => {
    home = tempHome('steward-walk-');
    const codex = join(home.dir, 'codex');
    cpSync(join(FIXTURES, 'codex'), join(codex, 'sessions', '2026', '07', '13'), { recursive: true });
    const gemini = join(home.dir, 'gemini');
    cpSync(join(FIXTURES, 'gemini'), join(gemini, 'tmp', 'a1b2c3', 'chats'), { recursive: true });
    const env = { ...claudeTree(), STEWARD_CODEX_ROOTS: codex, STEWARD_GEMINI_ROOTS: gemini };
    const walker = reader();
    for (const provider of providers(env)) {
      const owner = await provider.discover();
      const { calls, result } = await ownerFsCalls(() => walker.discover(provider));
      expect(comparable(result), provider.id).toEqual(comparable(owner));
      expect(calls, provider.id).toBe(0);
    }
    const claude = providers(env)[0]!;
    const found = (await walker.discover(claude)).files.map((f) => f.path.slice(home.dir.length));
    // The linked project is found under its real path; the alias, the loop and the second root add nothing.
    expect(found.filter((p) => p.endsWith('.jsonl')).length).toBe(5);
    expect(found).toContain('/elsewhere/-work-linked/sess-linked.jsonl');
    // The counter sees the owner's own walk: the zero above is the worker's doing, not a blind counter.
    expect((await ownerFsCalls(() => claude.discover())).calls).toBeGreaterThan(5);
    expect(walker.usesWorker).toBe(true);
  });

  it('a cancel sent with the request stops the walk before its first stat, and says it was cancelled', async () => {
    home = tempHome('steward-walk-');
    const env = claudeTree();
    const [claude] = providers(env);
    const walker = reader();
    const cancel = new AbortController();
    const walking = walker.discover(claude!, cancel.signal);
    cancel.abort();
    const result = await walking;
    expect(result.cancelled).toBe(true);
    expect(result.files).toEqual([]);
    // The worker walks the next request whole.
    expect((await walker.discover(claude!)).files.length).toBe(5);
  });

  it('a provider not built from the registry, or no worker, is walked on the owner', async () => {
    home = tempHome('steward-walk-');
    const env = claudeTree();
    const [claude] = providers(env);
    const bare: TranscriptProvider = { id: 'claude', parserVersion: claude!.parserVersion, discover: (signal) => claude!.discover(signal), read: (f, o, s) => claude!.read(f, o, s) };
    const walker = reader();
    expect((await ownerFsCalls(() => walker.discover(bare))).calls).toBeGreaterThan(5);
    const inThread = new transcripts.TranscriptReader({ worker: false });
    readers.push(inThread);
    const { calls, result } = await ownerFsCalls(() => inThread.discover(claude!));
    expect(calls).toBeGreaterThan(5);
    expect(comparable(result)).toEqual(comparable(await claude!.discover()));
  });

  it('a walk in flight when the worker stops is walked again on the owner, whole', async () => {
    home = tempHome('steward-walk-');
    const env = claudeTree();
    const [claude] = providers(env);
    const walker = reader();
    await walker.discover(claude!);
    const walking = walker.discover(claude!);
    await walker.stop();
    const result = await walking;
    expect(result.cancelled ?? false).toBe(false);
    expect(comparable(result)).toEqual(comparable(await claude!.discover()));
  });

  it('a one-shot `steward backfill` with no owner waits for the worker to walk and read, and exits 0', () => {
    home = tempHome('steward-walk-');
    const root = join(home.dir, 'claude');
    claudeSession(root, 'sess-one', 4);
    claudeSession(root, 'sess-two', 3);
    const run = spawnSync(process.execPath, [join(build.dir, 'core', 'cli', 'main.js'), 'backfill', '--all'], {
      env: { ...home.env, ...noRoots(), STEWARD_CLAUDE_ROOTS: root, STEWARD_READ_WORKER: '1' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    // With the worker unreferenced while the command awaited it, the event loop ran empty: exit 13, nothing printed.
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    expect(run.stdout).toMatch(/^claude: 2 transcript files, 2 read; 7 new messages/m);
  });
});
