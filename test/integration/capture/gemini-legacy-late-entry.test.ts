import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { captureHarness, type CaptureHarness } from './harness.js';

/*
 * A legacy Gemini chat (one JSON document rewritten whole) is only ever read as its latest version: the
 * call the model sent without an id, stored from the reply's content, is the same call when the
 * rewrite adds its `toolCalls` entry (the id turn.ts made for it), not a second one. Shapes as in
 * gemini-call-late-entry.test.ts.
 */
const SID = '3b1e7c52-9a04-4d6f-8e21-6c5f0a9d2e73';
const CALL = 'read_file-1716390000-1';
const ts = (second: number) => `2026-06-03T09:00:${String(second).padStart(2, '0')}.000Z`;
const args = { absolute_path: '/p/build.sh' };
const entry = { id: CALL, name: 'read_file', args, result: [{ functionResponse: { id: CALL, name: 'read_file', response: { output: 'echo hi' } } }], status: 'success', timestamp: ts(6), resultDisplay: '', displayName: 'ReadFile' };
const u1 = { id: 'u1', timestamp: ts(1), type: 'user', content: [{ text: 'what does build.sh do?' }] };
const turn = [{ text: 'Let me look.' }, { functionCall: { name: 'read_file', args } }];
const g1 = (toolCalls?: unknown[]) => ({ id: 'g1', timestamp: ts(5), type: 'gemini', content: turn, thoughts: [], tokens: null, model: 'gemini-2.5-pro', ...(toolCalls ? { toolCalls } : {}) });
const doc = (messages: unknown[]) => JSON.stringify({ sessionId: SID, projectHash: 'site', startTime: ts(0), lastUpdated: ts(9), messages });

let h: CaptureHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe.each([false, true])('legacy Gemini chat: an id-less content call whose entry a rewrite adds (restart between: %s)', (restart) => {
  it('stays one tool_use part, the entry written into it', async () => {
    h = captureHarness({ query: { cache: { retention: { default_days: 0 } } } });
    const path = join(h.geminiRoot, 'tmp', 'site', 'chats', 'session-2026-06-03T09-00-3b1e7c52.json');
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, doc([u1, g1()]));
    await h.driver.tick();
    if (restart) await h.restart();
    writeFileSync(path, doc([u1, g1([entry])]));
    await h.driver.tick();
    const uses = h.db.prepare("SELECT part_id, meta FROM parts WHERE session_id = ? AND kind = 'tool_use'").all(SID) as { part_id: string; meta: string }[];
    expect(uses.map((u) => u.part_id)).toEqual([`gm:${SID}:g1:tu-c0`]);
    expect((JSON.parse(uses[0]!.meta) as { toolUseId?: string }).toolUseId).toBe(CALL);
    expect(h.count("SELECT COUNT(*) FROM parts WHERE session_id = ? AND kind = 'tool_result'", SID)).toBe(1);
  });
});
