import { appendFileSync, copyFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { CodexProvider } from '../../../core/transcripts/providers/codex/index.js';
import type { LineStats, PartRow, TranscriptFile } from '../../../core/transcripts/index.js';
import { byProvider, captureHarness, type CaptureHarness } from './harness.js';

/**
 * A Codex fork's rollout replays its parent's lines, and a part id names no session: whichever of
 * the two files is read first, each copied line stays its parent's part and the fork holds only what
 * it added. `sessions/` is walked before `archived_sessions/`, so a live fork of an archived parent is
 * read first.
 */
const FIXTURES = fileURLToPath(new URL('../../fixtures/transcripts/codex/', import.meta.url));
const PARENT = 'rollout-2026-07-13T18-41-30-019f5c5a-eb02-7ff0-90af-653b66eba9f4.jsonl';
const FORK = 'rollout-2026-07-13T19-20-00-019f5c7e-2b10-7a44-8c01-9d8e7f6a5b4c.jsonl';
const PARENT_ID = '019f5c5a-eb02-7ff0-90af-653b66eba9f4';
const FORK_ID = '019f5c7e-2b10-7a44-8c01-9d8e7f6a5b4c';
const FORK_TEXTS = ['Instead, make the retry count configurable', 'Done: UPLOAD_ATTEMPTS sets it.'];
const LIVE = join('sessions', '2026', '07', '13');
const ARCHIVED = 'archived_sessions';

const harnesses: CaptureHarness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close();
});

/** An open retention window: the fixtures carry their real (past) timestamps. */
function open(): CaptureHarness {
  const h = captureHarness({ query: { cache: { retention: { default_days: 0 } } } });
  harnesses.push(h);
  return h;
}

function place(h: CaptureHarness, folder: string, name: string, text = readFileSync(join(FIXTURES, name), 'utf8')): string {
  const dir = join(h.codexRoot, folder);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), text);
  return join(dir, name);
}

const idsOf = (h: CaptureHarness, sessionId: string) => h.db.prepare('SELECT part_id FROM parts WHERE session_id = ? ORDER BY part_id').pluck().all(sessionId) as string[];
const textsOf = (h: CaptureHarness, sessionId: string) => h.db.prepare("SELECT text FROM parts WHERE session_id = ? AND kind = 'text' ORDER BY ts, part_id").pluck().all(sessionId) as string[];
const store = (h: CaptureHarness) => h.db.prepare("SELECT part_id, session_id FROM parts WHERE provider = 'codex' ORDER BY part_id").all();
const link = (h: CaptureHarness, sessionId: string) => h.db.prepare('SELECT parent_session_id, parent_kind, cwd FROM sessions WHERE session_id = ?').get(sessionId);

/** One file straight through the provider: its parts and its per-line accounting. */
async function readDirect(path: string): Promise<{ parts: PartRow[]; stats: LineStats }> {
  const info = statSync(path, { bigint: true });
  const file: TranscriptFile = { path, dev: info.dev, ino: info.ino, size: Number(info.size), mtimeMs: Number(info.mtimeMs), ctimeMs: Number(info.ctimeMs), source: 'codex' };
  const stats: LineStats = { lines: 0, failedLines: 0, oversizeLines: 0 };
  const parts: PartRow[] = [];
  for await (const batch of new CodexProvider([]).read(file, { maxLineBytes: 1 << 20, windowStartMs: null, batchParts: 250 }, stats)) parts.push(...batch.parts);
  return { parts, stats };
}

/** The parent's part ids as its own file alone yields them. */
async function parentIds(h: CaptureHarness): Promise<string[]> {
  const dir = join(h.home.dir, 'alone');
  mkdirSync(dir, { recursive: true });
  copyFileSync(join(FIXTURES, PARENT), join(dir, PARENT));
  return (await readDirect(join(dir, PARENT))).parts.map((p) => p.partId).sort();
}

