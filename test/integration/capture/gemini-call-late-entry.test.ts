import { appendFileSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GeminiProvider } from '../../../core/transcripts/providers/gemini/index.js';
import type { LineStats, PartRow, TranscriptFile } from '../../../core/transcripts/index.js';
import { byProvider, captureHarness, type CaptureHarness } from './harness.js';

/*
 * A call Gemini CLI puts in a record's `content` (a `functionCall` part of the history's model turn, a
 * `functionResponse` part of the user turn that sends the tool's output back) before its `toolCalls`
 * entry (`recordToolCalls`: id, name, args, result, status) is written into the record: the entry is
 * the same call, fuller, and takes the call's place. A call the model sent without an id (older
 * histories: turn.ts made the id, `read_file-1716390000-1`, for the entry only) is the same call as the
 * entry at its place. Fixtures shaped as chatRecordingService.ts writes them.
 */
const SID = '3b1e7c52-9a04-4d6f-8e21-6c5f0a9d2e73';
const CALL = 'read_file-1716390000-1';
const ts = (second: number) => `2026-06-03T09:00:${String(second).padStart(2, '0')}.000Z`;
const header = { sessionId: SID, projectHash: 'site', startTime: ts(0), lastUpdated: ts(0), kind: 'main' };
const args = { absolute_path: '/p/build.sh' };
const output = 'echo building LATEENTRY1';
const response = (id: string | undefined, body: Record<string, unknown>) => ({ functionResponse: { ...(id ? { id } : {}), name: 'read_file', response: body } });
const entry = (status = 'success') => ({
  id: CALL,
  name: 'read_file',
  args,
  result: [response(CALL, status === 'error' ? { error: 'ENOENT LATEENTRY2' } : { output })],
  status,
  timestamp: ts(6),
  resultDisplay: '',
  displayName: 'ReadFile',
  description: 'Reads a file',
  renderOutputAsMarkdown: true,
});
const u1 = { id: 'u1', timestamp: ts(1), type: 'user', content: [{ text: 'what does build.sh do?' }] };
/** The model turn as the history holds it: its text, then its call as the model sent it. */
const turn = (id: string | undefined) => [{ text: 'Let me look.' }, { functionCall: { ...(id ? { id } : {}), name: 'read_file', args }, thoughtSignature: 'c2lnbmF0dXJl' }];
const g1 = (callId: string | undefined, toolCalls?: unknown[]) => ({
  id: 'g1',
  timestamp: ts(5),
  type: 'gemini',
  content: turn(callId),
  thoughts: [],
  tokens: null,
  model: 'gemini-2.5-pro',
  ...(toolCalls ? { toolCalls } : {}),
});
const jsonl = (records: unknown[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;

let h: CaptureHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const chatPath = (root: string, ext: string) => join(root, 'tmp', 'site', 'chats', `session-2026-06-03T09-00-3b1e7c52.${ext}`);

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

interface Stored {
  part: string;
  kind: string;
  text: string | null;
  meta: Record<string, unknown>;
}

const stored = (harness: CaptureHarness): Stored[] =>
  (harness.db.prepare('SELECT part_id, kind, text, meta FROM parts WHERE session_id = ? ORDER BY rowid').all(SID) as { part_id: string; kind: string; text: string | null; meta: string | null }[]).map((p) => ({
    part: p.part_id.split(':').slice(2).join(':'),
    kind: p.kind,
    text: p.text,
    meta: JSON.parse(p.meta ?? '{}') as Record<string, unknown>,
  }));
const ofKind = (harness: CaptureHarness, kind: string) => stored(harness).filter((p) => p.kind === kind);

/** One tick, then (with `restart`) a new owner on the same gateway.db: checkpoints are all it keeps. */
async function tick(harness: CaptureHarness, restart: boolean) {
  const row = byProvider(await harness.driver.tick(), 'gemini');
  if (restart) await harness.restart();
  return row;
}

const open = () => captureHarness({ query: { cache: { retention: { default_days: 0 } } } });

describe.each([false, true])('Gemini: a call in content before its toolCalls entry (restart between reads: %s)', (restart) => {
  it('JSONL: the entry a later re-emission of the record adds is the one call, in the place the content gave it', async () => {
    h = open();
    const path = chatPath(h.geminiRoot, 'jsonl');
    write(path, jsonl([header, u1, g1(CALL)]));
    await tick(h, restart);
    expect(ofKind(h, 'tool_use')).toHaveLength(1);
    appendFileSync(path, jsonl([{ $set: { lastUpdated: ts(5) } }, g1(CALL, [entry()])]));
    await tick(h, restart);
    const uses = ofKind(h, 'tool_use');
    expect(uses).toHaveLength(1);
    expect(uses[0]!.meta).toMatchObject({ name: 'read_file', toolUseId: CALL });
    expect(ofKind(h, 'tool_result').map((p) => p.text)).toEqual([output]);
    // Read again with nothing new: nothing stored.
    appendFileSync(path, jsonl([{ $set: { lastUpdated: ts(9) } }]));
    expect((await tick(h, restart)).partsWritten).toBe(0);
    expect(stored(h)).toHaveLength(4);
  });

  it('JSONL, one read: both versions in the file at once end as one call', async () => {
    h = open();
    write(chatPath(h.geminiRoot, 'jsonl'), jsonl([header, u1, g1(CALL), { $set: { lastUpdated: ts(5) } }, g1(CALL, [entry()])]));
    await tick(h, restart);
    expect(ofKind(h, 'tool_use')).toHaveLength(1);
    expect(ofKind(h, 'tool_result')).toHaveLength(1);
  });

  it('JSONL: a $set.messages checkpoint that adds the entry to the record is the one call too', async () => {
    h = open();
    const path = chatPath(h.geminiRoot, 'jsonl');
    write(path, jsonl([header, u1, g1(CALL)]));
    await tick(h, restart);
    appendFileSync(path, jsonl([{ $set: { messages: [u1, g1(CALL, [entry()])], lastUpdated: ts(7) } }]));
    await tick(h, restart);
    expect(ofKind(h, 'tool_use')).toHaveLength(1);
    expect(ofKind(h, 'tool_result')).toHaveLength(1);
  });

  it("JSONL: a response sent back as a user turn before the entry records its result is one result, the entry's", async () => {
    h = open();
    const path = chatPath(h.geminiRoot, 'jsonl');
    const u2 = { id: 'u2', timestamp: ts(7), type: 'user', content: [response(CALL, { error: 'ENOENT LATEENTRY2' })] };
    write(path, jsonl([header, u1, g1(CALL), u2]));
    await tick(h, restart);
    expect(ofKind(h, 'tool_result')).toHaveLength(1);
    appendFileSync(path, jsonl([g1(CALL, [entry('error')])]));
    await tick(h, restart);
    const results = ofKind(h, 'tool_result');
    expect(results).toHaveLength(1);
    // The entry's facts won: it says the call failed.
    expect(results[0]!.meta).toMatchObject({ toolUseId: CALL, isError: true, status: 'error' });
    expect(ofKind(h, 'tool_use')).toHaveLength(1);
    appendFileSync(path, jsonl([{ $set: { lastUpdated: ts(9) } }]));
    expect((await tick(h, restart)).partsWritten).toBe(0);
  });

  it('legacy: a document rewritten with the entry added to the record is one call', async () => {
    h = open();
    const path = chatPath(h.geminiRoot, 'json');
    const doc = (messages: unknown[]) => JSON.stringify({ sessionId: SID, projectHash: 'site', startTime: ts(0), lastUpdated: ts(9), messages });
    write(path, doc([u1, g1(CALL)]));
    await tick(h, restart);
    write(path, doc([u1, g1(CALL, [entry()])]));
    await tick(h, restart);
    expect(ofKind(h, 'tool_use')).toHaveLength(1);
    expect(ofKind(h, 'tool_result')).toHaveLength(1);
  });

  it('legacy, the other order: the entry first, the content rewritten to hold the call after, is one call', async () => {
    h = open();
    const path = chatPath(h.geminiRoot, 'json');
    const doc = (messages: unknown[]) => JSON.stringify({ sessionId: SID, projectHash: 'site', startTime: ts(0), lastUpdated: ts(9), messages });
    write(path, doc([u1, { ...g1(CALL, [entry()]), content: 'Let me look.' }]));
    await tick(h, restart);
    write(path, doc([u1, g1(CALL, [entry()])]));
    await tick(h, restart);
    expect(ofKind(h, 'tool_use')).toHaveLength(1);
    expect(ofKind(h, 'tool_result')).toHaveLength(1);
  });

  it('a call the model sent without an id is the entry at its place once one is written', async () => {
    h = open();
    const path = chatPath(h.geminiRoot, 'jsonl');
    write(path, jsonl([header, u1, g1(undefined)]));
    await tick(h, restart);
    const first = ofKind(h, 'tool_use');
    expect(first).toHaveLength(1);
    appendFileSync(path, jsonl([g1(undefined, [entry()])]));
    await tick(h, restart);
    const uses = ofKind(h, 'tool_use');
    expect(uses).toHaveLength(1);
    // Its place stays the one the content gave it; the entry's id is what it now says.
    expect(uses[0]!.part).toBe(first[0]!.part);
    expect(uses[0]!.meta).toMatchObject({ toolUseId: CALL });
    appendFileSync(path, jsonl([{ $set: { lastUpdated: ts(9) } }]));
    expect((await tick(h, restart)).partsWritten).toBe(0);
  });

  it('a call without an id keeps its part when the record is rewritten around it', async () => {
    h = open();
    const path = chatPath(h.geminiRoot, 'jsonl');
    // First the call alone (the reply had no text yet), then the turn with its text before the call.
    write(path, jsonl([header, u1, { ...g1(undefined), content: [turn(undefined)[1]] }]));
    await tick(h, restart);
    const before = ofKind(h, 'tool_use').map((p) => p.part);
    appendFileSync(path, jsonl([g1(undefined)]));
    await tick(h, restart);
    expect(ofKind(h, 'tool_use').map((p) => p.part)).toEqual(before);
    expect(ofKind(h, 'text').map((p) => p.text)).toEqual(['what does build.sh do?', 'Let me look.']);
  });
});

describe('Gemini: a call in content before its entry, read in batches of one part', () => {
  it('yields the entry into the part the content call took (a batch between), never a second call', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'steward-gemini-late-'));
    try {
      const path = chatPath(dir, 'jsonl');
      const u2 = { id: 'u2', timestamp: ts(7), type: 'user', content: [response(CALL, { error: 'ENOENT LATEENTRY2' })] };
      write(path, jsonl([header, u1, g1(CALL), u2, g1(CALL, [entry('error')])]));
      const info = statSync(path, { bigint: true });
      const file: TranscriptFile = { path, dev: info.dev, ino: info.ino, size: Number(info.size), mtimeMs: Number(info.mtimeMs), ctimeMs: Number(info.ctimeMs), source: 'gemini' };
      const stats: LineStats = { lines: 0, failedLines: 0, oversizeLines: 0 };
      const parts: PartRow[] = [];
      for await (const batch of new GeminiProvider([]).read(file, { maxLineBytes: 1 << 20, windowStartMs: null, batchParts: 1 }, stats)) parts.push(...batch.parts);
      const ids = (kind: string) => [...new Set(parts.filter((p) => p.kind === kind).map((p) => p.partId.split(':').slice(2).join(':')))];
      expect(ids('tool_use')).toEqual([`g1:tu-${CALL}`]);
      expect(ids('tool_result')).toEqual(['u2:c0']);
      // The last version yielded of the result is the entry's, at the time the response was sent.
      const last = parts.filter((p) => p.kind === 'tool_result').at(-1)!;
      expect(JSON.parse(last.meta ?? '{}')).toMatchObject({ isError: true, status: 'error' });
      expect(last.ts).toBe(Date.parse(ts(7)));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
