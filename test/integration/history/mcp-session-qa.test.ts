import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hitSpeaker } from '../../../core/api/index.js';
import { claudeHistoryWithMcp, orchardAgentId, writeSubagentOrchard, type ToolResult } from '../../support/mcp.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

// What an agent-QA session found of get_session over stdio: roles and speakers unlike search's for the
// same tool output, a limit that counted what the header did not, a subagent's part refused without
// naming where it is, a hit not marked on its page, and null fields and repeated lines spent on tokens.

const TOOLS = 'd0d0d0d0-0000-4000-8000-00000000b001';
const ORCHARD = 'd0d0d0d0-0000-4000-8000-00000000b002';
const LONG_OUTPUT = Array.from({ length: 85 }, (_, i) => `[${String(i).padStart(5, '0')}] PASS test number ${i} ${'q'.repeat(40)}`).join('\n');

function writeTools(root: string): void {
  const at = (i: number) => new Date(Date.now() - 7_200_000 + i * 60_000);
  const line = (i: number, o: Omit<Parameters<typeof claudeLine>[0], 'sessionId' | 'cwd' | 'ts'>) => claudeLine({ sessionId: TOOLS, cwd: '/work/quince', ts: at(i), ...o });
  const round = (i: number) => [
    line(10 + 3 * i, { type: 'assistant', content: [{ type: 'tool_use', id: `toolu_q${i}`, name: 'Bash', input: { command: `ls /work/quince/box${i}` } }] }),
    line(11 + 3 * i, { content: [{ type: 'tool_result', tool_use_id: `toolu_q${i}`, content: `box${i}-a.txt\nbox${i}-b.txt` }] }),
  ];
  writeJsonl(join(root, 'projects', '-work-quince', `${TOOLS}.jsonl`), [
    line(0, { text: 'list every quince box' }),
    ...Array.from({ length: 6 }, (_, i) => round(i)).flat(),
    line(40, { type: 'assistant', content: [{ type: 'tool_use', id: 'toolu_long', name: 'Bash', input: { command: 'npm test' } }] }),
    line(41, { content: [{ type: 'tool_result', tool_use_id: 'toolu_long', content: LONG_OUTPUT }] }),
    line(42, { type: 'assistant', text: 'Every quince box is listed.' }),
  ]);
}

const history = claudeHistoryWithMcp('steward-mcp-session-qa-', (root) => {
  writeTools(root);
  writeSubagentOrchard(root, ORCHARD, 2);
});
const call = history.call;
const textOf = (r: ToolResult) => r.content[0]?.text ?? '';

interface PageMessage {
  role: string | null;
  speaker: string;
  hit?: true;
  countsAsMessage?: false;
  parts: Array<Record<string, unknown> & { kind: string; partId: string; text?: string; summary?: string }>;
}
const messagesOf = (r: ToolResult) => (r.structuredContent as { messages: PageMessage[] }).messages;