describe('Codex forks: a replayed line stays its parent’s part whichever file is read first', () => {
  it('a live fork read before its archived parent: the parent keeps all 11 of its parts, the fork holds its 2 and names its parent', async () => {
    const h = open();
    place(h, LIVE, FORK);
    place(h, ARCHIVED, PARENT);
    expect(byProvider(await h.driver.tick(), 'codex')).toMatchObject({ read: 2, failed: 0, partsWritten: 11 + 2 });
    expect(idsOf(h, PARENT_ID)).toEqual(await parentIds(h));
    expect(textsOf(h, FORK_ID)).toEqual(FORK_TEXTS);
    expect(idsOf(h, FORK_ID)).toHaveLength(2);
    expect(link(h, FORK_ID)).toEqual({ parent_session_id: PARENT_ID, parent_kind: 'branch', cwd: '/home/ana/src/uploader' });
    expect(link(h, PARENT_ID)).toEqual({ parent_session_id: null, parent_kind: null, cwd: '/home/ana/src/uploader' });
  });

  it('a live parent read before its archived fork gives the same store as the other order', async () => {
    const forkFirst = open();
    place(forkFirst, LIVE, FORK);
    place(forkFirst, ARCHIVED, PARENT);
    await forkFirst.driver.tick();
    const parentFirst = open();
    place(parentFirst, LIVE, PARENT);
    place(parentFirst, ARCHIVED, FORK);
    expect(byProvider(await parentFirst.driver.tick(), 'codex')).toMatchObject({ read: 2, partsWritten: 11 + 2 });
    expect(idsOf(parentFirst, PARENT_ID)).toEqual(await parentIds(parentFirst));
    expect(textsOf(parentFirst, FORK_ID)).toEqual(FORK_TEXTS);
    expect(store(forkFirst)).toEqual(store(parentFirst));
  });

  it('read on its own, a fork gives its copies to its parent and every line is a part or a counted skip', async () => {
    const h = open();
    const { parts, stats } = await readDirect(place(h, LIVE, FORK));
    expect(parts.filter((p) => p.sessionId === FORK_ID).map((p) => p.text)).toEqual(FORK_TEXTS);
    // The copies are the parent's own part ids: all but its compaction, which the fork did not replay.
    const copies = parts.filter((p) => p.sessionId === PARENT_ID).map((p) => p.partId);
    expect(copies).toHaveLength(10);
    expect((await parentIds(h)).filter((id) => !copies.includes(id))).toHaveLength(1);
    const partLines = new Set(parts.map((p) => p.partId.slice(0, p.partId.lastIndexOf(':'))));
    expect(partLines.size + Object.values(stats.skipped ?? {}).reduce((a, b) => a + b, 0)).toBe(stats.lines);
  });

  it('a fork of a fork replays both ancestors: each copied line goes to the session that wrote it', async () => {
    const h = open();
    const GRAND_ID = '019f5c90-0000-7000-8000-0000000000aa';
    const grand = `rollout-2026-07-13T19-40-00-${GRAND_ID}.jsonl`;
    const meta = { timestamp: '2026-07-13T17:40:00.010Z', type: 'session_meta', payload: { id: GRAND_ID, forked_from_id: FORK_ID, timestamp: '2026-07-13T17:40:00.001Z', cwd: '/home/ana/src/uploader', source: 'cli' } };
    const own = { timestamp: '2026-07-13T17:40:05.000Z', type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Default it to 5' }] } };
    place(h, LIVE, grand, `${JSON.stringify(meta)}\n${readFileSync(join(FIXTURES, FORK), 'utf8')}${JSON.stringify(own)}\n`);
    place(h, ARCHIVED, FORK);
    place(h, ARCHIVED, PARENT);
    expect(byProvider(await h.driver.tick(), 'codex')).toMatchObject({ read: 3, partsWritten: 11 + 2 + 1 });
    expect(idsOf(h, PARENT_ID)).toEqual(await parentIds(h));
    expect(textsOf(h, FORK_ID)).toEqual(FORK_TEXTS);
    expect(textsOf(h, GRAND_ID)).toEqual(['Default it to 5']);
    expect(link(h, GRAND_ID)).toMatchObject({ parent_session_id: FORK_ID, parent_kind: 'branch' });
    expect(link(h, FORK_ID)).toMatchObject({ parent_session_id: PARENT_ID, parent_kind: 'branch' });
  });

  it('a fork read before its first turn, then read on from its checkpoint: copies stay the parent’s and the fork keeps its parent', async () => {
    const h = open();
    const lines = readFileSync(join(FIXTURES, FORK), 'utf8').split('\n');
    // The fork's meta, the parent's copied meta and the first copied turns: nothing of the fork's own yet.
    const path = place(h, LIVE, FORK, `${lines.slice(0, 12).join('\n')}\n`);
    await h.driver.tick();
    expect(idsOf(h, FORK_ID)).toEqual([]);
    appendFileSync(path, `${lines.slice(12).join('\n')}`);
    place(h, ARCHIVED, PARENT);
    expect(byProvider(await h.driver.tick(), 'codex')).toMatchObject({ read: 2 });
    expect(idsOf(h, PARENT_ID)).toEqual(await parentIds(h));
    expect(textsOf(h, FORK_ID)).toEqual(FORK_TEXTS);
    expect(link(h, FORK_ID)).toEqual({ parent_session_id: PARENT_ID, parent_kind: 'branch', cwd: '/home/ana/src/uploader' });
  });
});
