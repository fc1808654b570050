import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { coreHome } from '../../support/core.js';
import { appendJsonl, claudeLine, writeJsonl } from '../../support/transcripts.js';
import { byProvider, captureHarness, type CaptureHarness } from './harness.js';

/*
 * A session's span is what its lines say. A plain append widens it; a whole read from the start of
 * the one file that holds the session (rewritten shorter, a chat with messages removed) narrows it to
 * what that file says now; a session with lines in another file keeps the union of both.
 */
const PARENT = '5b1e2c3d-4f50-4a61-8b72-9c8d7e6f5a41';
const AGENT = 'a5e1f00';
const SUB = `${PARENT}:agent-${AGENT}`;
const CWD = '/home/ana/src/uploader';
const PROJECT = '-home-ana-src-uploader';

/** An hour ago, in whole seconds, fixed for the file: every line's time is minutes after it. */
const BASE = Math.floor((Date.now() - 60 * 60_000) / 1000) * 1000;
const inLastHour = (minutes: number) => new Date(BASE + minutes * 60_000);

let h: CaptureHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});
/** For the test that reads through an owner's Core: its home and Core, removed after the test. */
const owned = coreHome('steward-rewritten-span-');

const span = (c: CaptureHarness, id: string) => c.db.prepare('SELECT first_ts AS firstTs, last_ts AS lastTs FROM sessions WHERE session_id = ?').get(id);
const at = (first: Date, last: Date) => ({ firstTs: first.getTime(), lastTs: last.getTime() });

/** A subagent's lines, one a minute from `from`: a prompt, then answers. */
const subagentLines = (minutes: number[]) =>
  minutes.map((m, i) => claudeLine({ sessionId: PARENT, agentId: AGENT, cwd: CWD, type: i === 0 ? 'user' : 'assistant', text: `step ${m}`, ts: inLastHour(m), uuid: `00000000-0000-4000-8000-5a00000000${String(m).padStart(2, '0')}` }));

/** The parent's file (a Task call's conversation) and its subagent's transcript (Claude Code 2.x layout). */
function writeParentAndSubagent(root: string, minutes: number[]): string {
  const dir = join(root, 'projects', PROJECT);
  writeJsonl(join(dir, `${PARENT}.jsonl`), [
    claudeLine({ sessionId: PARENT, cwd: CWD, text: 'find the callers of upload()', ts: inLastHour(1), uuid: '00000000-0000-4000-8000-5b0000000001' }),
    claudeLine({ sessionId: PARENT, cwd: CWD, type: 'assistant', text: 'done', ts: inLastHour(30), uuid: '00000000-0000-4000-8000-5b0000000002' }),
  ]);
  const sub = join(dir, PARENT, 'subagents', `agent-${AGENT}.jsonl`);
  writeJsonl(sub, subagentLines(minutes));
  return sub;
}

