import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { Core } from '../../../core/core.js';
import { tempHome, type TempHome } from '../../support/home.js';

/** Codex's and Gemini CLI's work, captured from their own files and swept offline into the project's notes. */
let home: TempHome;
let core: Core;
let cwd: string;

const CODEX_ID = '019f5c5a-eb02-7ff0-90af-653b66eba9f4';

function write(path: string, lines: unknown[]): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
}

const at = (s: number) => new Date(Date.parse('2026-11-28T08:00:00Z') + s * 1_000).toISOString();
const item = (s: number, payload: Record<string, unknown>) => ({ timestamp: at(s), type: 'response_item', payload });

function codexRollout(root: string): void {
  const patch = '*** Begin Patch\n*** Update File: src/upload.ts\n@@\n-  return fetch(URL, {method: "PUT", body: file});\n+  return withBackoff(() => fetch(URL, {method: "PUT", body: file}));\n*** Add File: src/backoff.ts\n+export const withBackoff = (f) => f();\n*** End Patch\n';
  write(join(root, 'sessions', '2026', '11', '28', `rollout-2026-11-28T09-00-00-${CODEX_ID}.jsonl`), [
    { timestamp: at(0), type: 'session_meta', payload: { id: CODEX_ID, timestamp: at(0), cwd, originator: 'codex_cli_rs', cli_version: '0.144.3', source: 'cli' } },
    { timestamp: at(0), type: 'turn_context', payload: { cwd, approval_policy: 'on-request', sandbox_policy: { type: 'workspace-write' }, model: 'gpt-5-codex', summary: 'auto' } },
    item(1, { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Add exponential backoff to upload() and commit it' }] }),
    item(2, { type: 'custom_tool_call', status: 'completed', call_id: 'call_Pz81', name: 'apply_patch', input: patch }),
    item(3, { type: 'custom_tool_call_output', call_id: 'call_Pz81', output: JSON.stringify({ output: 'Success. Updated the following files:\nM src/upload.ts\nA src/backoff.ts\n', metadata: { exit_code: 0 } }) }),
    item(4, { type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', "git add -A && git commit -m 'Retry uploads with exponential backoff'"], workdir: cwd }), call_id: 'call_Gc02' }),
    item(5, { type: 'function_call_output', call_id: 'call_Gc02', output: JSON.stringify({ output: '[main 4f2a9c1] Retry uploads with exponential backoff\n', metadata: { exit_code: 0 } }) }),
    item(6, { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Backoff is in place and committed.' }] }),
  ]);
}

function geminiChat(root: string): void {
  const folder = join(root, 'tmp', 'uploader');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, '.project_root'), `${cwd}\n`);
  const id = 'write_file-1795852860000-0';
  const commit = 'run_shell_command-1795852861000-1';
  write(join(folder, 'chats', 'session-2026-11-28T09-30-92f625c6.jsonl'), [
    { sessionId: '92f625c6-a764-48e3-b922-3766d41f9c4c', projectHash: 'a33c3345ed', startTime: at(1_800), lastUpdated: at(1_800), kind: 'main' },
    { id: '6151f4b5-c125-4243-9a2c-51f1e31e4ae6', timestamp: at(1_801), type: 'user', content: [{ text: 'Document the retry policy in the README' }] },
    {
      id: '26522e6d-0b73-434e-a65d-bb783dab2738',
      timestamp: at(1_805),
      type: 'gemini',
      content: [{ text: 'The README documents the retry policy now.' }],
      model: 'gemini-2.5-pro',
      toolCalls: [
        { id, name: 'write_file', args: { file_path: join(cwd, 'docs', 'retries.md'), content: '# Retries\n' }, status: 'success', timestamp: at(1_802), result: [{ functionResponse: { id, name: 'write_file', response: { output: 'Successfully created and wrote to new file.' } } }] },
        { id: commit, name: 'run_shell_command', args: { command: 'git commit -am "Document the retry policy"', description: 'Commit' }, status: 'success', timestamp: at(1_803), result: [{ functionResponse: { id: commit, name: 'run_shell_command', response: { output: 'Output: [main 7b3d2e0] Document the retry policy\nExit Code: 0' } } }] },
      ],
    },
  ]);
}

beforeEach(() => {
  home = tempHome('steward-sweeper-agents-');
  cwd = join(home.dir, 'work', 'uploader');
  mkdirSync(cwd, { recursive: true });
  const codexRoot = join(home.dir, 'roots', 'codex');
  const geminiRoot = join(home.dir, 'roots', 'gemini');
  codexRollout(codexRoot);
  geminiChat(geminiRoot);
  core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: { ...home.env, STEWARD_CODEX_ROOTS: codexRoot, STEWARD_GEMINI_ROOTS: geminiRoot } });
});

afterEach(async () => {
  await core.shutdown();
  home.cleanup();
});

it("the notes of a project Codex and Gemini CLI worked on name their files and commits", async () => {
  await core.call('Backfill.Run', {});
  const { projects } = await core.call('Projects.List', {});
  expect(projects.map((p) => p.cwd)).toEqual([cwd]);
  const key = projects[0]!.projectKey;
  await expect(core.call('Sweeper.Run', { projectKey: key })).resolves.toMatchObject({ outcome: 'ok', mode: 'offline', changelog: 'appended' });
  const got = await core.call('Projects.Get', { projectKey: key });
  expect(got.changelog).toMatch(/^## 2026-11-28$/m);
  expect(got.changelog).toContain('“Retry uploads with exponential backoff”');
  expect(got.changelog).toContain('“Document the retry policy”');
  expect(got.changelog).toContain('(3 file edits)');
  expect(got.overview).toContain('`src/` backoff.ts, upload.ts');
  expect(got.overview).toContain('`docs/` retries.md');
});
