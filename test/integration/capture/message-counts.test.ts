import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { openGateway, RetentionPruner, SearchIndex, SessionEraser, type PieceGate } from '../../../core/gateway/index.js';
import { Core } from '../../../core/index.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { expectIndexExact, miscountedMessages, retagWalk } from '../../support/search-index.js';
import type { Db } from '../../../core/store/index.js';
import { byProvider, captureHarness, inLastHour, type CaptureHarness } from './harness.js';

/**
 * A message is what a person reads as one: a tool's result is read folded under its call, so it is
 * not a message of its own, in any provider's shape. Unless the person's own words share its message.
 */

const FIXTURES = fileURLToPath(new URL('../../fixtures/transcripts/', import.meta.url));
const SESSION = '7d3e9a41-2c5b-4f8e-b1a0-6e4d2c9f8b17';
const CWD = '/home/ana/src/uploader';
const ROUNDS = 3;
/** Each round: a prompt, two tool calls (each its own assistant line) and an answer; and the two results. */
const TURNS_PER_ROUND = 4;
const RESULTS_PER_ROUND = 2;
/** The rounds' turns, and the last line: a tool's result with the person's words after it in the same message. */
const TURNS = ROUNDS * TURNS_PER_ROUND + 1;
const RESULTS = ROUNDS * RESULTS_PER_ROUND + 1;
const PERSONS_WORDS = 'Stop there: only the upload path, not the download one';

type Json = Record<string, unknown>;

/** The prompt, tool call and tool result lines of the Claude Code 2.1 fixture, as Claude Code writes them. */
function claudeShapes(): { prompt: Json; call: Json; result: Json } {
  const lines = readFileSync(join(FIXTURES, 'claude', 'background-job.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Json)
    .filter((l) => l.type === 'user' || l.type === 'assistant');
  const [prompt, call, result] = lines;
  return { prompt: prompt!, call: call!, result: result! };
}

/** A Claude conversation of TURNS turns and RESULTS tool results, in the fixture's shapes. */
function claudeConversation(): string {
  const { prompt, call, result } = claudeShapes();
  const lines: Json[] = [];
  let n = 0;
  const line = (shape: Json, message: Json): void => {
    n += 1;
    const base = structuredClone(shape);
    lines.push({ ...base, cwd: CWD, uuid: `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`, timestamp: inLastHour(n).toISOString(), message: { ...(base.message as Json), ...message } });
  };
  const content = (shape: Json) => (shape.message as { content: Json[] }).content;
  for (let round = 0; round < ROUNDS; round += 1) {
    line(prompt, { content: `Audit the retry paths, round ${round}` });
    for (let c = 0; c < RESULTS_PER_ROUND; c += 1) {
      const id = `toolu_${round}_${c}`;
      line(call, { content: [{ ...content(call)[0], id }] });
      line(result, { content: [{ ...content(result)[0], tool_use_id: id }] });
    }
    line(call, { content: [{ type: 'text', text: `Round ${round}: two retry paths are not covered.` }] });
  }
  // The Messages API allows a user message that returns a result and says more: the person's words count.
  line(result, { content: [{ ...content(result)[0], tool_use_id: 'toolu_last' }, { type: 'text', text: PERSONS_WORDS }] });
  return `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
}

function writeClaude(root: string): void {
  const dir = join(root, 'projects', '-home-ana-src-uploader');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${SESSION}.jsonl`), claudeConversation());
}

const storedMessages = (c: CaptureHarness, sessionId = SESSION) =>
  c.db.prepare('SELECT messages FROM session_stats WHERE session_id = ?').pluck().get(sessionId) as number | undefined;

let h: CaptureHarness | undefined;
let home: TempHome | undefined;
let core: Core | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  await core?.shutdown();
  core = undefined;
  home?.cleanup();
  home = undefined;
});

