import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { partView as partViewOf } from '../../../core/history/messages.js';
import type { OrderedPart } from '../../../core/gateway/index.js';
import { metaJson } from '../../../core/transcripts/bounds.js';
import { itemBlocks } from '../../../core/transcripts/providers/codex/items.js';
import { messageBlocks } from '../../../core/transcripts/providers/gemini/messages.js';

/** The part as its conversation's provider reads it: these tests' part ids say whose they are. */
const PROVIDER_OF_PREFIX: Record<string, string> = { cc: 'claude', cx: 'codex', gm: 'gemini', oc: 'openclaw' };
const partView = (part: OrderedPart) => partViewOf(part, PROVIDER_OF_PREFIX[part.partId.split(':')[0]!] ?? 'claude');

const FIXTURES = 'test/fixtures/transcripts';

/** A stored tool result: the text and meta capture writes, under the part id prefix of its agent. */
const stored = (partId: string, text: string, meta: Record<string, unknown>): OrderedPart => ({
  rowid: 1,
  partId,
  role: 'tool',
  kind: 'tool_result',
  ts: 1,
  place: 1,
  text,
  meta: metaJson(meta),
  genuineUserTurn: false,
  isCompactSummary: false,
});

/** The result part Codex's parser makes of one rollout `response_item` payload. */
function codexPart(payload: Record<string, unknown>): OrderedPart {
  const [block] = itemBlocks(payload)!;
  return stored('cx:019f5c5a:line:0', block!.text!, block!.meta);
}

/** The result part of a fixture rollout's `function_call_output` for this call. */
function codexFixture(callId: string): OrderedPart {
  const file = `${FIXTURES}/codex/rollout-2026-07-13T18-41-30-019f5c5a-eb02-7ff0-90af-653b66eba9f4.jsonl`;
  const line = readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => (l.trim() ? (JSON.parse(l) as { payload?: Record<string, unknown> }) : {}))
    .find((l) => l.payload?.type === 'function_call_output' && l.payload.call_id === callId);
  return codexPart(line!.payload!);
}

