import { appendFileSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GeminiProvider } from '../../../core/transcripts/providers/gemini/index.js';
import type { LineStats, PartRow, TranscriptFile } from '../../../core/transcripts/index.js';
import { byProvider, captureHarness, type CaptureHarness } from './harness.js';

/*
 * Gemini CLI's JSONL chats (ChatRecordingService) append a message again, whole, under the same id
 * as it grows, and append `{"$rewindTo": id}` when the person rewinds: the fixtures are shaped so.
 */
const SID = '92f625c6-a764-48e3-b922-3766d41f9c4c';
const header = { sessionId: SID, projectHash: 'site', startTime: '2026-05-22T14:59:01.002Z', lastUpdated: '2026-05-22T14:59:01.002Z', kind: 'main' };
const user = (id: string, minute: number, text: string) => ({ id, timestamp: `2026-05-22T15:${String(minute).padStart(2, '0')}:00.000Z`, type: 'user', content: [{ text }] });
const gemini = (id: string, minute: number, text: string, tokens: unknown = null) => ({
  id,
  timestamp: `2026-05-22T15:${String(minute).padStart(2, '0')}:30.000Z`,
  type: 'gemini',
  content: [{ text }],
  model: 'gemini-2.5-pro',
  thoughts: [],
  tokens,
});
const jsonl = (records: unknown[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;

let h: CaptureHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

function write(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

const chatPath = (root: string) => join(root, 'tmp', 'site', 'chats', 'session-2026-05-22T14-59-92f625c6.jsonl');
const openWindow = () => captureHarness({ query: { cache: { retention: { default_days: 0 } } } });
const textOf = (harness: CaptureHarness, messageId: string) =>
  harness.db.prepare('SELECT text FROM parts WHERE part_id = ?').pluck().get(`gm:${SID}:${messageId}:c0`) as string | undefined;
const found = (harness: CaptureHarness, word: string) => harness.db.prepare('SELECT COUNT(*) FROM search_fts WHERE search_fts MATCH ?').pluck().get(word) as number;

/** One chat read straight through the provider: every part it yielded, in order, and its accounting. */
async function readChat(path: string, batchParts = 250): Promise<{ parts: PartRow[]; stats: LineStats }> {
  const info = statSync(path, { bigint: true });
  const file: TranscriptFile = { path, dev: info.dev, ino: info.ino, size: Number(info.size), mtimeMs: Number(info.mtimeMs), ctimeMs: Number(info.ctimeMs), source: 'gemini' };
  const stats: LineStats = { lines: 0, failedLines: 0, oversizeLines: 0 };
  const parts: PartRow[] = [];
  for await (const batch of new GeminiProvider([]).read(file, { maxLineBytes: 1 << 20, windowStartMs: null, batchParts }, stats)) parts.push(...batch.parts);
  return { parts, stats };
}

const rewound = (part: PartRow) => (JSON.parse(part.meta ?? '{}') as { rewound?: boolean }).rewound === true;
const messageOf = (part: PartRow) => part.partId.split(':')[2];

describe('Gemini JSONL: a message re-emitted under its id (last write wins)', () => {
  it('keeps the last version of a message grown within one read, counted as the line that stored it', async () => {
    h = openWindow();
    const records = [header, user('m1', 0, 'does it build?'), gemini('m2', 0, 'It compiles GEMA1'), gemini('m2', 0, 'It compiles GEMA1 and links GEMA1B')];
    const path = write(chatPath(h.geminiRoot), jsonl(records));
    const { parts, stats } = await readChat(path);
    // One part per block, the later version's: a part id is never yielded twice in one batch.
    expect(parts.map((p) => [messageOf(p), p.text])).toEqual([
      ['m1', 'does it build?'],
      ['m2', 'It compiles GEMA1 and links GEMA1B'],
    ]);
    // header meta_only; both versions stored a version of m2: lines = stored + skipped.
    expect(stats).toMatchObject({ lines: 4, skipped: { meta_only: 1 } });
    expect(byProvider(await h.driver.tick(), 'gemini')).toMatchObject({ read: 1, partsWritten: 2 });
    expect(textOf(h, 'm2')).toBe('It compiles GEMA1 and links GEMA1B');
    expect(found(h, 'GEMA1B')).toBe(1);
  });

  it('a re-emission that changes nothing is still a duplicate; one that changes a block is not', async () => {
    h = openWindow();
    const tokens = { input: 10, output: 5, cached: 0, thoughts: 0, tool: 0, total: 15 };
    const records = [header, user('m1', 0, 'hi'), gemini('m2', 0, 'Hello'), gemini('m2', 0, 'Hello', tokens), gemini('m2', 0, 'Hello there', tokens)];
    const { stats } = await readChat(write(chatPath(h.geminiRoot), jsonl(records)));
    expect(stats).toMatchObject({ lines: 5, skipped: { meta_only: 1, duplicate: 1 } });
  });

  it('a version appended after a tick replaces the stored one on the next tick (the chat is read again from its start)', async () => {
    h = openWindow();
    const path = write(chatPath(h.geminiRoot), jsonl([header, user('m1', 0, 'does it build?'), gemini('m2', 0, 'It compiles GEMA1')]));
    expect(byProvider(await h.driver.tick(), 'gemini')).toMatchObject({ read: 1, partsWritten: 2 });
    appendFileSync(path, jsonl([gemini('m2', 0, 'It compiles GEMA1 and links GEMA1B')]));
    // A scheduled tick reads a changed chat from its start (its checkpoint keeps no offset) and refreshes stored parts.
    expect(byProvider(await h.driver.tick(), 'gemini')).toMatchObject({ read: 1 });
    expect(textOf(h, 'm2')).toBe('It compiles GEMA1 and links GEMA1B');
    expect(found(h, 'GEMA1B')).toBe(1);
    expect(h.count('SELECT COUNT(*) FROM parts WHERE session_id = ?', SID)).toBe(2);
  });

  it('the parts of a version a later batch replaces are yielded again with the later version', async () => {
    h = openWindow();
    const records = [header, user('m1', 0, 'go'), gemini('m2', 0, 'first'), user('m3', 1, 'more'), gemini('m2', 0, 'first and second')];
    const { parts } = await readChat(write(chatPath(h.geminiRoot), jsonl(records)), 1);
    expect(parts.filter((p) => messageOf(p) === 'm2').map((p) => p.text)).toEqual(['first', 'first and second']);
  });
});

describe('Gemini JSONL: $rewindTo', () => {
  const rewind = [
    header,
    user('m1', 0, 'add a login page'),
    gemini('m2', 0, 'Done.'),
    user('m3', 1, 'now delete the database'),
    gemini('m4', 1, 'Deleting it.'),
    { $rewindTo: 'm3' },
    user('m5', 2, 'now add a logout button'),
    gemini('m6', 2, 'Added.'),
  ];

  it('marks the turns the person rewound (meta.rewound), keeps them stored, and leaves the rest unmarked', async () => {
    h = openWindow();
    const { parts, stats } = await readChat(write(chatPath(h.geminiRoot), jsonl(rewind)));
    expect(parts.map((p) => [messageOf(p), rewound(p)])).toEqual([
      ['m1', false],
      ['m2', false],
      ['m3', true],
      ['m4', true],
      ['m5', false],
      ['m6', false],
    ]);
    expect(stats).toMatchObject({ lines: 8, skipped: { meta_only: 2 } });
    await h.driver.tick();
    const stored = h.db.prepare('SELECT part_id, meta FROM parts WHERE session_id = ? ORDER BY ts, rowid').all(SID) as Array<{ part_id: string; meta: string | null }>;
    expect(stored.map((p) => [p.part_id.split(':')[2], (JSON.parse(p.meta ?? '{}') as { rewound?: boolean }).rewound === true])).toEqual([
      ['m1', false],
      ['m2', false],
      ['m3', true],
      ['m4', true],
      ['m5', false],
      ['m6', false],
    ]);
  });

  it('marks rewound turns whose parts an earlier batch already yielded', async () => {
    h = openWindow();
    const { parts } = await readChat(write(chatPath(h.geminiRoot), jsonl(rewind)), 1);
    const last = new Map(parts.map((p) => [p.partId, p]));
    expect([...last.values()].map((p) => [messageOf(p), rewound(p)])).toEqual([
      ['m1', false],
      ['m2', false],
      ['m3', true],
      ['m4', true],
      ['m5', false],
      ['m6', false],
    ]);
  });

  it('a rewind appended after a tick marks the stored turns on the next tick', async () => {
    h = openWindow();
    const path = write(chatPath(h.geminiRoot), jsonl(rewind.slice(0, 5)));
    await h.driver.tick();
    appendFileSync(path, jsonl(rewind.slice(5)));
    expect(byProvider(await h.driver.tick(), 'gemini')).toMatchObject({ read: 1 });
    const meta = h.db.prepare('SELECT meta FROM parts WHERE part_id = ?').pluck().get(`gm:${SID}:m4:c0`) as string;
    expect(JSON.parse(meta)).toMatchObject({ rewound: true });
  });

  it('a rewind to an id the chat never held marks nothing', async () => {
    h = openWindow();
    const records = [header, user('m1', 0, 'hi'), gemini('m2', 0, 'Hello'), { $rewindTo: 'elsewhere' }];
    const { parts } = await readChat(write(chatPath(h.geminiRoot), jsonl(records)));
    expect(parts.some(rewound)).toBe(false);
  });
});

describe('Gemini JSONL: refreshing reads', () => {
  /** More messages than one batch holds (BATCH_PARTS, 250), so what follows them lands in a later batch of the same read. */
  const filler = Array.from({ length: 260 }, (_, i) => user(`f${i}`, 1, `filler ${i}`));
  const metaOf = (harness: CaptureHarness, messageId: string) =>
    JSON.parse((harness.db.prepare('SELECT meta FROM parts WHERE part_id = ?').pluck().get(`gm:${SID}:${messageId}:c0`) as string | null) ?? '{}') as { rewound?: boolean };

  it('a later batch of the same run replaces a version, and marks a turn, that an earlier batch stored', async () => {
    h = openWindow();
    const records = [header, user('m1', 0, 'go'), gemini('m2', 0, 'It compiles GEMC1'), ...filler, gemini('m2', 0, 'It compiles GEMC1 and links GEMC2'), { $rewindTo: 'f100' }];
    write(chatPath(h.geminiRoot), jsonl(records));
    expect(byProvider(await h.driver.tick(), 'gemini')).toMatchObject({ read: 1 });
    expect(textOf(h, 'm2')).toBe('It compiles GEMC1 and links GEMC2');
    expect(found(h, 'GEMC2')).toBe(1);
    expect(metaOf(h, 'f99').rewound).toBeUndefined();
    expect(metaOf(h, 'f100').rewound).toBe(true);
    expect(metaOf(h, 'f259').rewound).toBe(true);
  });

  it('a tick that reads a chat again with nothing changed in what it stored rewrites no row', async () => {
    h = openWindow();
    const path = write(chatPath(h.geminiRoot), jsonl([header, user('m1', 0, 'does it build?'), gemini('m2', 0, 'It compiles')]));
    await h.driver.tick();
    // Counts every later UPDATE of a stored part or session row on this connection (the one capture writes through).
    h.db.exec(`CREATE TEMP TABLE rewrites (tbl TEXT);
      CREATE TEMP TRIGGER parts_rewritten AFTER UPDATE ON main.parts BEGIN INSERT INTO rewrites VALUES ('parts'); END;
      CREATE TEMP TRIGGER sessions_rewritten AFTER UPDATE ON main.sessions BEGIN INSERT INTO rewrites VALUES ('sessions'); END;`);
    // The same message again, unchanged (Gemini CLI re-emits a message as it records it).
    appendFileSync(path, jsonl([gemini('m2', 0, 'It compiles')]));
    expect(byProvider(await h.driver.tick(), 'gemini')).toMatchObject({ read: 1, partsWritten: 0 });
    expect(h.count('SELECT COUNT(*) FROM temp.rewrites')).toBe(0);
    // A version that does change something rewrites that part, and only it.
    appendFileSync(path, jsonl([gemini('m2', 0, 'It compiles and links')]));
    await h.driver.tick();
    expect(h.count("SELECT COUNT(*) FROM temp.rewrites WHERE tbl = 'parts'")).toBe(1);
  });
});