describe('a tool result is not a message', () => {
  it('a Claude conversation of N turns and M tool results counts N messages in the tick and in its counts', async () => {
    h = captureHarness();
    writeClaude(h.claudeRoot);
    const tick = byProvider(await h.driver.tick(), 'claude');
    expect(tick).toMatchObject({ read: 1, failed: 0, partsWritten: TURNS + RESULTS, messagesWritten: TURNS });
    expect(storedMessages(h)).toBe(TURNS);
    expectIndexExact(h.db);
  });

  it('Sessions.List and Sessions.Get say N messages', async () => {
    home = tempHome('steward-message-counts-');
    const root = join(home.dir, 'roots', 'claude');
    writeClaude(root);
    home.env.STEWARD_CLAUDE_ROOTS = root;
    core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
    await core.call('Backfill.Run', { all: true });
    const { sessions } = await core.call('Sessions.List', {});
    expect(sessions.find((s) => s.sessionId === SESSION)).toMatchObject({ messages: TURNS, toolCalls: ROUNDS * RESULTS_PER_ROUND });
    const got = await core.call('Sessions.Get', { sessionId: SESSION });
    expect(got.session.messages).toBe(TURNS);
    // The conversation itself is whole: the person's words after the last result are there.
    expect(got.messages.flatMap((m) => m.parts.map((p) => p.text))).toContain(PERSONS_WORDS);
  });

  it('Sessions.Get and the JSON export mark each message the count leaves out, so the two add up', async () => {
    home = tempHome('steward-message-marks-');
    const root = join(home.dir, 'roots', 'claude');
    writeClaude(root);
    home.env.STEWARD_CLAUDE_ROOTS = root;
    core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
    await core.call('Backfill.Run', { all: true });
    const got = await core.call('Sessions.Get', { sessionId: SESSION });
    const marks = got.messages.map((m) => (m as { countsAsMessage?: false }).countsAsMessage);
    // Every line of results but the last, which the person's words share: that one counts.
    expect(marks.filter((c) => c === false)).toHaveLength(RESULTS - 1);
    expect(marks.filter((c) => c === undefined)).toHaveLength(got.session.messages);
    const spoken = got.messages.findIndex((m) => m.parts.some((p) => p.text === PERSONS_WORDS));
    expect(got.messages[spoken]!.parts[0]!.kind).toBe('tool_result');
    expect(marks[spoken]).toBeUndefined();
    // The export's entries say the same, by the same rule, and its header's count is theirs.
    const doc = JSON.parse((await core.call('Sessions.Export', { sessionId: SESSION, format: 'json' })).content) as { session: { messages: number }; messages: Array<{ countsAsMessage?: false }> };
    expect(doc.messages.map((m) => m.countsAsMessage)).toEqual(marks);
    expect(doc.messages.filter((m) => m.countsAsMessage !== false)).toHaveLength(doc.session.messages);
  });

  it('a Codex rollout counts its turns, not its function call outputs', async () => {
    h = captureHarness({ query: { cache: { retention: { default_days: 0 } } } });
    const dir = join(h.codexRoot, 'sessions', '2026', '07', '13');
    mkdirSync(dir, { recursive: true });
    const name = 'rollout-2026-07-13T18-41-30-019f5c5a-eb02-7ff0-90af-653b66eba9f4.jsonl';
    copyFileSync(join(FIXTURES, 'codex', name), join(dir, name));
    // 11 parts, each its own message: a prompt, a reasoning summary, four calls, an answer, a compaction, three results.
    expect(byProvider(await h.driver.tick(), 'codex')).toMatchObject({ read: 1, partsWritten: 11, messagesWritten: 8 });
    expect(storedMessages(h, '019f5c5a-eb02-7ff0-90af-653b66eba9f4')).toBe(8);
    expectIndexExact(h.db);
  });
});

/** Aborts once `pieces` pieces have deleted rows: a stop between two pieces. */
function stopAfter(pieces: number): { signal: AbortSignal; onProgress: () => void } {
  const stop = new AbortController();
  let seen = 0;
  return { signal: stop.signal, onProgress: () => void ((seen += 1) === pieces && stop.abort()) };
}

