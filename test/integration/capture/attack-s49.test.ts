import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { countRecordError } from '../../../core/transcripts/lines.js';
import { claudeLine } from '../../support/transcripts.js';
import { byProvider, captureHarness, type CaptureHarness } from './harness.js';

/**
 * Attack s49 on transcript capture: hostile but real-shaped input.
 *
 * A line that is valid, small JSON (about 120 KB, far under `sweep.max_line_bytes`) but nested tens of
 *    thousands of levels deep parses (JSON.parse does not recurse), and then a parser's JSON.stringify
 *    (or Array#toString) of a field of it overflows the stack. The RangeError escapes the provider's read:
 *    the whole file fails (`read_failed`), and no line after the deep one is ever imported, on this tick
 *    or any later one, however the agent goes on writing. One line should be counted, not the file lost.
 */
const openWindow = { query: { cache: { retention: { default_days: 0 } } } };
/** Deep enough to overflow JSON.stringify in a worker thread's stack as well as the main thread's. */
const DEPTH = 60_000;
const DEEP_ARRAY = '['.repeat(DEPTH) + ']'.repeat(DEPTH);
const DEEP_OBJECT = '{"a":'.repeat(DEPTH) + '1' + '}'.repeat(DEPTH);
const HOLE = '"__DEEP__"';

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

const line = (value: unknown) => `${JSON.stringify(value)}\n`;
/** One JSON line with `deep` put where the value is the string `__DEEP__`. */
const deepLine = (value: unknown, deep: string) => line(value).replace(HOLE, deep);
const textsLike = (c: CaptureHarness, pattern: string) => c.db.prepare('SELECT text FROM parts WHERE text LIKE ? ORDER BY text').pluck().all(pattern);

