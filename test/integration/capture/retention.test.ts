import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Core } from '../../../core/index.js';
import { RetentionPruner, SearchIndex } from '../../../core/gateway/index.js';
import { recordingGate } from '../../support/gate.js';
import { expectIndexExact } from '../../support/search-index.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { appendJsonl, claudeLine, writeJsonl } from '../../support/transcripts.js';
import { byProvider, captureHarness, type CaptureHarness } from './harness.js';
import { PROVIDER_IDS } from '../../../core/api/index.js';

const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY);

let home: TempHome | undefined;
let core: Core | undefined;
let h: CaptureHarness | undefined;
afterEach(async () => {
  await core?.shutdown();
  await h?.close();
  home?.cleanup();
  core = undefined;
  h = undefined;
  home = undefined;
});

function openCore(config?: unknown): Core {
  if (!home) throw new Error('no home');
  if (config !== undefined) writeFileSync(join(home.dir, 'config.json'), JSON.stringify(config));
  core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
  return core;
}

function count(c: Core, sql: string, ...args: unknown[]): number {
  return c.gateway.prepare(sql).pluck().get(...args) as number;
}

describe('retention through the Core: only an explicit policy deletes, and removed rows stay removed', () => {
  it('imports everything, keeps it under the default across many passes, prunes under an explicit policy, and sweeps never bring rows back', async () => {
    home = tempHome('steward-retention-');
    const claude = join(home.dir, 'roots', 'claude');
    mkdirSync(claude, { recursive: true });
    home.env.STEWARD_CLAUDE_ROOTS = claude;
    const mixed = join(claude, 'projects', 'p', 'mixed.jsonl');
    const ancient = claudeLine({ sessionId: 'mixed', ts: ago(400), text: 'ancient' });
    writeJsonl(mixed, [ancient, claudeLine({ sessionId: 'mixed', ts: ago(40), text: 'older than 30 days' }), claudeLine({ sessionId: 'mixed', text: 'fresh' })]);
    const oldOnly = join(claude, 'projects', 'p', 'old-only.jsonl');
    writeJsonl(oldOnly, [claudeLine({ sessionId: 'old-only', ts: ago(500), cwd: '/work/old-project' }), claudeLine({ sessionId: 'old-only', type: 'assistant', ts: ago(499), cwd: '/work/old-project' })]);

    // "Import history → Everything", then the default (no explicit key) never deletes, however often it runs.
    let c = openCore();
    expect(byProvider((await c.call('Backfill.Run', { all: true })).providers, 'claude').partsWritten).toBe(5);
    for (let pass = 0; pass < 5; pass += 1) {
      expect(await c.capture.prune({ manual: false })).toMatchObject({ removedParts: 0, removedSessions: 0, cutoffs: PROVIDER_IDS.map(() => ({ cutoffMs: null })) });
      await c.call('Sweep.Tick', {});
    }
    expect(count(c, 'SELECT COUNT(*) FROM parts')).toBe(5);
    expect(count(c, 'SELECT COUNT(*) FROM sessions')).toBe(2);
    await c.shutdown();

    // The user writes an explicit policy; the owner's next pass applies it.
    c = openCore({ query: { cache: { retention: { default_days: 30 } } } });
    const report = await c.capture.prune({ manual: false });
    expect(report).toMatchObject({ dryRun: false, removedParts: 4, removedSessions: 1, complete: true });
    expect(count(c, 'SELECT COUNT(*) FROM parts WHERE ts < ?', Date.now() - 30 * DAY)).toBe(0);
    expect(count(c, "SELECT COUNT(*) FROM sessions WHERE session_id = 'old-only'")).toBe(0);
    expectIndexExact(c.gateway);
    // Project rows are kept: they carry the project's notes folder.
    expect(count(c, "SELECT COUNT(*) FROM projects WHERE cwd = '/work/old-project'")).toBe(1);
    const listed = (await c.call('Projects.List', {})).projects.find((p) => p.cwd === '/work/old-project');
    expect(listed?.sessions).toBe(0);

    // Scheduled sweeps: the first after the restart is answered by the durable checkpoints (their window
    // covers the narrower one), so is the next; touched files are then read from their offsets.
    expect(byProvider((await c.call('Sweep.Tick', {})).providers, 'claude')).toMatchObject({ read: 0, unchanged: 2, partsWritten: 0, bytesRead: 0 });
    expect(byProvider((await c.call('Sweep.Tick', {})).providers, 'claude')).toMatchObject({ read: 0, unchanged: 2, partsWritten: 0 });
    appendJsonl(mixed, [ancient, claudeLine({ sessionId: 'mixed', text: 'new' })]);
    appendJsonl(oldOnly, [claudeLine({ sessionId: 'old-only', ts: ago(450), cwd: '/work/old-project' })]);
    expect(byProvider((await c.call('Sweep.Tick', {})).providers, 'claude')).toMatchObject({ read: 2, partsWritten: 1 });
    expect(count(c, 'SELECT COUNT(*) FROM parts')).toBe(2);
    expect(count(c, 'SELECT COUNT(*) FROM parts WHERE ts < ?', Date.now() - 30 * DAY)).toBe(0);
    expect(count(c, "SELECT COUNT(*) FROM sessions WHERE session_id = 'old-only'")).toBe(0);

    // Telemetry holds counts only.
    const [entry] = (await c.call('Telemetry.Recent', { kind: 'cache.prune', limit: 1 })).entries;
    expect(entry?.data).toEqual({ kind: 'scheduled', removedParts: 4, removedSessions: 1, removedMessages: 4, removedConversations: 1, durationMs: expect.any(Number) as number, complete: true });
  });
});

