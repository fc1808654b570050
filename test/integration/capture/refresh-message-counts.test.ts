import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RetentionPruner, SearchIndex, type PieceGate } from '../../../core/gateway/index.js';
import { expectIndexExact, miscountedMessages } from '../../support/search-index.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';
import { captureHarness, type CaptureHarness } from './harness.js';

/**
 * A message's count is told by the part that stands for it, and by its siblings' flags: a tool's
 * result counts when the person's own words share its message. A refreshing read (a newer parser) that
 * changes a sibling, or adds one, brings the message's count right in the same write, so a later
 * prune takes away exactly what the session counts.
 */

const S = 'aaaaaaaa-0000-4000-8000-0000000000a1';
const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
const CWD = '/work/counts';
const DAY = 86_400_000;
const WORDS = 'Only the upload path, not the download one';

let h: CaptureHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const result = (id: string) => ({ type: 'tool_result', tool_use_id: id, content: 'done' });

/** Line A (ten days old): a tool's result, with `content` after it; line B (recent): a tool's result alone. */
function writeSession(root: string, a: { content: unknown[]; extra?: Record<string, unknown> }): void {
  writeJsonl(join(root, 'projects', '-work-counts', `${S}.jsonl`), [
    claudeLine({ sessionId: S, cwd: CWD, uuid: A, ts: new Date(Date.now() - 10 * DAY), content: [result('toolu_a'), ...a.content], extra: a.extra }),
    claudeLine({ sessionId: S, cwd: CWD, uuid: B, ts: new Date(Date.now() - 60_000), content: [result('toolu_b')] }),
  ]);
}

const stored = (c: CaptureHarness) => c.db.prepare('SELECT messages FROM session_stats WHERE session_id = ?').pluck().get(S) as number;
/** The conversation counts `messages`, as a recount of its parts does, and the index is exact. */
function countedAsStored(harness: CaptureHarness, messages: number): void {
  expect(miscountedMessages(harness.db)).toEqual([]);
  expect(stored(harness)).toBe(messages);
  expectIndexExact(harness.db);
}

/** The file read again from its start, as a parser upgrade leaves it: what it says now is written over what was stored. */
async function refresh(c: CaptureHarness): Promise<void> {
  c.db.prepare('DELETE FROM file_checkpoints').run();
  await (await c.restart()).tick();
}

async function pruneOlderThanADay(c: CaptureHarness): Promise<void> {
  const gate: PieceGate = { start: () => undefined, enter: () => true, leave: () => undefined };
  const pruned = await new RetentionPruner(c.db, gate).prune('claude', Date.now() - DAY, { batchRows: 1 });
  expect(pruned.complete).toBe(true);
}

describe('a refreshing read that changes what a message counts', () => {
  it('a sibling that comes to hold the person\'s words makes its tool result count, and a prune takes it away again', async () => {
    h = captureHarness({ query: { cache: { retention: { default_days: 0 } } } });
    // Written for the transcript only: not the person's words, so line A is a tool result.
    writeSession(h.claudeRoot, { content: [{ type: 'text', text: WORDS }], extra: { isVisibleInTranscriptOnly: true } });
    await h.driver.tick();
    expect(h.count(`SELECT genuine_user_turn FROM parts WHERE part_id = 'cc:${A}:1'`)).toBe(0);
    countedAsStored(h, 0);

    writeSession(h.claudeRoot, { content: [{ type: 'text', text: WORDS }] });
    await refresh(h);
    expect(h.count(`SELECT genuine_user_turn FROM parts WHERE part_id = 'cc:${A}:1'`)).toBe(1);
    countedAsStored(h, 1);

    await pruneOlderThanADay(h);
    countedAsStored(h, 0);
  });

  it('a sibling that loses the person\'s words makes its tool result count no more', async () => {
    h = captureHarness({ query: { cache: { retention: { default_days: 0 } } } });
    writeSession(h.claudeRoot, { content: [{ type: 'text', text: WORDS }] });
    await h.driver.tick();
    expect(stored(h)).toBe(1);

    writeSession(h.claudeRoot, { content: [{ type: 'text', text: WORDS }], extra: { isVisibleInTranscriptOnly: true } });
    await refresh(h);
    countedAsStored(h, 0);

    await pruneOlderThanADay(h);
    countedAsStored(h, 0);
  });

  it('a part read for the first time into a stored message, with the person\'s words, makes its tool result count', async () => {
    h = captureHarness({ query: { cache: { retention: { default_days: 0 } } } });
    writeSession(h.claudeRoot, { content: [] });
    await h.driver.tick();
    expect(stored(h)).toBe(0);

    writeSession(h.claudeRoot, { content: [{ type: 'text', text: WORDS }] });
    await refresh(h);
    expect(h.count(`SELECT genuine_user_turn FROM parts WHERE part_id = 'cc:${A}:1'`)).toBe(1);
    countedAsStored(h, 1);

    await pruneOlderThanADay(h);
    countedAsStored(h, 0);
  });

  it('the part that stands for a message changing its kind is counted by its new kind', async () => {
    h = captureHarness({ query: { cache: { retention: { default_days: 0 } } } });
    writeSession(h.claudeRoot, { content: [{ type: 'text', text: WORDS }], extra: { isVisibleInTranscriptOnly: true } });
    await h.driver.tick();
    // An older parser's reading of block 0: stored as text, so the message counted.
    const rowid = h.count(`SELECT rowid FROM parts WHERE part_id = 'cc:${A}:0'`);
    new SearchIndex(h.db).rewriteParts([rowid], () => h!.db.prepare(`UPDATE parts SET kind = 'text' WHERE rowid = ?`).run(rowid));
    expect(stored(h)).toBe(1);

    await refresh(h);
    expect(miscountedMessages(h.db)).toEqual([]);
    expect(stored(h)).toBe(0);
    await pruneOlderThanADay(h);
    expectIndexExact(h.db);
  });
});

describe('a message cut in two by a removal in pieces', () => {
  it('the person\'s words removed before the tool result they share a message with leave it counted as a tool result', async () => {
    h = captureHarness({ query: { cache: { retention: { default_days: 0 } } } });
    writeSession(h.claudeRoot, { content: [{ type: 'text', text: WORDS }] });
    await h.driver.tick();
    expect(stored(h)).toBe(1);
    // A piece that took block 1 and stopped before block 0 (a piece's rows follow an index's order, not the message's).
    const words = h.count(`SELECT rowid FROM parts WHERE part_id = 'cc:${A}:1'`);
    const index = new SearchIndex(h.db);
    h.db.transaction(() => {
      index.removeParts([words]);
      h!.db.prepare('DELETE FROM parts WHERE rowid = ?').run(words);
    })();
    countedAsStored(h, 0);
    await pruneOlderThanADay(h);
    countedAsStored(h, 0);
  });
});
