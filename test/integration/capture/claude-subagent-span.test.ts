import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { byProvider, captureHarness, type CaptureHarness } from './harness.js';

/** Three conversations that each ran an Explore subagent from 09:16:10 to about 09:16:30; the Task result came at 09:17:00. */
const FIXTURE = join(import.meta.dirname, '..', '..', 'fixtures', 'transcripts', 'claude', 'subagent-span');

let h: CaptureHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const span = (c: CaptureHarness, id: string) =>
  c.db.prepare('SELECT first_ts AS firstTs, last_ts AS lastTs FROM sessions WHERE session_id = ?').get(id) as { firstTs: number | null; lastTs: number | null } | undefined;
const at = (iso: string) => ({ firstTs: Date.parse(iso.split('/')[0]!), lastTs: Date.parse(iso.split('/')[1]!) });

describe("Claude: a subagent's span is its own lines'", () => {
  it("does not end a subagent when the main agent received its Task result, in either layout or inline; the parent's span stays whole", async () => {
    // The fixtures are dated 2025: an open window reads them.
    h = captureHarness({ query: { cache: { retention: { default_days: 0 } } } });
    cpSync(FIXTURE, join(h.claudeRoot, 'projects'), { recursive: true });
    expect(byProvider(await h.driver.tick(), 'claude')).toMatchObject({ read: 5 });

    // <session>/subagents/agent-<id>.jsonl (Claude Code 2.x), agent-<id>.jsonl beside the parent (1.x), sidechain lines in the parent's file.
    expect(span(h, '8c1f2a9e-6b3d-4e7a-9f10-7d2b5c4e3a21:agent-a748733')).toEqual(at('2025-11-20T09:16:10.001Z/2025-11-20T09:16:30.001Z'));
    expect(span(h, '3f0b7c1d-2e4a-4b5c-8d6e-9a0b1c2d3e4f:agent-b1c2d3e')).toEqual(at('2025-06-01T09:16:10.000Z/2025-06-01T09:16:20.000Z'));
    expect(span(h, '6a7b8c9d-0e1f-4a2b-9c3d-4e5f6a7b8c9d:agent-c3d4e5f')).toEqual(at('2025-03-10T09:16:10.000Z/2025-03-10T09:16:40.000Z'));

    expect(span(h, '8c1f2a9e-6b3d-4e7a-9f10-7d2b5c4e3a21')).toEqual(at('2025-11-20T09:15:02.481Z/2025-11-20T09:18:00.000Z'));
    expect(span(h, '3f0b7c1d-2e4a-4b5c-8d6e-9a0b1c2d3e4f')).toEqual(at('2025-06-01T09:15:02.481Z/2025-06-01T09:18:00.000Z'));
    expect(span(h, '6a7b8c9d-0e1f-4a2b-9c3d-4e5f6a7b8c9d')).toEqual(at('2025-03-10T09:15:02.481Z/2025-03-10T09:18:00.000Z'));
    // The Task call still gives the subagent its type, and links it.
    const sub = h.db.prepare('SELECT parent_session_id AS parent, agent_type AS type FROM sessions WHERE session_id = ?');
    expect(sub.get('3f0b7c1d-2e4a-4b5c-8d6e-9a0b1c2d3e4f:agent-b1c2d3e')).toEqual({ parent: '3f0b7c1d-2e4a-4b5c-8d6e-9a0b1c2d3e4f', type: 'Explore' });
  });
});