describe('what the retention window removed, on a later import', () => {
  it('never comes back with a scheduled check; importing everything brings back what is still on disk, and the clean-up removes it again while a window is saved', async () => {
    home = tempHome('steward-retention-');
    const claude = join(home.dir, 'roots', 'claude');
    home.env.STEWARD_CLAUDE_ROOTS = claude;
    const dir = join(claude, 'projects', 'p');
    writeJsonl(join(dir, 'old.jsonl'), [claudeLine({ sessionId: 'old', ts: ago(90) }), claudeLine({ sessionId: 'old', type: 'assistant', ts: ago(89) })]);
    writeJsonl(join(dir, 'recent.jsonl'), [claudeLine({ sessionId: 'recent' })]);
    const c = openCore({ query: { cache: { retention: { default_days: 30 } } } });
    await c.call('Backfill.Run', { all: true });
    expect(await c.capture.prune({ manual: false })).toMatchObject({ removedConversations: 1, removedMessages: 2 });
    await c.call('Sweep.Tick', {});
    expect(count(c, "SELECT COUNT(*) FROM sessions WHERE session_id = 'old'")).toBe(0);
    await c.call('Backfill.Run', { all: true });
    expect(count(c, "SELECT COUNT(*) FROM parts WHERE session_id = 'old'")).toBe(2);
    expect(await c.capture.prune({ manual: false })).toMatchObject({ removedConversations: 1, removedMessages: 2 });
    expect(count(c, "SELECT COUNT(*) FROM sessions WHERE session_id = 'old'")).toBe(0);
  });
});

describe('what a removal by hand leaves the files it emptied', () => {
  it('no longer counts them as imported, so Home offers their history again; a scheduled check still reads nothing', async () => {
    h = captureHarness();
    const dir = join(h.claudeRoot, 'projects', 'p');
    const old = join(dir, 'old.jsonl');
    writeJsonl(old, [claudeLine({ sessionId: 'old', ts: ago(400) }), claudeLine({ sessionId: 'old', type: 'assistant', ts: ago(399) })]);
    utimesSync(old, ago(399), ago(399));
    writeJsonl(join(dir, 'mixed.jsonl'), [claudeLine({ sessionId: 'mixed', ts: ago(400) }), claudeLine({ sessionId: 'mixed' })]);
    await h.driver.backfill({ all: true });
    const claude = async () => (await h!.driver.survey()).providers.find((p) => p.provider === 'claude')!;
    expect(await claude()).toMatchObject({ older: { files: 1, imported: { files: 1 } }, olderMessages: 0, olderUncounted: 0 });

    // Settings → remove now, with no window saved: the default window's cutoff.
    expect(await h.driver.prune({ manual: true })).toMatchObject({ removedMessages: 3, removedConversations: 1 });
    expect(await claude()).toMatchObject({ older: { files: 1, imported: { files: 0 } }, olderUncounted: 1 });
    expect(byProvider(await h.driver.tick(), 'claude')).toMatchObject({ read: 0 });
    // Importing everything brings it back, and the files count as imported again.
    expect(byProvider(await h.driver.backfill({ all: true }), 'claude')).toMatchObject({ partsWritten: 3 });
    expect(await claude()).toMatchObject({ older: { files: 1, imported: { files: 1 } }, olderMessages: 0, olderUncounted: 0 });
  });
});

