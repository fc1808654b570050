import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeHistoryWithMcp } from '../../support/mcp.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

// get_session said each tool call and result twice: a summary line, then the body it summed up.

const TOOLS = 'c0ffee00-0000-4000-8000-0000000000b5';
const LONG_OUTPUT = Array.from({ length: 80 }, (_, i) => `line ${i + 1} of the pear inventory ${'p'.repeat(40)}`).join('\n');

const history = claudeHistoryWithMcp('steward-mcp-bodies-', (root) => {
  const at = (i: number) => new Date(Date.now() - 3_600_000 + i * 60_000);
  const line = (i: number, o: Omit<Parameters<typeof claudeLine>[0], 'sessionId' | 'cwd' | 'ts'>) => claudeLine({ sessionId: TOOLS, cwd: '/work/pear', ts: at(i), ...o });
  writeJsonl(join(root, 'projects', '-work-pear', `${TOOLS}.jsonl`), [
    line(0, { text: 'count the pears' }),
    line(1, { type: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls /work/pear/crates' } }] }),
    line(2, { content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'crate-one.txt\ncrate-two.txt' }] }),
    line(3, { type: 'assistant', content: [{ type: 'tool_use', id: 'toolu_2', name: 'Bash', input: { command: 'grep -c pear inventory.txt' } }] }),
    line(4, { content: [{ type: 'tool_result', tool_use_id: 'toolu_2', is_error: true, content: 'Exit code 2\ngrep: inventory.txt: No such file' }] }),
    line(5, { type: 'assistant', content: [{ type: 'tool_use', id: 'toolu_3', name: 'Bash', input: { command: 'cat /work/pear/inventory-long.txt' } }] }),
    line(6, { content: [{ type: 'tool_result', tool_use_id: 'toolu_3', content: LONG_OUTPUT }] }),
  ]);
});
const call = history.call;

describe('get_session says a tool call or result once', () => {
  it('a whole body under its label alone, with no summary line repeating it', async () => {
    const text = (await call('get_session', { session_id: TOOLS })).content[0]!.text!;
    expect(text).toContain('[Tool call] Bash\n{"command":"ls /work/pear/crates"}');
    expect(text).toContain('[Result]\ncrate-one.txt\ncrate-two.txt');
    expect(text).not.toContain('[Tool call] Bash: ls /work/pear/crates');
    expect(text).not.toMatch(/\[Result\] 2 lines/);
  });

  it('a failed result keeps the exit code on its label (a Codex output unwrapped no longer says it), not its first line', async () => {
    const text = (await call('get_session', { session_id: TOOLS })).content[0]!.text!;
    expect(text).toContain('[Result] exit code 2\nExit code 2\ngrep: inventory.txt: No such file');
    expect(text).not.toContain('exit code 2: grep');
  });

  it('a body the page cuts keeps what its summary adds (its line count), and the words that read on', async () => {
    const answer = await call('get_session', { session_id: TOOLS });
    const text = answer.content[0]!.text!;
    // Its first line once: under the line count, not on the label too.
    expect(text).toMatch(/\[Result\] 80 lines\nline 1 of the pear inventory/);
    expect(text).toMatch(/not shown: read on with part_id "[^"]+" and from_char \d+\]/);
    // The structured answer keeps each part's summary and text as they were.
    const parts = (answer.structuredContent as { messages: Array<{ parts: Array<{ kind: string; summary: string | null }> }> }).messages.flatMap((m) => m.parts);
    expect(parts.find((p) => p.kind === 'tool_use')?.summary).toBe('Bash: ls /work/pear/crates');
  });
});
