import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { byProvider, captureHarness, type CaptureHarness } from './harness.js';

/**
 * QA: a file under a transcript's name that holds nothing of its agent's was said three ways (Claude "in a
 * file that is not a transcript", Codex "of a kind Steward does not import", Gemini "bookkeeping"). Each
 * provider counts it the one way, the same number of lines, while a real transcript's own lines of an
 * unknown kind, and a real chat's bookkeeping, keep their reasons.
 */
const openWindow = { query: { cache: { retention: { default_days: 0 } } } };
const ROLLOUT = 'sessions/2026/12/03/rollout-2026-12-03T11-00-00-019a2d7a-2222-78b1-b7cc-a45d62a80009.jsonl';

function write(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

let h: CaptureHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('Codex: a rollout none of whose lines is of Codex', () => {
  it('is counted not_a_transcript, line for line, no failure', async () => {
    h = captureHarness(openWindow);
    write(join(h.codexRoot, ROLLOUT), '{"foo":1}\n{"bar":[2]}\n');
    const tick = byProvider(await h.driver.tick(), 'codex');
    expect(tick).toMatchObject({ read: 1, failed: 0, skipped: { not_a_transcript: 2 } });
    expect(tick.skipped?.unknown_type).toBeUndefined();
  });

  it('stays so when lines are appended to it (a read from its checkpoint)', async () => {
    h = captureHarness(openWindow);
    const path = write(join(h.codexRoot, ROLLOUT), '{"foo":1}\n');
    await h.driver.tick();
    write(path, '{"foo":1}\n{"foo":2}\n');
    const tick = byProvider(await h.driver.tick(), 'codex');
    expect(tick.skipped).toEqual({ not_a_transcript: 1 });
  });

  it('a rollout line of a type Codex newer than Steward writes is still of a kind not imported', async () => {
    h = captureHarness(openWindow);
    const meta = { timestamp: '2026-12-03T11:00:00.000Z', type: 'session_meta', payload: { id: '019a2d7a-2222-78b1-b7cc-a45d62a80009', cwd: '/home/ana/src/app' } };
    const odd = { timestamp: '2026-12-03T11:00:01.000Z', type: 'brand_new_line', payload: { x: 1 } };
    write(join(h.codexRoot, ROLLOUT), `${JSON.stringify(meta)}\n${JSON.stringify(odd)}\n{"foo":1}\n`);
    const tick = byProvider(await h.driver.tick(), 'codex');
    expect(tick.skipped).toMatchObject({ meta_only: 1, unknown_type: 2 });
    expect(tick.skipped?.not_a_transcript).toBeUndefined();
  });
});

describe('Gemini: a chat file that holds no chat', () => {
  it('a legacy .json with neither messages nor a sessionId is counted not_a_transcript, not bookkeeping', async () => {
    h = captureHarness(openWindow);
    write(join(h.geminiRoot, 'tmp', 'gemproj', 'chats', 'session-2026-12-01T00-00-deadbeef.json'), '{"hello":1}\n');
    const tick = byProvider(await h.driver.tick(), 'gemini');
    expect(tick).toMatchObject({ read: 1, failed: 0, skipped: { not_a_transcript: 1 } });
    expect(tick.skipped?.meta_only).toBeUndefined();
  });

  it('a .jsonl none of whose lines is of Gemini is counted not_a_transcript', async () => {
    h = captureHarness(openWindow);
    write(join(h.geminiRoot, 'tmp', 'gemproj', 'chats', 'session-2026-12-01T00-00-deadbeef.jsonl'), '{"hello":1}\n{"hello":2}\n');
    const tick = byProvider(await h.driver.tick(), 'gemini');
    expect(tick.skipped).toEqual({ not_a_transcript: 2 });
  });

  it('a real chat keeps its bookkeeping and its unknown lines as they are', async () => {
    h = captureHarness(openWindow);
    const chat = { sessionId: 's-1', projectHash: 'abc', startTime: '2026-12-01T00:00:00.000Z', lastUpdated: '2026-12-01T00:00:05.000Z', messages: [] };
    write(join(h.geminiRoot, 'tmp', 'gemproj', 'chats', 'session-2026-12-01T00-00-cafef00d.json'), JSON.stringify(chat));
    const header = { sessionId: 's-2', projectHash: 'abc', startTime: '2026-12-01T00:00:00.000Z' };
    write(join(h.geminiRoot, 'tmp', 'gemproj', 'chats', 'session-2026-12-01T00-01-cafef00e.jsonl'), `${JSON.stringify(header)}\n{"hello":1}\n`);
    const tick = byProvider(await h.driver.tick(), 'gemini');
    expect(tick.skipped).toEqual({ meta_only: 2, unknown_type: 1 });
  });
});