describe('a retention window about to be saved', () => {
  it('is counted first: what the next start would remove, in conversations and messages, and exactly that goes', async () => {
    home = tempHome('steward-retention-');
    const claude = join(home.dir, 'roots', 'claude');
    home.env.STEWARD_CLAUDE_ROOTS = claude;
    const dir = join(claude, 'projects', 'p');
    mkdirSync(dir, { recursive: true });
    // A 2025 session older than a year, and one with an old first message and a recent second.
    writeJsonl(join(dir, 'old.jsonl'), [claudeLine({ sessionId: 'old', ts: ago(500) }), claudeLine({ sessionId: 'old', type: 'assistant', ts: ago(499) })]);
    writeJsonl(join(dir, 'mixed.jsonl'), [claudeLine({ sessionId: 'mixed', ts: ago(450) }), claudeLine({ sessionId: 'mixed', type: 'assistant' })]);
    utimesSync(join(dir, 'old.jsonl'), ago(499), ago(499));

    // Home → "Import everything" under the default window: nothing older is left to offer.
    let c = openCore();
    const before = (await c.call('Providers.Survey', {})).providers[0]!.older;
    expect(before).toMatchObject({ files: 1, imported: { files: 0, bytes: 0 } });
    await c.call('Backfill.Run', { all: true });
    expect((await c.call('Providers.Survey', {})).providers[0]!.older).toEqual({ ...before, imported: { files: 1, bytes: before.bytes } });

    // Settings → 365 to 400: the dry run says what the next start's pass would take, and takes nothing.
    const dry = await c.call('Cache.Prune', { dryRun: true, retentionDays: 400 });
    expect(dry).toMatchObject({ dryRun: true, removedParts: 3, removedSessions: 1, removedMessages: 3, removedConversations: 1 });
    expect(dry.cutoffs.find((x) => x.provider === 'claude')?.cutoffMs).toBeCloseTo(Date.now() - 400 * DAY, -5);
    expect(count(c, 'SELECT COUNT(*) FROM parts')).toBe(4);
    // 0 keeps everything, and the default written nowhere deletes nothing: nothing to ask about.
    expect(await c.call('Cache.Prune', { dryRun: true, retentionDays: 0 })).toMatchObject({ removedParts: 0, removedConversations: 0 });
    expect(await c.capture.prune({ manual: false })).toMatchObject({ removedParts: 0 });
    // Only a dry run takes a window not saved yet.
    await expect(c.call('Cache.Prune', { retentionDays: 400 })).rejects.toMatchObject({ code: 'invalid_params' });
    expect(count(c, 'SELECT COUNT(*) FROM parts')).toBe(4);
    await c.shutdown();

    // Saved and restarted: the owner's own pass removes what was announced.
    c = openCore({ query: { cache: { retention: { default_days: 400 } } } });
    expect(await c.capture.prune({ manual: false })).toMatchObject({ removedParts: dry.removedParts, removedSessions: dry.removedSessions });
    expect(count(c, "SELECT COUNT(*) FROM sessions WHERE session_id = 'old'")).toBe(0);
  });
});

