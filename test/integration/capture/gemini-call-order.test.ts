import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { captureHarness, type CaptureHarness } from './harness.js';

// QA: the session viewer drew a Gemini tool call after the assistant text that followed it. A Gemini
// message record holds its text (`content`) and its `toolCalls` apart, each call with its own
// timestamp: text stamped after a call (the answer written once the tool's result came back, as in
// the reference's example record) is drawn after that call; text stamped before its calls (Gemini CLI
// records a reply's text as the reply ends, its calls as they complete) stays before them.

const SESSION = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

let h: CaptureHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

const call = (id: string, timestamp?: string) => ({
  id,
  name: 'read_file',
  args: { absolute_path: `/p/${id}` },
  result: [{ functionResponse: { id, name: 'read_file', response: { output: `contents of ${id}` } } }],
  status: 'success',
  ...(timestamp ? { timestamp } : {}),
});

/** A legacy chat: a question, then one model record per `replies` entry. */
function chat(replies: Array<Record<string, unknown>>): string {
  const messages = [{ id: 'u1', timestamp: '2026-01-14T09:30:20.000Z', type: 'user', content: 'what does build.sh do?' }, ...replies];
  return JSON.stringify({ sessionId: SESSION, projectHash: 'x', startTime: '2026-01-14T09:30:20.000Z', lastUpdated: '2026-01-14T09:31:00.000Z', messages });
}

const order = (harness: CaptureHarness) =>
  (harness.db.prepare('SELECT part_id FROM parts WHERE session_id = ? ORDER BY ts, rowid').pluck().all(SESSION) as string[]).map((id) => id.split(':').slice(2).join(':'));

const path = (root: string) => join(root, 'tmp', 'site', 'chats', 'session-2026-01-14T09-30-0a1b2c3d.json');

describe('Gemini tool calls and the text around them', () => {
  it('text stamped after its calls is drawn after them; text stamped before them stays first; a record without times keeps its order', async () => {
    h = captureHarness({ query: { cache: { retention: { default_days: 0 } } } });
    write(
      path(h.geminiRoot),
      chat([
        // The reference's shape: the thought, then the call, then the answer it led to.
        { id: 'g1', timestamp: '2026-01-14T09:30:27.000Z', type: 'gemini', content: 'It compiles.', thoughts: [{ subject: 'Reading', description: 'open it', timestamp: '2026-01-14T09:30:22.000Z' }], toolCalls: [call('a', '2026-01-14T09:30:23.000Z'), call('b', '2026-01-14T09:30:30.000Z')] },
        // Gemini CLI's own: the reply's text recorded as it ends, its call as it completes.
        { id: 'g2', timestamp: '2026-01-14T09:30:40.000Z', type: 'gemini', content: 'Let me look.', toolCalls: [call('c', '2026-01-14T09:30:41.000Z')] },
        // No call times: as recorded.
        { id: 'g3', timestamp: '2026-01-14T09:30:50.000Z', type: 'gemini', content: 'Done.', toolCalls: [call('d')] },
      ]),
    );
    await h.driver.tick();
    expect(order(h)).toEqual(['u1:c0', 'g1:th0', 'g1:tu-a', 'g1:tr-a', 'g1:c0', 'g1:tu-b', 'g1:tr-b', 'g2:c0', 'g2:tu-c', 'g2:tr-c', 'g3:c0', 'g3:tu-d', 'g3:tr-d']);
  });
});
