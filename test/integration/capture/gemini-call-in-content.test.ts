import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { captureHarness, type CaptureHarness } from './harness.js';

/*
 * Gemini CLI records a model reply's text as a string (`recordMessage`), then its calls in `toolCalls`
 * (`recordToolCalls`, id = the call id turn.ts writes back into the history's `functionCall`). When
 * it gives the history back (`updateMessagesFromHistory`: tool-output masking, setHistory, a rollback,
 * a resume) a `$set.messages` keeps each known record (`...existing`, toolCalls included) with its
 * `content` replaced by the history turn's parts: the reply's text and its `functionCall` parts (with
 * the model's `thoughtSignature`), and the masked response synced into `toolCalls[].result`. The
 * fixtures are shaped so (gemini-cli chatRecordingService.ts, geminiChat.ts, turn.ts).
 */
const SID = '5d0c9a51-2f4e-4b8a-9c61-7e3f0d2a8b14';
const CALL = 'read_file__1716390000-1';
const ts = (second: number) => `2026-06-02T10:00:${String(second).padStart(2, '0')}.000Z`;
const header = { sessionId: SID, projectHash: 'site', startTime: ts(0), lastUpdated: ts(0), kind: 'main' };
const response = (output: string) => ({ functionResponse: { id: CALL, name: 'read_file', response: { output } } });
const toolCall = (output: string) => ({
  id: CALL,
  name: 'read_file',
  args: { absolute_path: '/p/build.sh' },
  result: [response(output)],
  status: 'success',
  timestamp: ts(6),
  resultDisplay: '',
  displayName: 'ReadFile',
  description: 'Reads a file',
  renderOutputAsMarkdown: true,
});
const u1 = { id: 'u1', timestamp: ts(1), type: 'user', content: [{ text: 'what does build.sh do?' }] };
const reply = { id: 'g1', timestamp: ts(5), type: 'gemini', content: 'Let me look.', thoughts: [], tokens: null, model: 'gemini-2.5-pro' };
/** The history's model turn: the reply's parts, its call as the model sent it (id written back by turn.ts). */
const replyParts = [{ text: 'Let me look.' }, { functionCall: { id: CALL, name: 'read_file', args: { absolute_path: '/p/build.sh' } }, thoughtSignature: 'c2lnbmF0dXJl' }];
const u2 = { id: 'u2', timestamp: ts(7), type: 'user', content: [response('echo building CALLOUT1')] };
const masked = [response('<tool_output_masked>echo buil…</tool_output_masked>')];
const jsonl = (records: unknown[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;

let h: CaptureHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

function write(root: string, records: unknown[]): void {
  const path = join(root, 'tmp', 'site', 'chats', 'session-2026-06-02T10-00-5d0c9a51.jsonl');
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, jsonl(records));
}

const stored = (harness: CaptureHarness) =>
  (harness.db.prepare('SELECT part_id, kind, meta FROM parts WHERE session_id = ? ORDER BY rowid').all(SID) as { part_id: string; kind: string; meta: string | null }[]).map((p) => ({
    part: p.part_id.split(':').slice(2).join(':'),
    kind: p.kind,
    toolUseId: (JSON.parse(p.meta ?? '{}') as { toolUseId?: string }).toolUseId,
  }));

describe('Gemini JSONL: a call the history gives back into a model turn content', () => {
  it('is one tool_use part, the one of its toolCalls entry, when the checkpoint rewrites the same record', async () => {
    h = captureHarness({ query: { cache: { retention: { default_days: 0 } } } });
    write(h.geminiRoot, [
      header,
      u1,
      { $set: { lastUpdated: ts(1) } },
      reply,
      { $set: { lastUpdated: ts(5) } },
      { ...reply, toolCalls: [toolCall('echo building CALLOUT1')] },
      u2,
      { $set: { lastUpdated: ts(7) } },
      // Tool-output masking: the history given back, records kept, contents replaced by its parts.
      {
        $set: {
          messages: [
            { ...u1, content: u1.content },
            { ...reply, content: replyParts, toolCalls: [{ ...toolCall('x'), result: masked }] },
            { ...u2, content: masked },
          ],
          lastUpdated: ts(9),
        },
      },
    ]);
    await h.driver.tick();
    const parts = stored(h);
    // One tool_use for the call, keyed by its id; every other part of the record stays.
    expect(parts.filter((p) => p.kind === 'tool_use')).toEqual([{ part: `g1:tu-${CALL}`, kind: 'tool_use', toolUseId: CALL }]);
    expect(parts.map((p) => p.part)).toEqual(['u1:c0', 'g1:c0', `g1:tu-${CALL}`, `g1:tr-${CALL}`]);
  });

  it('is one tool_use part when its toolCalls entry sits in a record the history dropped', async () => {
    h = captureHarness({ query: { cache: { retention: { default_days: 0 } } } });
    // recordToolCalls opens a record of its own when the last one is no model reply (a notice between).
    const notice = { id: 'i1', timestamp: ts(5), type: 'info', content: 'Switched to fallback model' };
    const calls = { id: 'g2', timestamp: ts(6), type: 'gemini', content: '', thoughts: [], model: 'gemini-2.5-pro', toolCalls: [toolCall('echo building CALLOUT1')] };
    write(h.geminiRoot, [
      header,
      u1,
      reply,
      notice,
      calls,
      u2,
      // The history knows the reply as one turn holding its call: g2 (no history turn) drops out.
      { $set: { messages: [u1, { ...reply, content: replyParts }, { ...u2, content: masked }], lastUpdated: ts(9) } },
    ]);
    await h.driver.tick();
    const parts = stored(h);
    expect(parts.filter((p) => p.kind === 'tool_use')).toEqual([{ part: `g2:tu-${CALL}`, kind: 'tool_use', toolUseId: CALL }]);
    expect(parts.map((p) => p.part)).toEqual(['u1:c0', 'g1:c0', 'i1:c0', `g2:tu-${CALL}`, `g2:tr-${CALL}`]);
  });

  it('a call no toolCalls entry records stays, from the content, named by its id (as its entry would be)', async () => {
    h = captureHarness({ query: { cache: { retention: { default_days: 0 } } } });
    write(h.geminiRoot, [header, u1, { id: 'g1', timestamp: ts(5), type: 'gemini', content: replyParts, model: 'gemini-2.5-pro' }]);
    await h.driver.tick();
    expect(stored(h).filter((p) => p.kind === 'tool_use')).toEqual([{ part: `g1:tu-${CALL}`, kind: 'tool_use', toolUseId: CALL }]);
  });
});
