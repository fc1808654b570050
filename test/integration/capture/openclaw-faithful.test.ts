import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appendJsonl, writeJsonl } from '../../support/transcripts.js';
import { byProvider, captureHarness, type CaptureHarness } from './harness.js';

let h: CaptureHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const openclaw = async (c: CaptureHarness) => byProvider(await c.driver.tick(), 'openclaw');
const at = (minutes: number) => new Date(Date.now() - 60 * 60_000 + minutes * 60_000);
const iso = (minutes: number) => at(minutes).toISOString();

/**
 * A pi/OpenClaw v1 session as pi wrote it until its tree format (badlogic/pi-mono, session-manager.ts
 * before 2025-12-22): a header without `version`, carrying the model; entries with no `id`/`parentId`;
 * compaction by `firstKeptEntryIndex`.
 */
function v1Session(id: string, extraHeader: Record<string, unknown> = {}): Array<Record<string, unknown>> {
  return [
    { type: 'session', id, timestamp: iso(0), cwd: '/home/sam/pi-project', provider: 'anthropic', modelId: 'claude-sonnet-4-5', thinkingLevel: 'off', ...extraHeader },
    { type: 'message', timestamp: iso(1), message: { role: 'user', content: [{ type: 'text', text: 'rename the config loader' }], timestamp: at(1).getTime() } },
    {
      type: 'message',
      timestamp: iso(2),
      message: { role: 'assistant', content: [{ type: 'text', text: 'Renamed it.' }], provider: 'anthropic', model: 'claude-sonnet-4-5', stopReason: 'stop', timestamp: at(2).getTime() },
    },
    { type: 'thinking_level_change', timestamp: iso(3), thinkingLevel: 'high' },
    { type: 'compaction', timestamp: iso(4), summary: 'The user renamed the config loader.', firstKeptEntryIndex: 2, tokensBefore: 120_000 },
    { type: 'message', timestamp: iso(5), message: { role: 'user', content: 'now add tests', timestamp: at(5).getTime() } },
  ];
}

/** pi's own v1 → v3 migration on load: random 8-hex ids and a parent chain appended to each entry, the header's version set, the file rewritten (temp + rename). */
function migrateToV3(lines: Array<Record<string, unknown>>): Array<Record<string, unknown>> {
  let previous: string | null = null;
  return lines.map((line, i) => {
    if (line.type === 'session') return { ...line, version: 3 };
    const id = (0x1f2e3d4c + i * 7919).toString(16).slice(-8);
    const out: Record<string, unknown> = { ...line, id, parentId: previous };
    previous = id;
    if (line.type === 'compaction') {
      delete out.firstKeptEntryIndex;
      out.firstKeptEntryId = 'whatever';
    }
    return out;
  });
}

describe('OpenClaw: pi v1 sessions', () => {
  it('keys v1 entries by (header id, line index); the v3 rewrite with random ids stores nothing again; entries after it are stored', async () => {
    h = captureHarness();
    const sessions = join(h.openclawRoot, 'agents', 'main', 'sessions');
    const file = join(sessions, 'v1-sess.jsonl');
    const v1 = v1Session('v1-sess');
    writeJsonl(file, v1);
    expect(await openclaw(h)).toMatchObject({ read: 1, partsWritten: 4, skipped: { meta_only: 2 } });
    const ids = h.db.prepare("SELECT part_id FROM parts WHERE session_id = 'oc:main:v1-sess' ORDER BY ts").pluck().all();
    expect(ids).toEqual(['oc:main:v1-sess:l1:0', 'oc:main:v1-sess:l2:0', 'oc:main:v1-sess:l4:0', 'oc:main:v1-sess:l5:0']);
    expect(h.db.prepare("SELECT model, cwd FROM sessions WHERE session_id = 'oc:main:v1-sess'").get()).toEqual({ model: 'claude-sonnet-4-5', cwd: '/home/sam/pi-project' });

    // pi loads the session again and rewrites the file as v3.
    writeJsonl(`${file}.tmp`, migrateToV3(v1));
    renameSync(`${file}.tmp`, file);
    expect(await openclaw(h)).toMatchObject({ read: 1, partsWritten: 0 });
    expect(h.count("SELECT COUNT(*) FROM parts WHERE session_id = 'oc:main:v1-sess'")).toBe(4);

    appendJsonl(file, [{ type: 'message', id: 'c0ffee01', parentId: 'whatever', timestamp: iso(6), message: { role: 'assistant', content: [{ type: 'text', text: 'Tests added.' }], stopReason: 'stop', timestamp: at(6).getTime() } }]);
    expect(await openclaw(h)).toMatchObject({ read: 1, partsWritten: 1 });
    expect(h.count("SELECT COUNT(*) FROM parts WHERE session_id = 'oc:main:v1-sess'")).toBe(5);
  });

  it('a branched session names its parent (v1 branchedFrom, a path; later parentSession, an id) and stays a conversation', async () => {
    h = captureHarness();
    const sessions = join(h.openclawRoot, 'agents', 'main', 'sessions');
    writeJsonl(join(sessions, 'root-sess.jsonl'), v1Session('root-sess'));
    writeJsonl(join(sessions, 'branch-a.jsonl'), v1Session('branch-a', { branchedFrom: join(sessions, 'root-sess.jsonl') }));
    writeJsonl(join(sessions, 'branch-b.jsonl'), [{ type: 'session', version: 3, id: 'branch-b', timestamp: iso(0), cwd: '/home/sam/pi-project', parentSession: 'root-sess' }, ...migrateToV3(v1Session('x')).slice(1)]);
    await openclaw(h);
    const parents = h.db.prepare("SELECT session_id AS id, parent_session_id AS parent, parent_kind AS kind FROM sessions WHERE session_id LIKE 'oc:main:branch-%' ORDER BY session_id").all();
    expect(parents).toEqual([
      { id: 'oc:main:branch-a', parent: 'oc:main:root-sess', kind: 'branch' },
      { id: 'oc:main:branch-b', parent: 'oc:main:root-sess', kind: 'branch' },
    ]);
    expect(h.projects.list()).toMatchObject([{ cwd: '/home/sam/pi-project', sessions: 3 }]);
  });
});

