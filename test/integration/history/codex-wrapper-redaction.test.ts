import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../core/index.js';
import { formatSession } from '../../../core/cli/commands/sessions.js';
import { readToolResult } from '../../../core/api/tool-results.js';
import { coreHome } from '../../support/core.js';
import { expectIndexExact } from '../../support/search-index.js';
import { writeJsonl } from '../../support/transcripts.js';

/**
 * Codex's shell output is stored as the JSON wrapper the model saw, its line breaks the two characters
 * `\` `n`. Redacting that text must hide what redacting the output itself hides and nothing more: a
 * database URL's secret once ran on over `\nbuild`, so the export lost the word and a redacted search
 * (the CLI's) dropped the hit, its word gone from the redacted text.
 */

const CODEX = '019f0000-0000-7000-8000-00000000c0d1';
const base = Date.UTC(2026, 2, 1, 9);
const at = (i: number) => new Date(base + i * 60_000).toISOString();
const URL_OUTPUT = 'conn postgres://admin:S3cr3tPassw0rd@db.internal:5432/app\nbuild finished in 42 seconds\nall good';
const KEY = ['-----BEGIN RSA PRIVATE KEY-----', 'MIIEowIBAAKCAQEAx1b2c3d4e5f6g7h8i9j0kLmNoPqRsTuVwXyZ', '-----END RSA PRIVATE KEY-----'].join('\n');
const ENV_OUTPUT = `DATABASE_URL=postgres://admin:S3cr3tPassw0rd@db.internal:5432/app\n${KEY}\ndeploy finished`;
const wrapper = (output: string) => JSON.stringify({ output, metadata: { exit_code: 0, duration_seconds: 0.4 } });

function writeRollout(root: string): void {
  const item = (i: number, payload: unknown) => ({ timestamp: at(i + 1), type: 'response_item', payload });
  writeJsonl(join(root, 'sessions', '2026', '03', '01', `rollout-2026-03-01T09-00-00-${CODEX}.jsonl`), [
    { timestamp: at(0), type: 'session_meta', payload: { id: CODEX, timestamp: at(0), cwd: '/work/wrap', originator: 'codex_cli_rs', cli_version: '0.144.3', source: 'cli' } },
    item(0, { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'run the build' }] }),
    item(1, { type: 'function_call', name: 'shell_command', arguments: JSON.stringify({ command: 'make' }), call_id: 'call_1' }),
    item(2, { type: 'function_call_output', call_id: 'call_1', output: wrapper(URL_OUTPUT) }),
    item(3, { type: 'function_call', name: 'shell_command', arguments: JSON.stringify({ command: 'make deploy' }), call_id: 'call_2' }),
    item(4, { type: 'function_call_output', call_id: 'call_2', output: wrapper(ENV_OUTPUT) }),
  ]);
}

describe('a Codex shell output in its JSON wrapper, redacted', () => {
  const temp = coreHome('steward-codex-wrapper-redaction-', { shared: true });
  let core: Core;
  beforeAll(async () => {
    const { home } = temp;
    home.env.STEWARD_CODEX_ROOTS = join(home.dir, 'roots', 'codex');
    writeRollout(home.env.STEWARD_CODEX_ROOTS);
    core = temp.open();
    await core.call('Backfill.Run', { all: true });
  });

  it('Sessions.Get keeps the words around the URL and hides it, as in the output itself', async () => {
    const got = await core.call('Sessions.Get', { sessionId: CODEX, redact: true });
    const results = got.messages.flatMap((m) => m.parts).filter((p) => p.kind === 'tool_result');
    // Still the wrapper the model saw, and still JSON: its output read as the panel and the CLI read it.
    expect(results.map((p) => readToolResult('codex', p.text ?? ''))).toEqual([
      { exitCode: 0, output: `conn [REDACTED]\n${URL_OUTPUT.split('\n').slice(1).join('\n')}`, body: expect.any(String) },
      { exitCode: 0, output: expect.stringMatching(/^DATABASE_URL=\[REDACTED\]\n[^\n]*\[REDACTED\][^\n]*\ndeploy finished$/), body: expect.any(String) },
    ]);
    const shown = formatSession(got);
    expect(shown).toContain('3 lines: conn [REDACTED]');
    expect(JSON.stringify(got)).not.toMatch(/S3cr3tPassw0rd|MIIEowIBAAKCAQEAx1b2c3d4e5f6/);
  });

  it('the export keeps the line after the URL and after the key, and hides the URL and the private key whole', async () => {
    const md = (await core.call('Sessions.Export', { sessionId: CODEX, format: 'markdown' })).content;
    expect(md).toContain('build finished in 42 seconds');
    expect(md).toContain('deploy finished');
    expect(md).toContain('DATABASE_URL=[REDACTED]\n');
    expect(md).not.toContain('S3cr3tPassw0rd');
    expect(md).not.toContain('MIIEowIBAAKCAQEAx1b2c3d4e5f6');
  });

  it('a redacted search (the CLI’s) finds the word on the line after the URL', async () => {
    for (const redact of [false, true]) {
      const found = await core.call('Search.Query', { query: 'build', kind: 'tool_result', redact });
      expect(found.hits.map((h) => h.sessionId)).toEqual([CODEX]);
    }
    expect((await core.call('Search.Query', { query: 'deploy', kind: 'tool_result', redact: true })).hits).toHaveLength(1);
    expect((await core.call('Search.Query', { query: 'S3cr3tPassw0rd', redact: true })).hits).toEqual([]);
    expectIndexExact(core.gateway);
  });
});