describe('cache prune', () => {
  function sessions(): string[] {
    return h!.db.prepare('SELECT session_id FROM sessions ORDER BY session_id').pluck().all() as string[];
  }

  it('removes a session only once nothing of it is left, keeps conversations whose subagents still hold parts, and a dry run counts the same', async () => {
    h = captureHarness({ query: { cache: { retention: { default_days: 30 } } } });
    const dir = join(h.claudeRoot, 'projects', 'p');
    writeJsonl(join(dir, 'gone.jsonl'), [claudeLine({ sessionId: 'gone', ts: ago(90) }), claudeLine({ sessionId: 'gone', ts: ago(89), type: 'assistant' })]);
    writeJsonl(join(dir, 'partly.jsonl'), [claudeLine({ sessionId: 'partly', ts: ago(90) }), claudeLine({ sessionId: 'partly', type: 'assistant' })]);
    // An old conversation whose subagent transcript is recent, and one whose subagent is old too.
    writeJsonl(join(dir, 'parent.jsonl'), [claudeLine({ sessionId: 'parent', ts: ago(90), cwd: '/work/parent-project' })]);
    writeJsonl(join(dir, 'agent-a1.jsonl'), [claudeLine({ sessionId: 'parent', agentId: 'a1', cwd: '/work/parent-project' })]);
    writeJsonl(join(dir, 'both.jsonl'), [claudeLine({ sessionId: 'both', ts: ago(90) })]);
    writeJsonl(join(dir, 'agent-b1.jsonl'), [claudeLine({ sessionId: 'both', agentId: 'b1', ts: ago(80) })]);
    expect(byProvider(await h.driver.backfill({ all: true }), 'claude').partsWritten).toBe(8);
    expect(sessions()).toEqual(['both', 'both:agent-b1', 'gone', 'parent', 'parent:agent-a1', 'partly']);

    const dry = await h.driver.prune({ manual: true, dryRun: true });
    expect(dry).toMatchObject({ dryRun: true, removedParts: 6, removedSessions: 3, removedMessages: 6, removedConversations: 2 });
    expect(h.count('SELECT COUNT(*) FROM parts')).toBe(8);
    expect(h.telemetry.recent(10, 'cache.prune')).toEqual([]);

    // The removal counts what the check counted, in messages and whole conversations, per agent too.
    const done = await h.driver.prune({ manual: true });
    expect(done).toMatchObject({ dryRun: false, removedParts: dry.removedParts, removedSessions: dry.removedSessions, removedMessages: 6, removedConversations: 2, complete: true });
    expect(done.cutoffs.find((c) => c.provider === 'claude')).toMatchObject({ removedParts: 6, removedMessages: 6, removedConversations: 2 });
    expect(done.cutoffs.find((c) => c.provider === 'codex')).toMatchObject({ removedParts: 0, removedMessages: 0, removedConversations: 0 });
    expect(sessions()).toEqual(['parent', 'parent:agent-a1', 'partly']);
    const parent = h.projects.list().find((p) => p.cwd === '/work/parent-project');
    expect(parent?.sessions).toBe(1);
    // Nothing is left to do: a second pass removes nothing.
    expect(await h.driver.prune({ manual: true })).toMatchObject({ removedParts: 0, removedSessions: 0 });
    // The index and each kept conversation's counts follow what is left.
    expectIndexExact(h.db);
  });

  it('counts a branched session (a fork) as a conversation of its own, as every list does', async () => {
    h = captureHarness({ query: { cache: { retention: { default_days: 30 } } } });
    const dir = join(h.openclawRoot, 'agents', 'main', 'sessions');
    const session = (id: string, parent?: string) => [
      { type: 'session', version: 3, id, timestamp: ago(90).toISOString(), cwd: '/home/sam/pi-project', ...(parent ? { parentSession: parent } : {}) },
      { type: 'message', id: `${id}-m1`, parentId: null, timestamp: ago(90).toISOString(), message: { role: 'user', content: [{ type: 'text', text: `start ${id}` }], timestamp: ago(90).getTime() } },
    ];
    writeJsonl(join(dir, 'root-sess.jsonl'), session('root-sess'));
    writeJsonl(join(dir, 'fork-sess.jsonl'), session('fork-sess', 'root-sess'));
    await h.driver.backfill({ all: true });
    expect(h.db.prepare("SELECT parent_kind FROM sessions WHERE session_id = 'oc:main:fork-sess'").pluck().get()).toBe('branch');

    const dry = await h.driver.prune({ manual: true, dryRun: true });
    expect(dry).toMatchObject({ removedMessages: 2, removedConversations: 2 });
    expect(await h.driver.prune({ manual: true })).toMatchObject({ removedMessages: 2, removedConversations: 2 });
  });

  it('works in bounded batches, stops between them when aborted, and the next pass finishes the job', async () => {
    h = captureHarness();
    const lines = Array.from({ length: 9 }, (_, i) => claudeLine({ sessionId: 'long', ts: ago(100 - i) }));
    writeJsonl(join(h.claudeRoot, 'projects', 'p', 'long.jsonl'), [...lines, claudeLine({ sessionId: 'short', ts: ago(100) })]);
    await h.driver.backfill({ all: true });
    const pruner = new RetentionPruner(h.db);
    const cutoff = Date.now() - 30 * DAY;
    const abort = new AbortController();
    const first = pruner.prune('claude', cutoff, { batchRows: 4, signal: abort.signal });
    // The first batch commits before the pass yields to the event loop; the abort lands between batches.
    expect(h.count('SELECT COUNT(*) FROM parts')).toBe(6);
    abort.abort();
    expect(await first).toEqual({ parts: 4, sessions: 0, messages: 4, conversations: 0, complete: false });
    expect(h.count('SELECT COUNT(*) FROM parts')).toBe(6);
    expect(await pruner.prune('claude', cutoff, { batchRows: 4 })).toEqual({ parts: 6, sessions: 2, messages: 6, conversations: 2, complete: true });
    expect(h.count('SELECT COUNT(*) FROM parts') + h.count('SELECT COUNT(*) FROM sessions')).toBe(0);
  });

  it('counts a message once though a batch\'s limit splits its parts, as the check counts it', async () => {
    h = captureHarness();
    // Two old messages of three blocks each (text, tool call, text), and a recent one.
    const blocks = [{ type: 'text', text: 'a' }, { type: 'tool_use', id: 't', name: 'Bash', input: { command: 'ls' } }, { type: 'text', text: 'b' }];
    const lines = [ago(100), ago(99)].map((ts) => claudeLine({ sessionId: 'blocks', type: 'assistant', ts, content: blocks }));
    writeJsonl(join(h.claudeRoot, 'projects', 'p', 'blocks.jsonl'), [...lines, claudeLine({ sessionId: 'blocks' })]);
    await h.driver.backfill({ all: true });
    const pruner = new RetentionPruner(h.db);
    const cutoff = Date.now() - 30 * DAY;
    expect(await pruner.count('claude', cutoff)).toMatchObject({ parts: 6, messages: 2 });
    expect(await pruner.prune('claude', cutoff, { batchRows: 4 })).toEqual({ parts: 6, sessions: 0, messages: 2, conversations: 0, complete: true });
  });

  it('walks every session that holds parts, past one batch of sessions: another provider\'s rows stay, parts without a session row go too', async () => {
    h = captureHarness();
    const db = h.db;
    // Parts carry no time index of their own (the walk rides parts_session_ts), nor a (session, part
    // id) one (probes seek the part_id key): every index is one more insert per part.
    expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'parts' ORDER BY name").pluck().all()).toEqual([
      'parts_content_key',
      'parts_session_ts',
      'sqlite_autoindex_parts_1',
    ]);
    const old = Date.now() - 90 * DAY;
    const part = db.prepare("INSERT INTO parts (part_id, session_id, provider, role, kind, ts, text) VALUES (?, ?, ?, 'user', 'text', ?, 'x')");
    const session = db.prepare('INSERT INTO sessions (session_id, provider, first_ts, last_ts, updated_at) VALUES (?, ?, ?, ?, 0)');
    // 450 sessions, more than one batch looks into; every third is OpenClaw's; each has two old parts and a new one.
    for (let i = 0; i < 450; i += 1) {
      const id = `s${String(i).padStart(3, '0')}`;
      const provider = i % 3 === 0 ? 'openclaw' : 'claude';
      session.run(id, provider, old, Date.now());
      for (const [n, ts] of [[0, old], [1, old + 1], [2, Date.now()]] as const) part.run(`cc:${id}-${n}:0`, id, provider, ts);
    }
    // Parts whose session row was never written (a damaged spooled row): still the provider's, still old.
    part.run('cc:orphan-0:0', 'orphan', 'claude', old);
    const cutoff = Date.now() - 30 * DAY;
    const pruner = new RetentionPruner(db);
    expect((await pruner.count('claude', cutoff)).parts).toBe(300 * 2 + 1);
    // Few old rows per batch of sessions: the pass goes on past the first batch that found fewer than a batch of rows.
    expect(await pruner.prune('claude', cutoff)).toMatchObject({ parts: 601, complete: true });
    expect(h.count("SELECT COUNT(*) FROM parts WHERE provider = 'claude'")).toBe(300);
    expect(h.count("SELECT COUNT(*) FROM parts WHERE provider = 'openclaw'")).toBe(450);
    expect((await pruner.count('openclaw', cutoff)).parts).toBe(300);
  });

  it('merges the full-text index in step: thirty batches of removals leave a few segments, not a level per batch', async () => {
    h = captureHarness();
    const db = h.db;
    const old = Date.now() - 90 * DAY;
    const part = db.prepare("INSERT INTO parts (part_id, session_id, provider, role, kind, ts, text) VALUES (?, ?, 'claude', 'user', 'text', ?, ?)");
    const session = db.prepare("INSERT INTO sessions (session_id, provider, first_ts, last_ts, updated_at) VALUES (?, 'claude', ?, ?, 0)");
    const rowids: number[] = [];
    for (let s = 0; s < 20; s += 1) {
      session.run(`m${s}`, old, old);
      for (let n = 0; n < 30; n += 1) rowids.push(Number(part.run(`cc:m${s}-${n}:0`, `m${s}`, old + n, `orchard pruning note ${n} of ${s}`).lastInsertRowid));
    }
    new SearchIndex(db).indexParts(rowids);
    expect(await new RetentionPruner(db).prune('claude', Date.now() - 30 * DAY, { batchRows: 20 })).toMatchObject({ parts: 600, complete: true });
    expect(h.count('SELECT COUNT(*) FROM search_map')).toBe(0);
    expect(h.count('SELECT COUNT(DISTINCT segid) FROM search_fts_idx')).toBeLessThan(8);
  });

  it('keeps each batch short and off a WAL checkpoint: a batch waits while the checkpoint thread holds the disk', async () => {
    h = captureHarness();
    const lines = Array.from({ length: 30 }, (_, i) => claudeLine({ sessionId: 'long', ts: ago(100 - i) }));
    writeJsonl(join(h.claudeRoot, 'projects', 'p', 'long.jsonl'), lines);
    await h.driver.backfill({ all: true });
    // The checkpoint thread holds the disk twice before the first batch may go.
    const { gate, calls } = recordingGate(2);
    const removed = await new RetentionPruner(h.db, gate).prune('claude', Date.now() - 30 * DAY, { batchRows: 8 });
    expect(removed).toMatchObject({ parts: 30, complete: true });
    expect(calls.slice(0, 5)).toEqual(['start', 'busy', 'busy', 'enter', 'leave']);
    // Every batch went through the gate, one at a time: 30 rows in batches of 8 at most.
    const batches = calls.filter((c) => c === 'enter').length;
    expect(batches).toBeGreaterThanOrEqual(4);
    expect(calls.filter((c) => c === 'leave')).toHaveLength(batches);
    // The parts' batches, then the emptied sessions' (the gate is asked to start again: it is idempotent).
    expect(calls.slice(3).join(' ')).toMatch(/^(enter leave )+start (enter leave ?)+$/);
  });

  it('the owner runs the pass shortly after start and on its interval, only under an explicit policy', async () => {
    h = captureHarness({ query: { cache: { retention: { default_days: 30, prune_interval_ms: 1_000 } } } });
    writeJsonl(join(h.claudeRoot, 'projects', 'p', 'old.jsonl'), [claudeLine({ sessionId: 'old', ts: ago(90) }), claudeLine({ sessionId: 'old' })]);
    await h.driver.backfill({ all: true });
    expect(h.count('SELECT COUNT(*) FROM parts')).toBe(2);
    h.driver.start();
    await waitFor(() => h!.telemetry.recent(10, 'cache.prune').length >= 2);
    expect(h.count('SELECT COUNT(*) FROM parts')).toBe(1);
    expect(h.telemetry.recent(10, 'cache.prune').map((e) => e.data.removedParts)).toContain(1);
  });

  it('with no explicit policy the owner\'s timer never runs a pass', async () => {
    h = captureHarness({ query: { cache: { retention: { prune_interval_ms: 1_000 } } } });
    writeJsonl(join(h.claudeRoot, 'projects', 'p', 'old.jsonl'), [claudeLine({ sessionId: 'old', ts: ago(900) })]);
    await h.driver.backfill({ all: true });
    h.driver.start();
    await waitFor(() => h!.telemetry.recent(10, 'sweep.tick').length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(h.telemetry.recent(10, 'cache.prune')).toEqual([]);
    expect(h.count('SELECT COUNT(*) FROM parts')).toBe(1);
  });
});

async function waitFor(condition: () => boolean, limitMs = 15_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