describe('attack s49: a deeply nested JSON line is one line, not the whole file', () => {
  it('Claude: a tool_result whose content nests deep does not fail the file; the lines after it are imported', async () => {
    h = captureHarness(openWindow);
    const s = 'a49c0000-0000-4000-8000-000000000001';
    const path = write(join(h.claudeRoot, 'projects', '-work-orchard', `${s}.jsonl`), line(claudeLine({ sessionId: s, text: 'first question' })) + line(claudeLine({ sessionId: s, type: 'assistant', text: 'first answer' })));
    expect(byProvider(await h.driver.tick(), 'claude')).toMatchObject({ read: 1, failed: 0, partsWritten: 2 });

    const toolResult = claudeLine({ sessionId: s, content: [{ type: 'tool_result', tool_use_id: 'toolu_deep', content: '__DEEP__' }] });
    appendFileSync(path, deepLine(toolResult, DEEP_ARRAY) + line(claudeLine({ sessionId: s, text: 'LATER question after the deep line' })));
    const stats = byProvider(await h.driver.tick(), 'claude');
    expect(stats).toMatchObject({ failed: 0 });
    expect(stats.skipped).toMatchObject({ malformed: 1 });
    expect(textsLike(h, 'LATER%')).toEqual(['LATER question after the deep line']);
    expect(h.driver.unreadable()).toEqual({ files: [], total: 0 });
  });

  it('Claude: a tool_use whose input nests deep is that line counted, not a part stored with empty text', async () => {
    h = captureHarness(openWindow);
    const s = 'a49c0000-0000-4000-8000-000000000002';
    const toolUse = claudeLine({ sessionId: s, type: 'assistant', content: [{ type: 'tool_use', id: 'toolu_deep_in', name: 'Bash', input: '__DEEP__' }] });
    write(join(h.claudeRoot, 'projects', '-work-orchard', `${s}.jsonl`), line(claudeLine({ sessionId: s, text: 'run it' })) + deepLine(toolUse, DEEP_OBJECT) + line(claudeLine({ sessionId: s, text: 'LATER after the deep call' })));
    const stats = byProvider(await h.driver.tick(), 'claude');
    expect(stats).toMatchObject({ failed: 0 });
    expect(stats.skipped).toMatchObject({ malformed: 1 });
    expect(h.db.prepare("SELECT COUNT(*) FROM parts WHERE kind = 'tool_use'").pluck().get()).toBe(0);
    expect(textsLike(h, 'LATER%')).toEqual(['LATER after the deep call']);
  });

  it('Codex: a function_call_output whose output nests deep does not fail the rollout; the lines after it are imported', async () => {
    h = captureHarness(openWindow);
    const id = '019fa49c-3333-7eee-8fff-2a3b4c5d6e03';
    const at = (s: number) => `2026-12-02T08:00:${String(s).padStart(2, '0')}.000Z`;
    const envelope = (s: number, type: string, payload: unknown) => ({ timestamp: at(s), type, payload });
    const path = write(
      join(h.codexRoot, 'sessions', '2026', '12', '02', `rollout-2026-12-02T08-00-00-${id}.jsonl`),
      line(envelope(0, 'session_meta', { id, timestamp: at(0), cwd: '/home/dana/src/orchard', originator: 'codex_cli_rs', cli_version: '0.162.0', source: 'cli' })) +
        line(envelope(1, 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'deploy the site' }] })) +
        deepLine(envelope(2, 'response_item', { type: 'function_call_output', call_id: 'call_deep', output: '__DEEP__' }), DEEP_OBJECT) +
        line(envelope(3, 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'LATER codex question' }] })),
    );
    const stats = byProvider(await h.driver.tick(), 'codex');
    expect(stats).toMatchObject({ failed: 0 });
    expect(stats.skipped).toMatchObject({ malformed: 1 });
    // A first read: the lines before the deep one are stored too.
    expect(textsLike(h, 'deploy%')).toEqual(['deploy the site']);
    expect(textsLike(h, 'LATER%')).toEqual(['LATER codex question']);
    expect(h.driver.unreadable().files.map((f) => f.path)).not.toContain(path);
  });

  it('Gemini: a message whose content nests deep does not fail the chat; the messages after it are imported', async () => {
    h = captureHarness(openWindow);
    const sid = '92f625c6-a764-48e3-b922-3766d41f9c4c';
    const ts = (m: number) => `2026-05-22T15:${String(m).padStart(2, '0')}:00.000Z`;
    write(
      join(h.geminiRoot, 'tmp', 'site', 'chats', 'session-2026-05-22T14-59-92f625c6.jsonl'),
      line({ sessionId: sid, projectHash: 'site', startTime: ts(0), lastUpdated: ts(0), kind: 'main' }) +
        line({ id: 'm1', timestamp: ts(1), type: 'user', content: [{ text: 'does it build?' }] }) +
        deepLine({ id: 'm2', timestamp: ts(2), type: 'user', content: [{ text: 'deep' }, { a: '__DEEP__' }] }, DEEP_OBJECT) +
        line({ id: 'm3', timestamp: ts(3), type: 'user', content: [{ text: 'LATER gemini question' }] }),
    );
    const stats = byProvider(await h.driver.tick(), 'gemini');
    expect(stats).toMatchObject({ failed: 0 });
    expect(stats.skipped).toMatchObject({ malformed: 1 });
    expect(textsLike(h, 'does it%')).toEqual(['does it build?']);
    expect(textsLike(h, 'LATER%')).toEqual(['LATER gemini question']);
  });

  it('Gemini legacy chat (one JSON document): a deep message is that message skipped, not the chat', async () => {
    h = captureHarness(openWindow);
    const sid = '92f625c6-a764-48e3-b922-3766d41f9c4d';
    const ts = (m: number) => `2026-05-22T16:${String(m).padStart(2, '0')}:00.000Z`;
    const chat = {
      sessionId: sid,
      projectHash: 'site',
      startTime: ts(0),
      lastUpdated: ts(3),
      messages: [
        { id: 'm1', timestamp: ts(1), type: 'user', content: 'EARLIER legacy question' },
        { id: 'm2', timestamp: ts(2), type: 'gemini', content: [{ functionResponse: { id: 'c1', name: 'x', response: { a: '__DEEP__' } } }] },
        { id: 'm3', timestamp: ts(3), type: 'user', content: 'LATER legacy question' },
      ],
    };
    const path = write(join(h.geminiRoot, 'tmp', 'site', 'chats', 'session-2026-05-22T15-59-92f625c6.json'), JSON.stringify(chat).replace(HOLE, DEEP_OBJECT));
    const stats = byProvider(await h.driver.tick(), 'gemini');
    expect(stats).toMatchObject({ failed: 0 });
    expect(stats.skipped).toMatchObject({ malformed: 1 });
    expect(textsLike(h, '%legacy question')).toEqual(['EARLIER legacy question', 'LATER legacy question']);
    expect(h.driver.unreadable().files.map((f) => f.path)).not.toContain(path);
  });

  it('OpenClaw: a message whose content nests deep does not fail the session file; the entries after it are imported', async () => {
    h = captureHarness(openWindow);
    const ts = (s: number) => `2026-04-02T09:00:${String(s).padStart(2, '0')}.000Z`;
    write(
      join(h.openclawRoot, 'agents', 'main', 'sessions', 'deep-sess.jsonl'),
      line({ type: 'session', version: 3, id: 'deep-sess', timestamp: ts(0), cwd: '/home/sam/dash' }) +
        line({ type: 'message', id: 'e1', parentId: null, timestamp: ts(1), message: { role: 'user', content: [{ type: 'text', text: 'take a screenshot' }] } }) +
        deepLine({ type: 'message', id: 'e2', parentId: 'e1', timestamp: ts(2), message: { role: 'user', content: [{ type: 'text', text: 'deep' }, '__DEEP__'] } }, DEEP_ARRAY) +
        // A timestamp nested deep: String() of an array recurses as JSON.stringify does.
        deepLine({ type: 'message', id: 'e2b', parentId: 'e2', timestamp: '__DEEP__', message: { role: 'user', timestamp: 1775120402000, content: [{ type: 'text', text: 'deep time' }] } }, DEEP_ARRAY) +
        line({ type: 'message', id: 'e3', parentId: 'e2', timestamp: ts(3), message: { role: 'user', content: [{ type: 'text', text: 'LATER openclaw question' }] } }),
    );
    const stats = byProvider(await h.driver.tick(), 'openclaw');
    expect(stats).toMatchObject({ failed: 0 });
    expect(stats.skipped).toMatchObject({ malformed: 2 });
    expect(textsLike(h, 'take a%')).toEqual(['take a screenshot']);
    expect(textsLike(h, 'LATER%')).toEqual(['LATER openclaw question']);
  });
});

