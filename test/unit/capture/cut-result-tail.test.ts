import { describe, expect, it } from 'vitest';
import { CUT_GAP } from '../../../core/api/constants/index.js';
import { bound, boundResult, sha256, TEXT_CAP, TOOL_RESULT_CAP } from '../../../core/transcripts/bounds.js';
import { CLAUDE_PARSER_VERSION } from '../../../core/transcripts/providers/claude/provider.js';
import { itemBlocks } from '../../../core/transcripts/providers/codex/items.js';
import { CODEX_PARSER_VERSION } from '../../../core/transcripts/providers/codex/provider.js';
import { messageBlocks } from '../../../core/transcripts/providers/gemini/messages.js';
import { GEMINI_PARSER_VERSION } from '../../../core/transcripts/providers/gemini/provider.js';
import { bashBlocks, contentBlocks } from '../../../core/transcripts/providers/openclaw/blocks.js';
import { OPENCLAW_PARSER_VERSION } from '../../../core/transcripts/providers/openclaw/provider.js';

/*
 * A long tool output keeps its start and its end within TOOL_RESULT_CAP (QA: the last lines of a long
 * output, where its error or its test summary is, were neither shown nor searchable). Every other text
 * keeps its prefix cut.
 */

/** A test run's output: 3,000 lines of progress, then its summary on the last line. */
const RUN = `${Array.from({ length: 3_000 }, (_, i) => `  ✓ case ${String(i).padStart(4, '0')} passes`).join('\n')}\n Tests  1 failed | 2999 passed (3000) zebrafinch\n`;
const LAST_LINE = ' Tests  1 failed | 2999 passed (3000) zebrafinch';

describe('a tool result over its cap', () => {
  it('keeps its start and its end, with a gap line between, within the cap; its meta says what each kept', () => {
    const b = boundResult(RUN);
    expect(b.text.length).toBeLessThanOrEqual(TOOL_RESULT_CAP);
    const { head, tail, length, sha256: digest } = b.truncated!;
    expect({ length, digest }).toEqual({ length: RUN.length, digest: sha256(RUN) });
    expect(head).toBe(6 * 1024);
    expect(b.text).toBe(RUN.slice(0, head) + CUT_GAP + RUN.slice(RUN.length - tail!));
    expect(b.text.endsWith(`${LAST_LINE}\n`)).toBe(true);
    // About 2 KB of the end, from a line's start: no half line opens it.
    expect(tail!).toBeGreaterThan(1_700);
    expect(RUN[RUN.length - tail! - 1]).toBe('\n');
    expect(b.text.slice(head! + CUT_GAP.length)).toMatch(/^ {2}✓ case \d{4} passes\n/);
  });

  it('joins start and end with a gap of Latin-1 characters only, so a cut ASCII output stays one byte a character', () => {
    // An ellipsis (U+2026) made V8 hold every cut result, the read worker's joined piece it sat in and
    // every text cut back out of that piece at two bytes a character: 232 MB posted instead of 122 MB
    // and ~2 CPU s more in a 1 GB cold import.
    expect(/[^\0-\xff]/.test(CUT_GAP)).toBe(false);
    expect(/[^\0-\xff]/.test(boundResult('x\n'.repeat(10_000)).text)).toBe(false);
  });

  it('fits whole when it fits, and a text that is no tool result keeps its prefix cut', () => {
    expect(boundResult('ok\n')).toEqual({ text: 'ok\n' });
    const long = 'x'.repeat(TEXT_CAP + 10);
    expect(bound(long, TEXT_CAP).text).toBe(long.slice(0, TEXT_CAP));
    expect(bound(long, TEXT_CAP).truncated).toEqual({ length: long.length, sha256: sha256(long) });
  });

  it('a text of one long line keeps exactly the cap, its tail cut where the cap falls', () => {
    const one = 'ab'.repeat(20_000);
    const b = boundResult(one);
    expect(b.text.length).toBe(TOOL_RESULT_CAP);
    expect(b.text.endsWith(one.slice(-b.truncated!.tail!))).toBe(true);
  });

  it('never splits a surrogate pair at either cut', () => {
    // Emoji (two UTF-16 units each) everywhere: whichever cut falls inside one moves off it.
    for (const pad of [0, 1]) {
      const text = `${'a'.repeat(pad)}${'😀'.repeat(6_000)}`;
      const b = boundResult(text);
      expect(b.text.length).toBeLessThanOrEqual(TOOL_RESULT_CAP);
      // No lone half of a pair anywhere (String#isWellFormed, not in the project's ES lib).
      expect(/\p{Surrogate}/u.test(b.text), `pad ${pad}`).toBe(false);
      expect(b.text.endsWith('😀')).toBe(true);
    }
  });
});

describe('every provider cuts its tool results at both ends', () => {
  const endsWithRun = (text: string | null, meta: unknown) => {
    expect(text?.endsWith(`${LAST_LINE}\n`)).toBe(true);
    expect((meta as { truncated: { head: number } }).truncated.head).toBe(6 * 1024);
  };

  it('Codex: a function call output', () => {
    const [block] = itemBlocks({ type: 'function_call_output', call_id: 'call_1', output: RUN })!;
    endsWithRun(block!.text, block!.meta);
  });

  it('Gemini: a function response, and a settled call of a record', () => {
    const [response] = messageBlocks({ id: 'm1', type: 'user', content: [{ functionResponse: { id: 'c1', name: 'run_shell_command', response: { output: RUN } } }] })!;
    endsWithRun(response!.text, response!.meta);
    const blocks = messageBlocks({ id: 'm2', type: 'gemini', content: '', toolCalls: [{ id: 'c2', name: 'run_shell_command', args: {}, status: 'success', result: [{ functionResponse: { id: 'c2', name: 'run_shell_command', response: { output: RUN } } }] }] })!;
    const result = blocks.find((b) => b.kind === 'tool_result');
    endsWithRun(result!.text, result!.meta);
  });

  it('OpenClaw: a tool result and a `!` command’s output', () => {
    const [result] = contentBlocks([{ type: 'text', text: RUN }], 'toolResult', { toolCallId: 't1', toolName: 'bash' });
    endsWithRun(result!.text, result!.meta);
    const [, output] = bashBlocks({ command: 'npm test', output: RUN, exitCode: 1 });
    endsWithRun(output!.text, output!.meta);
  });

  it('a call’s input and an unknown block keep their prefix cut', () => {
    const [call] = itemBlocks({ type: 'custom_tool_call', call_id: 'call_2', name: 'apply_patch', input: RUN })!;
    expect(call!.text).toBe(RUN.slice(0, TOOL_RESULT_CAP));
  });

  it('each such parser is a version on, so stores read before read their files again once', () => {
    expect({ claude: CLAUDE_PARSER_VERSION, codex: CODEX_PARSER_VERSION, gemini: GEMINI_PARSER_VERSION, openclaw: OPENCLAW_PARSER_VERSION }).toEqual({ claude: 12, codex: 9, gemini: 9, openclaw: 5 });
  });
});