describe('OpenClaw: what an entry says', () => {
  it('compaction and branch summaries are parts of their own kinds, and a failed assistant turn is an error part', async () => {
    h = captureHarness();
    const header = { type: 'session', version: 3, id: 'kinds', timestamp: iso(0), cwd: '/home/sam/claw' };
    writeJsonl(join(h.openclawRoot, 'agents', 'main', 'sessions', 'kinds.jsonl'), [
      header,
      { type: 'message', id: 'a0000001', parentId: null, timestamp: iso(1), message: { role: 'user', content: [{ type: 'text', text: 'book the flight' }], timestamp: at(1).getTime() } },
      {
        type: 'message',
        id: 'a0000002',
        parentId: 'a0000001',
        timestamp: iso(2),
        message: { role: 'assistant', content: [], api: 'anthropic-messages', provider: 'anthropic', model: 'claude-opus-4-5', stopReason: 'error', errorMessage: '529 overloaded_error: Overloaded', timestamp: at(2).getTime() },
      },
      { type: 'compaction', id: 'a0000003', parentId: 'a0000002', timestamp: iso(3), summary: 'User is booking a flight to Lyon.', firstKeptEntryId: 'a0000001', tokensBefore: 182_344 },
      { type: 'branch_summary', id: 'a0000004', parentId: 'a0000001', timestamp: iso(4), fromId: 'a0000003', summary: 'An abandoned attempt via Paris.' },
    ]);
    expect(await openclaw(h)).toMatchObject({ partsWritten: 4 });
    const parts = h.db.prepare("SELECT role, kind, text, is_compact_summary AS compact, genuine_user_turn AS genuine FROM parts WHERE session_id = 'oc:main:kinds' ORDER BY ts").all();
    expect(parts).toEqual([
      { role: 'user', kind: 'text', text: 'book the flight', compact: 0, genuine: 1 },
      { role: 'assistant', kind: 'error', text: '529 overloaded_error: Overloaded', compact: 0, genuine: 0 },
      { role: 'system', kind: 'compaction', text: 'User is booking a flight to Lyon.', compact: 1, genuine: 0 },
      { role: 'system', kind: 'branch_summary', text: 'An abandoned attempt via Paris.', compact: 0, genuine: 0 },
    ]);
  });

  it('counts every line that yields no part by reason', async () => {
    h = captureHarness();
    const file = join(h.openclawRoot, 'agents', 'main', 'sessions', 'counted.jsonl');
    const entry = (id: string, role: string, minutes: number) => ({ type: 'message', id, parentId: null, timestamp: iso(minutes), message: { role, content: [{ type: 'text', text: `${role} says` }], timestamp: at(minutes).getTime() } });
    writeJsonl(file, [
      entry('e0000000', 'user', 0),
      { type: 'session', version: 3, id: 'counted', timestamp: iso(0), cwd: '/home/sam/claw' },
      { type: 'model_change', id: 'e0000001', parentId: null, timestamp: iso(1), provider: 'anthropic', modelId: 'claude-opus-4-5' },
      { type: 'thinking_level_change', id: 'e0000002', parentId: 'e0000001', timestamp: iso(1), thinkingLevel: 'low' },
      { type: 'custom', id: 'e0000003', parentId: 'e0000002', timestamp: iso(1), customType: 'model-snapshot', data: {} },
      { type: 'label', id: 'e0000004', parentId: 'e0000003', timestamp: iso(1), targetId: 'e0000001', label: 'start' },
      entry('e0000005', 'user', 2),
      { type: 'message', id: 'e0000006', parentId: 'e0000005', timestamp: iso(3), message: { role: 'a-role-from-the-future', content: 'hm', timestamp: at(3).getTime() } },
      { type: 'a-type-from-the-future', id: 'e0000007', parentId: null, timestamp: iso(3) },
      // OpenClaw moves a tree's tip with a `leaf` entry: a known control entry, not an unknown one.
      { type: 'leaf', id: 'e0000008', parentId: 'e0000007', targetId: 'e0000005' },
      '',
      '{"type":"message","id":"broken',
    ]);
    const stats = await openclaw(h);
    expect(stats).toMatchObject({ partsWritten: 1, failedLines: 1 });
    expect(stats.skipped).toEqual({ no_id: 1, meta_only: 6, unknown_type: 2, empty: 1, malformed: 1 });
    expect(h.db.prepare("SELECT model FROM sessions WHERE session_id = 'oc:main:counted'").pluck().get()).toBe('claude-opus-4-5');
  });
});
