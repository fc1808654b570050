import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeHistoryWithMcp, orchardAgentId, writeSubagentOrchard, type ToolResult } from '../../support/mcp.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

const MAIN = 'c0ffee00-0000-4000-8000-0000000000c5';
const PLAIN = 'c0ffee00-0000-4000-8000-0000000000d6';
const SUBAGENTS = 25;
const agentId = orchardAgentId;

const history = claudeHistoryWithMcp('steward-mcp-pins-', (root) => {
  writeSubagentOrchard(root, MAIN, SUBAGENTS);
  const dir = join(root, 'projects', '-work-orchard');
  const at = (i: number) => new Date(Date.now() - 3_600_000 + i * 60_000);
  writeJsonl(join(dir, `${PLAIN}.jsonl`), Array.from({ length: 6 }, (_, i) => claudeLine({ sessionId: PLAIN, cwd: '/work/orchard', ts: at(50 + i), type: i % 2 ? 'assistant' : 'user', text: `plain orchard turn ${i}` })));
});

const text = (r: ToolResult) => r.content.map((c) => c.text ?? '').join('\n');
/** A refusal is typed (invalid_params / not_found), never internal, and names no path. */
function typedRefusal(r: ToolResult, code = 'invalid_params') {
  expect(r.isError, text(r)).toBe(true);
  expect(text(r)).toMatch(new RegExp(`^${code}:`));
  expect(text(r)).not.toMatch(/\/tmp|steward-mcp-pins|\.jsonl|at [A-Za-z]+ \(/);
}

async function firstPinned(args: Record<string, unknown>) {
  const first = await history.call('search_transcripts', args);
  expect(first.isError, text(first)).toBeFalsy();
  const cursor = (first.structuredContent as { cursor?: string }).cursor;
  expect(cursor).toBeDefined();
  return cursor!;
}

describe('search_transcripts pinned cursors, tampered', () => {
  const args = { query: 'orchard', from: '100d', limit: 1 };

  it('pages on with the same arguments (sanity)', async () => {
    const cursor = await firstPinned(args);
    expect(cursor).toMatch(/~f100d@\d+$/);
    const second = await history.call('search_transcripts', { ...args, cursor });
    expect(second.isError, text(second)).toBeFalsy();
  });

  it.each([
    ['huge instant past the last date', '9999999999999999'],
    ['just past the last date', '8640000000000001'],
    ['another instant', '1'],
    ['zero', '0'],
  ])('a pin with %s is refused as a cursor, typed', async (_label, ms) => {
    const cursor = await firstPinned(args);
    const tampered = cursor.replace(/@\d+$/, `@${ms}`);
    typedRefusal(await history.call('search_transcripts', { ...args, cursor: tampered }));
  });

  it('a huge "to" pin is refused typed', async () => {
    const cursor = await firstPinned({ ...args, to: '1m' });
    const tampered = cursor.replace(/~t1m@\d+/, '~t1m@9999999999999999');
    expect(tampered).not.toBe(cursor);
    typedRefusal(await history.call('search_transcripts', { ...args, to: '1m', cursor: tampered }));
  });

  it.each(['~f100d@-5', '~f100d@NaN', '~f100d@', '~x100d@5', '~f100d@1~f100d@2', '~'])('malformed tail %s is refused typed', async (tail) => {
    const cursor = await firstPinned(args);
    const own = cursor.split('~')[0]!;
    typedRefusal(await history.call('search_transcripts', { ...args, cursor: own + tail }));
  });

  it('a cursor with a pin reused with another query is refused', async () => {
    const cursor = await firstPinned(args);
    typedRefusal(await history.call('search_transcripts', { ...args, query: 'rows', cursor }));
  });

  it('the pinned instant given in another zone format pages on', async () => {
    const first = await history.call('search_transcripts', args);
    const out = first.structuredContent as { cursor: string; pinned: { from: string } };
    const ms = Date.parse(out.pinned.from);
    const d = new Date(ms + 2 * 3_600_000);
    const p = (n: number, w = 2) => String(n).padStart(w, '0');
    const plus2 = `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())}T${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}.${p(d.getUTCMilliseconds(), 3)}+02:00`;
    expect(Date.parse(plus2)).toBe(ms);
    const second = await history.call('search_transcripts', { ...args, from: plus2, cursor: out.cursor });
    expect(second.isError, text(second)).toBeFalsy();
  });

  it('a from given as the span and to as an absolute mix pages on', async () => {
    const a = { ...args, to: new Date(Date.now() + 86_400_000).toISOString() };
    const cursor = await firstPinned(a);
    const second = await history.call('search_transcripts', { ...a, cursor });
    expect(second.isError, text(second)).toBeFalsy();
  });
});

describe('get_session subagentsCursor, tampered', () => {
  it.each(['subagents:999999', 'subagents:25', 'subagents:24', 'subagents:000020'])('%s lists without error', async (cursor) => {
    const r = await history.call('get_session', { session_id: MAIN, cursor });
    expect(r.isError, text(r)).toBeFalsy();
  });

  it.each(['subagents:-1', 'subagents:abc', 'subagents:', 'subagents:1e3', 'subagents:9999999', 'subagents:20 ', 'SUBAGENTS:20', 'subagents:20~f1d@1'])('%s is refused typed', async (cursor) => {
    typedRefusal(await history.call('get_session', { session_id: MAIN, cursor }));
  });

  it('on a conversation without subagents', async () => {
    const r = await history.call('get_session', { session_id: PLAIN, cursor: 'subagents:0' });
    expect(r.isError, text(r)).toBeFalsy();
  });

  it('on a conversation not stored', async () => {
    typedRefusal(await history.call('get_session', { session_id: 'c0ffee00-0000-4000-8000-0000000000ff', cursor: 'subagents:0' }), 'not_found');
  });

  it.each([
    [{ part_id: 'x' }],
    [{ at: 'end' }],
    [{ from_char: 10 }],
  ])('combined with %j is refused typed', async (extra) => {
    typedRefusal(await history.call('get_session', { session_id: MAIN, cursor: 'subagents:20', ...extra }));
  });

  it('a subagents cursor given to search_transcripts is refused typed', async () => {
    typedRefusal(await history.call('search_transcripts', { query: 'orchard', cursor: 'subagents:20' }));
  });

  it('a subagent session itself with a subagents cursor', async () => {
    const sub = `${MAIN}:agent-${agentId(0)}`;
    const r = await history.call('get_session', { session_id: sub, cursor: 'subagents:0' });
    expect(r.isError, text(r)).toBeFalsy();
  });
});