describe('attack s49, review: what a deep record counts, and only that', () => {
  it('only a stack overflow is a record of its own: any other RangeError (a string too long) fails the read as before', () => {
    const stats = { failedLines: 0, skipped: {} } as unknown as Parameters<typeof countRecordError>[0];
    expect(() => countRecordError(stats, new RangeError('Invalid string length'))).toThrow('Invalid string length');
    expect(() => countRecordError(stats, new RangeError('Invalid array length'))).toThrow('Invalid array length');
    countRecordError(stats, new RangeError('Maximum call stack size exceeded'));
    expect(stats.failedLines).toBe(1);
  });

  it('Gemini: one deep message of a `$set.messages` checkpoint is that message counted; the others in it are stored', async () => {
    h = captureHarness(openWindow);
    const sid = '92f625c6-a764-48e3-b922-3766d41f9c4e';
    const ts = (m: number) => `2026-05-22T17:${String(m).padStart(2, '0')}:00.000Z`;
    const checkpoint = {
      $set: {
        messages: [
          { id: 'c1', timestamp: ts(1), type: 'user', content: [{ text: 'BEFORE the deep one' }] },
          { id: 'c2', timestamp: ts(2), type: 'user', content: [{ text: 'deep' }, { a: '__DEEP__' }] },
          { id: 'c3', timestamp: ts(3), type: 'user', content: [{ text: 'AFTER the deep one' }] },
        ],
      },
    };
    write(join(h.geminiRoot, 'tmp', 'site', 'chats', 'session-2026-05-22T16-59-92f625c6.jsonl'), line({ sessionId: sid, projectHash: 'site', startTime: ts(0), lastUpdated: ts(0), kind: 'main' }) + deepLine(checkpoint, DEEP_OBJECT));
    const stats = byProvider(await h.driver.tick(), 'gemini');
    expect(stats).toMatchObject({ failed: 0 });
    expect(stats.skipped).toMatchObject({ malformed: 1 });
    expect(textsLike(h, '% the deep one')).toEqual(['AFTER the deep one', 'BEFORE the deep one']);
  });

  it('Gemini: a deep message of a `$set.messages` checkpoint keeps its place in the list: a `$rewindTo` naming it marks the turns after it rewound', async () => {
    h = captureHarness(openWindow);
    const sid = '92f625c6-a764-48e3-b922-3766d41f9c4f';
    const ts = (m: number) => `2026-05-22T18:${String(m).padStart(2, '0')}:00.000Z`;
    const checkpoint = {
      $set: {
        messages: [
          { id: 'r1', timestamp: ts(1), type: 'user', content: [{ text: 'KEPT before the deep one' }] },
          { id: 'r2', timestamp: ts(2), type: 'user', content: [{ text: 'deep' }, { a: '__DEEP__' }] },
          { id: 'r3', timestamp: ts(3), type: 'user', content: [{ text: 'REWOUND after the deep one' }] },
        ],
      },
    };
    write(
      join(h.geminiRoot, 'tmp', 'site', 'chats', 'session-2026-05-22T17-59-92f625c6.jsonl'),
      line({ sessionId: sid, projectHash: 'site', startTime: ts(0), lastUpdated: ts(0), kind: 'main' }) + deepLine(checkpoint, DEEP_OBJECT) + line({ $rewindTo: 'r2' }),
    );
    const stats = byProvider(await h.driver.tick(), 'gemini');
    expect(stats).toMatchObject({ failed: 0 });
    expect(stats.skipped).toMatchObject({ malformed: 1 });
    const rows = h.db.prepare('SELECT text, meta FROM parts WHERE text LIKE ? ORDER BY text').all('% the deep one') as Array<{ text: string; meta: string | null }>;
    expect(rows.map((r) => [r.text, (JSON.parse(r.meta ?? '{}') as { rewound?: boolean }).rewound === true])).toEqual([
      ['KEPT before the deep one', false],
      ['REWOUND after the deep one', true],
    ]);
  });

  it('Claude: a file whose only line nests deep fails as a file, and leaves no conversation, empty', async () => {
    h = captureHarness(openWindow);
    const s = 'a49c0000-0000-4000-8000-000000000009';
    const toolResult = claudeLine({ sessionId: s, content: [{ type: 'tool_result', tool_use_id: 'toolu_deep', content: '__DEEP__' }] });
    write(join(h.claudeRoot, 'projects', '-work-orchard', `${s}.jsonl`), deepLine(toolResult, DEEP_ARRAY));
    expect(byProvider(await h.driver.tick(), 'claude')).toMatchObject({ failed: 1, partsWritten: 0 });
    expect(h.db.prepare('SELECT COUNT(*) FROM sessions').pluck().get()).toBe(0);
  });
});