describe('get_session, as an agent-QA session found it', () => {
  it('gives tool output the role and speaker search gives it, never the role user', async () => {
    const page = await call('get_session', { session_id: TOOLS });
    const results = messagesOf(page).filter((m) => m.parts.some((p) => p.kind === 'tool_result'));
    expect(results.length).toBeGreaterThan(0);
    const searched = hitSpeaker({ role: 'user', kind: 'tool_result', genuineUserTurn: false, isCompactSummary: false }, false, 'Claude Code', 'agent');
    for (const m of results) expect([m.role, m.speaker]).toEqual(['tool', searched]);
    expect(messagesOf(page).filter((m) => m.role === 'user').flatMap((m) => m.parts.map((p) => p.kind))).toEqual(['text']);
    expect(textOf(page)).toContain(`— ${searched} `);
    expect(textOf(page)).not.toContain('— Tool result ');
    // The search for the same part says the same.
    const found = await call('search_transcripts', { query: 'box0', session_id: TOOLS, kind: 'tool_result' });
    const hit = (found.structuredContent as { hits: Array<{ role: string; speaker: string }> }).hits[0]!;
    expect([hit.role, hit.speaker]).toEqual(['tool', searched]);
  });

  it('says what limit counts: the page names its messages and tool results, which the conversation count leaves out', async () => {
    const end = await call('get_session', { session_id: TOOLS, at: 'end', limit: 3 });
    const entries = messagesOf(end);
    expect(entries).toHaveLength(3);
    const results = entries.filter((m) => m.countsAsMessage === false);
    expect(results.length).toBeGreaterThan(0);
    const counted = entries.length - results.length;
    expect(textOf(end)).toContain(`The last 3 entries: ${counted} message${counted === 1 ? '' : 's'} and ${results.length} tool result${results.length === 1 ? '' : 's'}`);
    expect(textOf(end)).not.toMatch(/The last 3 of \d+ messages/);
    // The conversation's count says it leaves the tool results out.
    expect(textOf(end).split('\n')[0]).toMatch(/9 messages, not counting tool results/);
    // A whole read lists each entry once: the messages the header counts plus the tool results.
    const all = messagesOf(await call('get_session', { session_id: TOOLS, limit: 50 }));
    expect(all.filter((m) => m.countsAsMessage !== false)).toHaveLength(9);
    expect(all).toHaveLength(16);
    const tool = (await history.client().listTools()).tools.find((t) => t.name === 'get_session')!;
    expect(JSON.stringify(tool)).toMatch(/tool result/i);
    expect(tool.inputSchema.properties!.limit).toMatchObject({ description: expect.stringMatching(/tool result/) });
  });

  it('names the subagent conversation that holds a part asked for under its parent', async () => {
    const parent = await call('get_session', { session_id: ORCHARD });
    const sub = (parent.structuredContent as { subagents: Array<{ sessionId: string }> }).subagents[1]!.sessionId;
    expect(sub).toContain(orchardAgentId(1));
    const subPage = await call('get_session', { session_id: sub });
    expect(subPage.isError, textOf(subPage)).toBeFalsy();
    const partId = messagesOf(subPage)[1]!.parts[0]!.partId;
    const asked = await call('get_session', { session_id: ORCHARD, part_id: partId });
    expect(asked.isError).toBe(true);
    expect(textOf(asked)).toContain(sub);
    expect(textOf(asked)).toMatch(/subagent/);
  });

  it('marks the hit on a page opened with part_id, in the text and the JSON', async () => {
    const whole = messagesOf(await call('get_session', { session_id: TOOLS }));
    const target = whole.find((m) => m.parts.some((p) => p.text === 'box3-a.txt\nbox3-b.txt'))!;
    const partId = target.parts[0]!.partId;
    const page = await call('get_session', { session_id: TOOLS, part_id: partId });
    const marked = messagesOf(page).filter((m) => m.hit === true);
    expect(marked).toHaveLength(1);
    expect(marked[0]!.parts.map((p) => p.partId)).toContain(partId);
    expect(marked[0]!.parts.find((p) => p.partId === partId)).toMatchObject({ hit: true });
    const lines = textOf(page).split('\n');
    const hitLines = lines.filter((l) => l === '▼ hit');
    expect(hitLines).toHaveLength(1);
    expect(lines.slice(lines.indexOf(hitLines[0]!) + 1, lines.indexOf(hitLines[0]!) + 3).join('\n')).toContain('box3-a.txt');
    // A page opened without part_id marks nothing.
    expect(textOf(await call('get_session', { session_id: TOOLS }))).not.toContain('▼ hit');
  });

  it('spends no tokens on null fields, a summary that is its text, or a first line said twice', async () => {
    const page = await call('get_session', { session_id: TOOLS, limit: 50 });
    expect(JSON.stringify(page.structuredContent!.messages)).not.toContain('null');
    for (const p of messagesOf(page).flatMap((m) => m.parts)) if (p.summary !== undefined) expect(p.summary).not.toBe(p.text);
    const text = textOf(page);
    expect(text.split('[00000] PASS')).toHaveLength(2);
    expect(text).toMatch(/\[Result\] 85 lines\n\[00000\] PASS/);
  });
});
