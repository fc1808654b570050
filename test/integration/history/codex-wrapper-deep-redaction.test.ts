import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../core/index.js';
import { coreHome } from '../../support/core.js';
import { writeJsonl } from '../../support/transcripts.js';

/**
 * A redacted search (the CLI's) redacts excerpts cut around a hit, not the whole part. An excerpt cut
 * from deep inside a JSON text (Codex's shell output wrapper, a tool's input) does not begin as JSON;
 * it must still be read as the JSON text it came from, its `\n` a line break: else a URL's secret runs
 * on into the next line's first word (the hit is dropped), and a token at a line's start is missed
 * behind the `n` of `\n` (a search by it finds the part, a snippet shows it).
 */

const CODEX = '019f0000-0000-7000-8000-00000000c0d2';
const base = Date.UTC(2026, 2, 2, 9);
const at = (i: number) => new Date(base + i * 60_000).toISOString();
const GH = `ghp_${'a1B2'.repeat(9)}`;
/** More than 1,500 characters before the lines a test looks at: an excerpt around them begins inside the JSON. */
const FILLER = Array.from({ length: 60 }, (_, i) => `step ${i}: compiling module alpha`).join('\n');
const URL_OUTPUT = `${FILLER}\nconn postgres://admin:S3cr3tPassw0rd@db.internal:5432/app\nbuild finished\nall good`;
const TOKEN_OUTPUT = `${FILLER}\n${GH}\nkestrel landed\nall good`;
const TOKEN_COMMAND = `${FILLER}\n${GH}\nosprey tagged`;
const wrapper = (output: string) => JSON.stringify({ output, metadata: { exit_code: 0, duration_seconds: 0.4 } });

function writeRollout(root: string): void {
  const item = (i: number, payload: unknown) => ({ timestamp: at(i + 1), type: 'response_item', payload });
  writeJsonl(join(root, 'sessions', '2026', '03', '02', `rollout-2026-03-02T09-00-00-${CODEX}.jsonl`), [
    { timestamp: at(0), type: 'session_meta', payload: { id: CODEX, timestamp: at(0), cwd: '/work/deep', originator: 'codex_cli_rs', cli_version: '0.144.3', source: 'cli' } },
    item(0, { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'run the build' }] }),
    item(1, { type: 'function_call', name: 'shell_command', arguments: JSON.stringify({ command: 'make' }), call_id: 'call_1' }),
    item(2, { type: 'function_call_output', call_id: 'call_1', output: wrapper(URL_OUTPUT) }),
    item(3, { type: 'function_call', name: 'shell_command', arguments: JSON.stringify({ command: 'make token' }), call_id: 'call_2' }),
    item(4, { type: 'function_call_output', call_id: 'call_2', output: wrapper(TOKEN_OUTPUT) }),
    item(5, { type: 'function_call', name: 'shell_command', arguments: JSON.stringify({ command: TOKEN_COMMAND }), call_id: 'call_3' }),
    item(6, { type: 'function_call_output', call_id: 'call_3', output: wrapper('ok') }),
  ]);
}

describe('an excerpt cut deep inside a JSON text, redacted', () => {
  const temp = coreHome('steward-codex-deep-redaction-', { shared: true });
  let core: Core;
  beforeAll(async () => {
    const { home } = temp;
    home.env.STEWARD_CODEX_ROOTS = join(home.dir, 'roots', 'codex');
    writeRollout(home.env.STEWARD_CODEX_ROOTS);
    core = temp.open();
    await core.call('Backfill.Run', { all: true });
  });

  const search = (query: string, kind: 'tool_result' | 'tool_use') => core.call('Search.Query', { query, kind, redact: true });

  it('finds the word on the line after a URL, and shows no secret', async () => {
    const { hits } = await search('build', 'tool_result');
    expect(hits.map((h) => h.sessionId)).toEqual([CODEX]);
    expect(hits[0]!.snippet).toContain('build');
    expect(JSON.stringify(hits)).not.toContain('S3cr3tPassw0rd');
  });

  it('keeps a token at a line’s start hidden, in the output and in a tool’s input', async () => {
    for (const [word, kind] of [
      ['kestrel', 'tool_result'],
      ['osprey', 'tool_use'],
    ] as const) {
      const { hits } = await search(word, kind);
      expect(hits.map((h) => h.sessionId)).toEqual([CODEX]);
      expect(JSON.stringify(hits)).not.toContain('a1B2a1B2');
    }
  });

  it('finds no part by the token: hit or miss would tell it', async () => {
    expect((await core.call('Search.Query', { query: GH, redact: true })).hits).toEqual([]);
    expect((await core.call('Search.Query', { query: GH, redact: false })).hits).not.toEqual([]);
  });
});