describe('a span read again from the file start follows what the file says now', () => {
  it('a subagent transcript rewritten shorter: the tick that reads it again ends the subagent at its new last line', async () => {
    h = captureHarness();
    const sub = writeParentAndSubagent(h.claudeRoot, [2, 3, 4, 5, 6]);
    expect(byProvider(await h.driver.tick(), 'claude')).toMatchObject({ read: 2, failed: 0 });
    expect(span(h, SUB)).toEqual(at(inLastHour(2), inLastHour(6)));

    // Claude Code wrote the transcript again without its last lines: the file is shorter, read from 0.
    writeJsonl(sub, subagentLines([2, 3, 4]));
    expect(byProvider(await h.driver.tick(), 'claude')).toMatchObject({ read: 1, failed: 0 });
    expect(span(h, SUB)).toEqual(at(inLastHour(2), inLastHour(4)));
    // The parent's own span is its own lines'.
    expect(span(h, PARENT)).toEqual(at(inLastHour(1), inLastHour(30)));
  });

  it('a plain append still widens the span', async () => {
    h = captureHarness();
    const sub = writeParentAndSubagent(h.claudeRoot, [2, 3, 4]);
    await h.driver.tick();
    appendJsonl(sub, subagentLines([2, 3, 4, 9]).slice(3));
    expect(byProvider(await h.driver.tick(), 'claude')).toMatchObject({ read: 1, failed: 0 });
    expect(span(h, SUB)).toEqual(at(inLastHour(2), inLastHour(9)));
  });

  it('a session whose lines are in two files keeps the union when one of them is rewritten shorter', async () => {
    h = captureHarness();
    const dir = join(h.claudeRoot, 'projects', PROJECT);
    const own = join(dir, `${PARENT}.jsonl`);
    const line = (m: number, sessionId = PARENT) => claudeLine({ sessionId, cwd: CWD, type: m % 2 === 0 ? 'user' : 'assistant', text: `turn ${m}`, ts: inLastHour(m), uuid: `00000000-0000-4000-8000-5c00000000${String(m).padStart(2, '0')}` });
    writeJsonl(own, [line(2), line(3), line(4), line(5)]);
    // The session continued in another file (a resume): lines of it there, after its own file's.
    const other = '6c2f3d4e-5a61-4b72-8c83-9d0e1f2a3b52';
    writeJsonl(join(dir, `${other}.jsonl`), [line(40), line(41), line(42, other)]);
    expect(byProvider(await h.driver.tick(), 'claude')).toMatchObject({ read: 2, failed: 0 });
    expect(span(h, PARENT)).toEqual(at(inLastHour(2), inLastHour(41)));

    writeJsonl(own, [line(2), line(3)]);
    expect(byProvider(await h.driver.tick(), 'claude')).toMatchObject({ read: 1, failed: 0 });
    expect(span(h, PARENT)).toEqual(at(inLastHour(2), inLastHour(41)));
  });

  it('a Gemini chat written again with messages removed ends at its last message', async () => {
    h = captureHarness();
    const sid = '7d3a4e5f-6b72-4c83-9d94-0e1f2a3b4c63';
    const path = join(h.geminiRoot, 'tmp', 'site', 'chats', `session-${inLastHour(0).toISOString().slice(0, 16).replace(':', '-')}-7d3a4e5f.jsonl`);
    const header = { sessionId: sid, projectHash: 'site', startTime: inLastHour(1).toISOString(), lastUpdated: inLastHour(1).toISOString(), kind: 'main' };
    const message = (id: string, m: number) => ({ id, timestamp: inLastHour(m).toISOString(), type: m % 2 === 0 ? 'user' : 'gemini', content: [{ text: `message ${m}` }], ...(m % 2 === 0 ? {} : { model: 'gemini-2.5-pro', thoughts: [], tokens: null }) });
    writeJsonl(path, [header, message('m2', 2), message('m3', 3), message('m4', 4), message('m5', 5)]);
    expect(byProvider(await h.driver.tick(), 'gemini')).toMatchObject({ read: 1, failed: 0 });
    expect(span(h, sid)).toEqual(at(inLastHour(2), inLastHour(5)));

    writeJsonl(path, [header, message('m2', 2), message('m3', 3)]);
    expect(byProvider(await h.driver.tick(), 'gemini')).toMatchObject({ read: 1, failed: 0 });
    expect(span(h, sid)).toEqual(at(inLastHour(2), inLastHour(3)));
  });

  it('Sessions.Get and Sessions.List give a rewritten subagent the duration its lines say now', async () => {
    const { home } = owned;
    const root = join(home.dir, 'roots', 'claude');
    const sub = writeParentAndSubagent(root, [2, 3, 4, 5, 6]);
    home.env.STEWARD_CLAUDE_ROOTS = root;
    const core = owned.open();
    await core.call('Backfill.Run', { all: true });
    expect((await core.call('Sessions.Get', { sessionId: SUB })).session.durationMs).toBe(4 * 60_000);

    writeJsonl(sub, subagentLines([2, 3, 4]));
    await core.call('Backfill.Run', { all: true });
    const got = await core.call('Sessions.Get', { sessionId: SUB });
    expect(got.session).toMatchObject({ durationMs: 2 * 60_000, lastAt: inLastHour(4).getTime() });
    const parent = await core.call('Sessions.Get', { sessionId: PARENT });
    expect(parent.subagents.find((s) => s.session.sessionId === SUB)?.session).toMatchObject({ durationMs: 2 * 60_000 });
    const { sessions } = await core.call('Sessions.List', {});
    expect(sessions.find((s) => s.sessionId === PARENT)).toMatchObject({ durationMs: 29 * 60_000 });
  });
});