describe('counts after part of a conversation goes', () => {
  it('a forget stopped after any piece leaves every count equal to a recount', async () => {
    for (let pieces = 1; ; pieces += 1) {
      h = captureHarness();
      writeClaude(h.claudeRoot);
      await h.driver.tick();
      const eraser = new SessionEraser(h.db, new SearchIndex(h.db));
      const stopped = await eraser.erase([SESSION], 3, stopAfter(pieces)).then(
        () => false,
        () => true,
      );
      expect({ pieces, miscounted: miscountedMessages(h.db) }).toEqual({ pieces, miscounted: [] });
      expectIndexExact(h.db);
      await h.close();
      h = undefined;
      if (!stopped) break;
    }
  });

  it('retention of the older half keeps the newer half counted by its turns', async () => {
    h = captureHarness();
    writeClaude(h.claudeRoot);
    await h.driver.tick();
    const gate: PieceGate = { start: () => undefined, enter: () => true, leave: () => undefined };
    // The first round (six lines, minutes 1 to 6) and the prompt of the second are older than minute 7.5.
    const pruned = await new RetentionPruner(h.db, gate).prune('claude', inLastHour(7.5).getTime(), { batchRows: 2 });
    expect(pruned.complete).toBe(true);
    expect(storedMessages(h)).toBe(TURNS - TURNS_PER_ROUND - 1);
    expectIndexExact(h.db);
  });

  it('a prune says the messages it removes as a person counts them: a line of tool results is not one', async () => {
    h = captureHarness();
    writeClaude(h.claudeRoot);
    await h.driver.tick();
    const gate: PieceGate = { start: () => undefined, enter: () => true, leave: () => undefined };
    const before = storedMessages(h);
    expect(before).toBeGreaterThan(0);
    const pruner = new RetentionPruner(h.db, gate);
    const cutoff = inLastHour(7.5).getTime();
    const counted = await pruner.count('claude', cutoff);
    const pruned = await pruner.prune('claude', cutoff, { batchRows: 2 });
    expect(pruned.messages).toBe((before ?? 0) - (storedMessages(h) ?? 0));
    expect(counted.messages).toBe(pruned.messages);
  });
});

describe('migration 22', () => {
  /** A store captured by today's code, then set back to schema 21: no rule on its map rows, every block 0 counted. */
  async function oldStore(): Promise<string> {
    const c = captureHarness();
    writeClaude(c.claudeRoot);
    await c.driver.tick();
    await c.driver.stop();
    c.db.exec(`
      ALTER TABLE search_map DROP COLUMN message_rule;
      UPDATE session_stats SET messages = (SELECT COUNT(*) FROM parts p JOIN search_map m ON m.part_rowid = p.rowid WHERE p.session_id = session_stats.session_id AND p.part_id LIKE '%:0');
      DELETE FROM search_state WHERE key LIKE 'recount_%';
    `);
    expect(storedMessages(c)).toBe(TURNS + RESULTS - 1);
    c.db.pragma('user_version = 21');
    c.db.close();
    home = c.home;
    return c.home.dir;
  }

  const stored = (db: Db) => db.prepare('SELECT messages FROM session_stats WHERE session_id = ?').pluck().get(SESSION) as number | undefined;

  it('marks the work only; the background walk recounts, and parts indexed or removed meanwhile stay exact', async () => {
    const db = openGateway(await oldStore());
    try {
      expect(db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(22);
      // Opening the store recounts nothing.
      expect(stored(db)).toBe(TURNS + RESULTS - 1);
      // A tool result indexed again before the walk (a newer parser's reading) leaves by the old rule and comes back by the new.
      const index = new SearchIndex(db);
      const result = db.prepare("SELECT rowid FROM parts WHERE session_id = ? AND kind = 'tool_result' ORDER BY rowid LIMIT 1").pluck().get(SESSION) as number;
      index.rewriteParts([result], () => undefined);
      expect(stored(db)).toBe(TURNS + RESULTS - 2);
      // A forget that stopped after its first piece (one row, the first prompt): it leaves by the old rule.
      await expect(new SessionEraser(db, index).erase([SESSION], 3, stopAfter(1))).rejects.toMatchObject({ code: 'cancelled' });
      expect(db.prepare('SELECT COUNT(*) FROM parts WHERE session_id = ?').pluck().get(SESSION)).toBe(TURNS + RESULTS - 1);
      expect(stored(db)).toBe(TURNS + RESULTS - 3);
      // Searches are told the walk is not done while counts are still being brought to the rule.
      expect(index.retagProgress()).toMatchObject({ phase: 'retag', complete: false });
      await retagWalk(db);
      expect(stored(db)).toBe(TURNS - 1);
      expect(index.retagProgress()).toMatchObject({ complete: true });
      expectIndexExact(db);
    } finally {
      db.close();
    }
  });
});
