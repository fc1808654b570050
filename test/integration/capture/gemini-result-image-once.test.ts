import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { captureHarness, type CaptureHarness } from './harness.js';

/*
 * Gemini CLI gives a tool's image to a model that takes none inside a function response beside it
 * (`[functionResponse, inlineData]`): so in the call's `toolCalls` entry result, and, since mid 2026,
 * in the user turn that sends the response back. The image is one: shown once, whichever of the two
 * records is read first, and kept in the entry's result when no user turn holds it.
 */
const SID = '3b1e7c52-9a04-4d6f-8e21-6c5f0a9d2e73';
const CALL = 'read_file-1716390000-1';
const ts = (second: number) => `2026-06-03T09:00:${String(second).padStart(2, '0')}.000Z`;
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const result = [{ functionResponse: { id: CALL, name: 'read_file', response: { output: 'Binary content provided (1 item(s)).' } } }, { inlineData: { mimeType: 'image/png', data: PNG } }];
const entry = { id: CALL, name: 'read_file', args: { absolute_path: '/p/logo.png' }, result, status: 'success', timestamp: ts(6) };
const header = { sessionId: SID, projectHash: 'site', startTime: ts(0), lastUpdated: ts(0), kind: 'main' };
const u1 = { id: 'u1', timestamp: ts(1), type: 'user', content: [{ text: 'look at the logo' }] };
const g1 = { id: 'g1', timestamp: ts(5), type: 'gemini', content: 'Let me look.', model: 'gemini-2.5-pro' };
const u2 = { id: 'u2', timestamp: ts(7), type: 'user', content: result };
const jsonl = (records: unknown[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;

let h: CaptureHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Images shown: image parts, and the images each tool result counts. */
function imagesShown(harness: CaptureHarness): number {
  const rows = harness.db.prepare('SELECT kind, meta FROM parts WHERE session_id = ?').all(SID) as { kind: string; meta: string | null }[];
  return rows.reduce((n, r) => n + (r.kind === 'image' ? 1 : ((JSON.parse(r.meta ?? '{}') as { images?: number }).images ?? 0)), 0);
}

async function read(records: unknown[]): Promise<CaptureHarness> {
  const harness = captureHarness({ query: { cache: { retention: { default_days: 0 } } } });
  const path = join(harness.geminiRoot, 'tmp', 'site', 'chats', 'session-2026-06-03T09-00-3b1e7c52.jsonl');
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, jsonl(records));
  await harness.driver.tick();
  return harness;
}

describe('Gemini: an image a tool returned beside its function response', () => {
  it('is shown once when the entry takes the part of the user turn read first', async () => {
    h = await read([header, u1, g1, u2, { ...g1, toolCalls: [entry] }]);
    expect(imagesShown(h)).toBe(1);
  });

  it('is shown once when the entry is read before the user turn (the order Gemini CLI writes them)', async () => {
    h = await read([header, u1, g1, { ...g1, toolCalls: [entry] }, u2]);
    expect(imagesShown(h)).toBe(1);
  });

  it('is shown once when the user turn is written after a tick read the entry', async () => {
    h = await read([header, u1, g1, { ...g1, toolCalls: [entry] }]);
    expect(imagesShown(h)).toBe(1);
    const path = join(h.geminiRoot, 'tmp', 'site', 'chats', 'session-2026-06-03T09-00-3b1e7c52.jsonl');
    writeFileSync(path, jsonl([header, u1, g1, { ...g1, toolCalls: [entry] }, u2]));
    await h.driver.tick();
    expect(imagesShown(h)).toBe(1);
    expect(h.count("SELECT COUNT(*) FROM parts WHERE session_id = ? AND kind = 'image'", SID)).toBe(1);
  });

  it('is shown once, in the result, when no user turn holds it', async () => {
    h = await read([header, u1, g1, { ...g1, toolCalls: [entry] }]);
    expect(imagesShown(h)).toBe(1);
    expect(h.count("SELECT COUNT(*) FROM parts WHERE session_id = ? AND kind = 'tool_result' AND meta LIKE '%\"images\":1%'", SID)).toBe(1);
  });
});