/** The result part Gemini's parser makes of the fixture's settled `run_shell_command` call. */
function geminiFixture(): OrderedPart {
  const records = readFileSync(`${FIXTURES}/gemini/current-session.jsonl`, 'utf8')
    .split('\n')
    .filter((l) => l.includes('"status":"success"') && l.includes('run_shell_command'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const block = messageBlocks(records[0]!)!.find((b) => b.kind === 'tool_result')!;
  return stored(`gm:92f625c6:26522e6d:${block.key}`, block.text!, block.meta);
}

describe('the one line a folded tool result shows, and its exit code', () => {
  it('Claude Code: "Exit code N" first gives the code, the line after it says why', () => {
    const part = partView(stored('cc:u7:0', 'Exit code 2\nsrc/calendar.ts(14,7): error TS2345: Argument of type string is not assignable', { toolUseId: 'toolu_01Build', isError: true }));
    expect(part).toMatchObject({ isError: true, exitCode: 2, summary: 'exit code 2: src/calendar.ts(14,7): error TS2345: Argument of type string is not assignable' });
    expect(part.output).toBeUndefined();
  });

  it('Codex: a failed shell output folds to its exit code and the output, not the JSON it came in', () => {
    const part = partView(codexFixture('call_Tt03'));
    expect(part).toMatchObject({ isError: true, exitCode: 1, summary: 'exit code 1: 1 failing' });
    expect(part.output).toBe('1 failing\n  upload retries: expected 5 calls\n');
    expect(part.text).toMatch(/^\{"output":/);
  });

  it('Codex: a command that succeeded counts the output\'s lines, with exit code 0', () => {
    const part = partView(codexFixture('call_7Hq2'));
    expect(part).toMatchObject({ isError: false, exitCode: 0, summary: '3 lines: export async function upload(file: Blob) {' });
    expect(part.output).toBe("export async function upload(file: Blob) {\n  return fetch(URL, {method: 'PUT', body: file});\n}\n");
  });

  it('Codex: a wrapper capture cut at both ends still reads as its output, its start and its end, and its end\'s metadata gives the exit code', () => {
    const log = `FAIL src/ledger.test.ts\nTypeError: Cannot read properties of undefined (reading 'amount')\n${'    at Ledger.post (src/ledger.ts:41:17) "quoted" \\ \u00e9\n'.repeat(400)}Tests: 1 failed, 41 passed\n`;
    const output = JSON.stringify({ output: log, metadata: { exit_code: 1, duration_seconds: 3.4 } });
    const raw = codexPart({ type: 'function_call_output', call_id: 'call_Lg01', output });
    expect(JSON.parse(raw.meta!)).toMatchObject({ isError: true, truncated: { length: output.length } });
    const part = partView(raw);
    expect(part).toMatchObject({ isError: true, exitCode: 1, summary: 'exit code 1: FAIL src/ledger.test.ts' });
    const [start, end] = part.output!.split('\n···\n');
    expect(start!.startsWith("FAIL src/ledger.test.ts\nTypeError: Cannot read properties of undefined (reading 'amount')\n    at Ledger.post")).toBe(true);
    expect(log.startsWith(start!)).toBe(true);
    expect(end!.endsWith('Tests: 1 failed, 41 passed\n')).toBe(true);
    expect(log.endsWith(end!)).toBe(true);
  });

  it('Codex: a wrapper an older parser stored cut to its first 8 KB still reads as its output\'s start, failed as capture marked it', () => {
    const log = `FAIL src/ledger.test.ts\n${'    at Ledger.post (src/ledger.ts:41:17)\n'.repeat(400)}`;
    const output = JSON.stringify({ output: log, metadata: { exit_code: 1 } });
    const part = partView(stored('cx:s:l:0', output.slice(0, 8192), { isError: true, truncated: { length: output.length } }));
    expect(part).toMatchObject({ isError: true, summary: 'failed: FAIL src/ledger.test.ts' });
    expect(part.exitCode).toBeUndefined();
    expect(log.startsWith(part.output!)).toBe(true);
  });

  it('Codex: a cut that falls inside an escape keeps the characters before it', () => {
    const cut = (tail: string) => partView(stored('cx:s:l:0', `{"output":"FAIL src/ledger.test.ts\\n  \\"amount\\" is undefined\\n${tail}`, { isError: true, truncated: { length: 9_000 } }));
    for (const tail of ['\\', '\\u00', 'at C:\\\\']) {
      expect(cut(tail)).toMatchObject({ summary: 'failed: FAIL src/ledger.test.ts', output: expect.stringMatching(/^FAIL src\/ledger\.test\.ts\n {2}"amount" is undefined\n/) });
    }
    expect(cut('at C:\\\\').output).toBe('FAIL src/ledger.test.ts\n  "amount" is undefined\nat C:\\');
  });

  it('Codex: the text forms of a shell output (freeform, exec_command) give their exit code too', () => {
    const freeform = partView(codexPart({ type: 'function_call_output', call_id: 'c1', output: 'Exit code: 1\nWall time: 2.3 seconds\nOutput:\nFAIL src/ledger.test.ts\nTypeError: x is undefined\n' }));
    expect(freeform).toMatchObject({ isError: true, exitCode: 1, summary: 'exit code 1: FAIL src/ledger.test.ts' });
    const unified = partView(codexPart({ type: 'function_call_output', call_id: 'c2', output: 'Chunk ID: 4f2a9c\nWall time: 1.0021 seconds\nProcess exited with code 2\nOriginal token count: 9\nOutput:\nerror TS2307: Cannot find module\n' }));
    expect(unified).toMatchObject({ isError: true, exitCode: 2, summary: 'exit code 2: error TS2307: Cannot find module' });
    const running = partView(codexPart({ type: 'function_call_output', call_id: 'c3', output: 'Chunk ID: 4f2a9d\nWall time: 10.0 seconds\nProcess running with session ID 7\nOriginal token count: 3\nOutput:\nwatching for changes\n' }));
    expect(running).toMatchObject({ isError: false, summary: '1 line: watching for changes' });
    expect(running.exitCode).toBeUndefined();
  });

  it('Gemini CLI: "Exit Code: N" fails the result its status called a success', () => {
    const raw = geminiFixture();
    expect(raw.text).toBe('Command: npm test\nExit Code: 1\nOutput: 1 failing');
    expect(JSON.parse(raw.meta!).isError).toBeUndefined();
    expect(partView(raw)).toMatchObject({ isError: true, exitCode: 1, summary: 'exit code 1: 1 failing' });
  });

  it('Gemini CLI: the current shape puts the code after the output; a success reads as its output', () => {
    const failed = partView(stored('gm:s:m:tr-1', 'Output: FAIL src/ledger.test.ts\nTypeError: x is undefined\nExit Code: 1\nProcess Group PGID: 4242', { name: 'run_shell_command' }));
    expect(failed).toMatchObject({ isError: true, exitCode: 1, summary: 'exit code 1: FAIL src/ledger.test.ts' });
    const passed = partView(stored('gm:s:m:tr-2', 'Output: 12 passing\nProcess Group PGID: 4242', { name: 'run_shell_command' }));
    expect(passed).toMatchObject({ isError: false, summary: '1 line: 12 passing' });
    expect(passed.exitCode).toBeUndefined();
  });

  it('OpenClaw: the exec tool\'s "(Command exited with code N)" and a `!` command\'s recorded exit code', () => {
    const exec = partView(stored('oc:main:s1:c3d4e5f6:0', "FAIL src/ledger.test.ts\nTypeError: x is undefined\n\n(Command exited with code 1)", { toolUseId: 'toolu_01Zk', name: 'exec', isError: true }));
    expect(exec).toMatchObject({ isError: true, exitCode: 1, summary: 'exit code 1: FAIL src/ledger.test.ts' });
    const bang = partView(stored('oc:main:bash:b0000002:1', '1 failing', { name: 'bash', isError: true, exitCode: 1, agentTruncated: true }));
    expect(bang).toMatchObject({ isError: true, exitCode: 1, summary: 'exit code 1: 1 failing' });
  });
});
