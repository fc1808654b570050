import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeHistoryWithMcp } from '../../support/mcp.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

// get_session with at: "end": the latest messages of a long conversation in one call (Sessions.Get
// at: 'end'), rather than a call per page from its start.

const LONG = 'c0ffee00-0000-4000-8000-00000000e2d5';
const TURNS = 30;

interface Page {
  messages: Array<{ parts: Array<{ text: string | null }> }>;
  cursor?: string;
  before?: string;
}

const history = claudeHistoryWithMcp('steward-mcp-end-', (root) => {
  const start = Date.now() - 3_600_000;
  writeJsonl(
    join(root, 'projects', '-work-quince', `${LONG}.jsonl`),
    Array.from({ length: TURNS }, (_, i) => claudeLine({ sessionId: LONG, cwd: '/work/quince', ts: new Date(start + i * 60_000), text: `quince step ${i + 1}` })),
  );
});
const call = (args: Record<string, unknown>) => history.call('get_session', args);
const texts = (page: Page) => page.messages.map((m) => m.parts[0]!.text);

describe('get_session at: "end"', () => {
  it('opens at the last messages, says so, and its before cursor pages back', async () => {
    const answer = await call({ session_id: LONG, at: 'end', limit: 5 });
    expect(answer.isError).toBeFalsy();
    const page = answer.structuredContent as unknown as Page;
    expect(texts(page)).toEqual(['quince step 26', 'quince step 27', 'quince step 28', 'quince step 29', 'quince step 30']);
    expect(page.cursor).toBeUndefined();
    const text = answer.content[0]!.text!;
    expect(text).toContain(`The last 5 of ${TURNS} messages.`);
    expect(text).toContain(`Earlier messages: call again with cursor "${page.before}".`);
    expect(text).not.toContain(history.home().dir);
    const earlier = (await call({ session_id: LONG, cursor: page.before, limit: 5 })).structuredContent as unknown as Page;
    expect(texts(earlier)).toEqual(['quince step 21', 'quince step 22', 'quince step 23', 'quince step 24', 'quince step 25']);
  });

  it('is offered in the tool list, with words an agent reads', async () => {
    const { tools } = await history.client().listTools();
    const at = (tools.find((t) => t.name === 'get_session')!.inputSchema.properties as Record<string, { description?: string }>).at;
    expect(at?.description).toMatch(/end/);
  });

  it('refuses at with cursor or part_id: a typed error saying why', async () => {
    const withCursor = await call({ session_id: LONG, at: 'end', cursor: 'abc' });
    expect(withCursor.isError).toBe(true);
    expect(withCursor.content[0]!.text).toMatch(/^invalid_params: at "end" and cursor cannot be combined: /);
    const withPart = await call({ session_id: LONG, at: 'end', part_id: 'cc:x:0' });
    expect(withPart.isError).toBe(true);
    expect(withPart.content[0]!.text).toMatch(/^invalid_params: at "end" and part_id cannot be combined: /);
  });
});
