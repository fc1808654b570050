import { afterEach, describe, expect, it } from 'vitest';
import { commandText, patchedFiles } from '../../../core/api/index.js';
import type { GatewayReader, StoredPart } from '../../../core/gateway/index.js';
import type { ProjectStore } from '../../../core/projects/index.js';
import { createRedactor } from '../../../core/secrets/index.js';
import { buildDigest, renderPrompt } from '../../../core/sweeper/digest.js';
import { activityDays, extract } from '../../../core/sweeper/extract.js';
import { GatewayDigestSource } from '../../../core/sweeper/gateway-source.js';
import { projectPaths } from '../../../core/sweeper/index.js';
import type { SweeperProject } from '../../../core/sweeper/types.js';
import { metaJson } from '../../../core/transcripts/bounds.js';
import { itemBlocks } from '../../../core/transcripts/providers/codex/items.js';
import { messageBlocks } from '../../../core/transcripts/providers/gemini/messages.js';
import { contentBlocks } from '../../../core/transcripts/providers/openclaw/blocks.js';
import { tempHome } from '../../integration/sweeper/helpers.js';

// Each agent's calls as its own parser stores them (name and input in the part, the result's failure in
// its meta), read back through the sweeper's gateway source: what a sweep of that agent's project sees.

const CWD = '/home/ana/src/uploader';
const project: SweeperProject = { projectKey: 'p_00000000000000ab', name: 'uploader', cwd: CWD, slug: 'uploader-00000000', repoBacked: true, repoId: null };

type Block = { role: string; kind: string; text: string | null; meta: Record<string, unknown> };
const part = (partId: string, ts: number, block: Block): StoredPart => ({
  partId,
  sessionId: 's1',
  role: block.role,
  kind: block.kind,
  ts,
  place: ts,
  text: block.text,
  meta: metaJson(block.meta),
  isMeta: false,
  isCompactSummary: false,
  isSidechain: false,
  genuineUserTurn: false,
});

/** A rollout's `response_item` payloads, one message each (Codex lines carry no ids). */
function codexParts(payloads: Array<Record<string, unknown>>): StoredPart[] {
  return payloads.flatMap((payload, line) => itemBlocks(payload)!.map((b, i) => part(`cx:s1:line${line}:${i}`, 1_000 + line, b)));
}

/** A Gemini chat's message records, each with its tool calls and their settled results. */
function geminiParts(records: Array<Record<string, unknown>>): StoredPart[] {
  return records.flatMap((record, n) => messageBlocks(record)!.map((b) => part(`gm:s1:${String(record.id)}:${b.key}`, 1_000 + n, b)));
}

/** OpenClaw `message` entries: `[role, message]`, an assistant's toolCall blocks and each toolResult. */
function openclawParts(entries: Array<Record<string, unknown>>): StoredPart[] {
  return entries.flatMap((message, n) => contentBlocks(message.content, String(message.role), message).map((b, i) => part(`oc:main:s1:e${n}:${i}`, 1_000 + n, { ...b, role: String(message.role) })));
}

const homes: Array<() => void> = [];
afterEach(() => homes.splice(0).forEach((c) => c()));

/** The digest a sweep builds of these stored parts, redacted and cut as every digest is. */
async function digestOf(parts: StoredPart[], provider: string) {
  const reader = {
    sessionsOfProject: () => [{ sessionId: 's1', title: null, provider }],
    partsOfSession: () => parts,
    firstPartsOfSession: () => [],
  } as unknown as GatewayReader;
  const projects = { list: () => [project], get: () => project } as unknown as ProjectStore;
  const home = tempHome();
  homes.push(home.cleanup);
  return buildDigest(new GatewayDigestSource(projects, reader), project, projectPaths(home.dir, project.slug), createRedactor(), 2_000, 3_000);
}

const call = (name: string, args: Record<string, unknown>, id: string) => ({ type: 'function_call', name, arguments: JSON.stringify(args), call_id: id });
const output = (id: string, exitCode: number, text: string) => ({ type: 'function_call_output', call_id: id, output: JSON.stringify({ output: text, metadata: { exit_code: exitCode, duration_seconds: 0.4 } }) });

describe('Codex CLI: what its shell, exec_command and apply_patch calls did', () => {
  const patch = '*** Begin Patch\n*** Update File: src/upload.ts\n@@\n-export async function upload(file: Blob) {\n+export async function upload(file: Blob, attempts = 5) {\n*** Add File: test/backoff.test.ts\n+import { upload } from "../src/upload";\n*** End Patch\n';
  const rollout = [
    { type: 'custom_tool_call', status: 'completed', call_id: 'call_Pz81', name: 'apply_patch', input: patch },
    { type: 'custom_tool_call_output', call_id: 'call_Pz81', output: JSON.stringify({ output: 'Success. Updated the following files:\nM src/upload.ts\nA test/backoff.test.ts\n', metadata: { exit_code: 0, duration_seconds: 0 } }) },
    call('shell', { command: ['npm', 'run', 'lint'], workdir: CWD }, 'call_Ln01'),
    output('call_Ln01', 1, 'src/upload.ts:3:7 error  attempts is defined but never used'),
    call('shell', { command: ['bash', '-lc', "git add -A && git commit -m 'Retry uploads with exponential backoff'"], workdir: CWD }, 'call_Gc02'),
    output('call_Gc02', 0, '[main 4f2a9c1] Retry uploads with exponential backoff\n 2 files changed'),
    call('exec_command', { cmd: 'git commit --amend -m "Retry uploads with backoff and jitter"', workdir: CWD, yield_time_ms: 10_000 }, 'call_Ex03'),
    { type: 'function_call_output', call_id: 'call_Ex03', output: 'Chunk ID: 4f2a9c\nWall time: 0.2 seconds\nProcess exited with code 0\nOriginal token count: 12\nOutput:\n[main 7b3d2e0] Retry uploads with backoff and jitter\n' },
    call('apply_patch', { input: '*** Begin Patch\n*** Update File: README.md\n*** Move to: docs/README.md\n*** Delete File: NOTES.txt\n*** End Patch' }, 'call_Ap04'),
    output('call_Ap04', 0, 'Success.'),
  ];

  it('carries every file one patch touched, the script inside `bash -lc`, and exec_command\'s `cmd`', async () => {
    const digest = await digestOf(codexParts(rollout), 'codex');
    const x = extract(digest);
    expect(x.files).toEqual([
      { folder: '', files: ['NOTES.txt', 'README.md'] },
      { folder: 'docs/', files: ['README.md'] },
      { folder: 'src/', files: ['upload.ts'] },
      { folder: 'test/', files: ['backoff.test.ts'] },
    ]);
    expect(x.commits).toEqual(['Retry uploads with backoff and jitter', 'Retry uploads with exponential backoff']);
    expect(x.failures).toEqual(['`npm run lint` failed: src/upload.ts:3:7 error attempts is defined but never used']);
    const prompt = renderPrompt(digest, '2026-07-13', 50_000).user;
    expect(prompt).toContain('apply_patch src/upload.ts, test/backoff.test.ts');
    expect(prompt).toContain("shell `git add -A && git commit -m 'Retry uploads with exponential backoff'`");
  });

  it('a failed patch changes nothing, and a command run again successfully is no failure', async () => {
    const x = extract(
      await digestOf(
        codexParts([
          { ...rollout[0], call_id: 'call_Bad' },
          { type: 'custom_tool_call_output', call_id: 'call_Bad', output: JSON.stringify({ output: 'Failed to find expected lines in src/upload.ts', metadata: { exit_code: 1, duration_seconds: 0 } }) },
          ...rollout.slice(2, 4),
          call('shell', { command: ['npm', 'run', 'lint'], workdir: CWD }, 'call_Ln05'),
          output('call_Ln05', 0, ''),
          ...rollout.slice(8),
        ]),
        'codex',
      ),
    );
    expect(x.files).toEqual([
      { folder: '', files: ['NOTES.txt', 'README.md'] },
      { folder: 'docs/', files: ['README.md'] },
    ]);
    expect(x.failures).toEqual([]);
  });
});

describe('a shell call whose result says it exited non-zero is a failure, whatever its flag says', () => {
  const unified = (code: number, out: string) => `Chunk ID: 9a1b2c\nWall time: 1.2 seconds\nProcess exited with code ${code}\nOriginal token count: 40\nOutput:\n${out}`;
  const exec = (id: string) => call('exec_command', { cmd: 'npm test', workdir: CWD, yield_time_ms: 10_000 }, id);
  const result = (id: string, text: string) => ({ type: 'function_call_output', call_id: id, output: text });

  it('Codex: an exec_command that exited 1 and was not run again', async () => {
    const parts = codexParts([exec('call_T1'), result('call_T1', unified(1, 'FAIL test/upload.test.ts\n  ✗ retries five times: expected 5 attempts, got 1\n'))]);
    expect(extract(await digestOf(parts, 'codex')).failures).toEqual(['`npm test` failed: FAIL test/upload.test.ts']);
  });

  it('Codex: a shell_command whose freeform result says "Exit code: 2"; its commit is no commit', async () => {
    const parts = codexParts([
      call('shell_command', { command: "git commit -m 'Retry uploads'", workdir: CWD }, 'call_C1'),
      result('call_C1', 'Exit code: 2\nWall time: 0.1 seconds\nOutput:\nerror: pathspec did not match any file(s) known to git\n'),
    ]);
    const x = extract(await digestOf(parts, 'codex'));
    expect(x.failures).toEqual(["`git commit -m 'Retry uploads'` failed: error: pathspec did not match any file(s) known to git"]);
    expect(x.commits).toEqual([]);
  });

  it('Codex: the same exec_command run again with exit 0 is no failure', async () => {
    const parts = codexParts([exec('call_T1'), result('call_T1', unified(1, 'FAIL test/upload.test.ts\n')), exec('call_T2'), result('call_T2', unified(0, 'PASS test/upload.test.ts\n'))]);
    expect(extract(await digestOf(parts, 'codex')).failures).toEqual([]);
  });

  it('Codex: a still-running exec_command (no exit code) and a JSON wrapper with exit 0 are no failures', async () => {
    const parts = codexParts([
      exec('call_R1'),
      result('call_R1', 'Chunk ID: 1\nWall time: 10.0 seconds\nProcess running with session ID 7\nOutput:\nwatching for changes\n'),
      call('shell', { command: ['bash', '-lc', 'npm run build'] }, 'call_B1'),
      output('call_B1', 0, 'built in 2.1s: 0 errors'),
    ]);
    expect(extract(await digestOf(parts, 'codex')).failures).toEqual([]);
  });

  it('Gemini: a run_shell_command settled "success" whose output says "Exit Code: 1"', async () => {
    const id = 'run_shell_command-1781078409000-0';
    const text = 'Command: npm test\nDirectory: (root)\nOutput: FAIL src/compose.test.ts\nTypeError: compose is not a function\nError: (none)\nExit Code: 1\nSignal: (none)\nBackground PIDs: (none)\nProcess Group PGID: 4242';
    const record = {
      id: '7d0c3f1e-0b73-434e-a65d-bb783dab2739',
      timestamp: '2026-06-10T08:01:00.000Z',
      type: 'gemini',
      content: [{ text: 'Running the tests.' }],
      toolCalls: [{ id, name: 'run_shell_command', args: { command: 'npm test' }, status: 'success', timestamp: '2026-06-10T08:01:00.000Z', result: [{ functionResponse: { id, name: 'run_shell_command', response: { output: text } } }] }],
    };
    expect(extract(await digestOf(geminiParts([record]), 'gemini')).failures).toEqual(['`npm test` failed: FAIL src/compose.test.ts']);
  });

  it('Claude Code: a Bash result "Exit code 1" (flagged an error, as its parser stores it) is still a failure', async () => {
    const parts = [
      part('cc:u1:0', 1_000, { role: 'assistant', kind: 'tool_use', text: JSON.stringify({ command: 'npm run lint' }), meta: { name: 'Bash', toolUseId: 'toolu_L1' } }),
      part('cc:u2:0', 1_001, { role: 'user', kind: 'tool_result', text: 'Exit code 1\nsrc/upload.ts:3:7 error  attempts is defined but never used', meta: { toolUseId: 'toolu_L1', isError: true } }),
    ];
    expect(extract(await digestOf(parts, 'claude')).failures).toEqual(['`npm run lint` failed: src/upload.ts:3:7 error attempts is defined but never used']);
  });
});

describe('Gemini CLI: write_file, replace and run_shell_command', () => {
  const MAILER = `${CWD}`;
  const tool = (id: string, name: string, args: Record<string, unknown>, status: string, out: string) => ({
    id,
    name,
    args,
    status,
    timestamp: '2026-06-10T08:00:07.900Z',
    displayName: name,
    description: '',
    renderOutputAsMarkdown: false,
    result: [{ functionResponse: { id, name, response: status === 'error' ? { error: out } : { output: out } } }],
  });
  const records = [
    {
      id: '26522e6d-0b73-434e-a65d-bb783dab2738',
      timestamp: '2026-06-10T08:00:09.000Z',
      type: 'gemini',
      content: [{ text: 'Writing the compose helper and its test.' }],
      model: 'gemini-2.5-pro',
      toolCalls: [
        tool('write_file-1781078408000-0', 'write_file', { file_path: `${MAILER}/src/compose.ts`, content: 'export const compose = () => 1;\n' }, 'success', 'Successfully created and wrote to new file.'),
        tool('replace-1781078408100-1', 'replace', { file_path: `${MAILER}/src/reply.ts`, old_string: 'a', new_string: 'b', instruction: 'Use compose' }, 'success', 'Successfully modified file.'),
        tool('replace-1781078408200-2', 'replace', { file_path: `${MAILER}/src/untouched.ts`, old_string: 'zzz', new_string: 'y' }, 'error', 'Failed to edit, 0 occurrences found for old_string'),
        tool('run_shell_command-1781078408300-3', 'run_shell_command', { command: 'npm run typecheck', description: 'Type check', dir_path: MAILER }, 'error', 'Command exited with error: src/reply.ts(4,1): error TS2304: Cannot find name compose'),
        tool('run_shell_command-1781078408400-4', 'run_shell_command', { command: 'git commit -am "Compose replies from the shared helper"', description: 'Commit' }, 'success', 'Command: git commit -am "Compose replies from the shared helper"\nOutput: [main 1a2b3c4] Compose replies from the shared helper\nExit Code: 0'),
      ],
    },
  ];

  it('lists the files written and replaced, the commit, and the failed type check; a failed replace changes nothing', async () => {
    const x = extract(await digestOf(geminiParts(records), 'gemini'));
    expect(x.files).toEqual([{ folder: 'src/', files: ['compose.ts', 'reply.ts'] }]);
    expect(x.commits).toEqual(['Compose replies from the shared helper']);
    expect(x.failures).toEqual(['`npm run typecheck` failed: Command exited with error: src/reply.ts(4,1): error TS2304: Cannot find name compose']);
  });
});

describe('OpenClaw: write, edit, exec and apply_patch', () => {
  const toolCall = (id: string, name: string, args: Record<string, unknown>) => ({ type: 'toolCall', id, name, arguments: args });
  const result = (id: string, name: string, text: string, isError = false) => ({ role: 'toolResult', toolCallId: id, toolName: name, content: [{ type: 'text', text }], isError, timestamp: 1775610228020 });
  const entries = [
    {
      role: 'assistant',
      content: [
        toolCall('toolu_01Wr', 'write', { path: 'automations/porch.yaml', content: 'alias: porch light\n' }),
        toolCall('toolu_02Ed', 'edit', { path: `${CWD}/configuration.yaml`, oldText: 'automation: []', newText: 'automation: !include automations/porch.yaml' }),
        toolCall('toolu_03Ap', 'apply_patch', { input: '*** Begin Patch\n*** Add File: scripts/sunset.sh\n+#!/bin/sh\n*** Update File: README.md\n@@\n+Porch light\n*** End Patch' }),
      ],
      stopReason: 'toolUse',
      timestamp: 1775610227310,
    },
    result('toolu_01Wr', 'write', 'Successfully wrote 20 bytes to automations/porch.yaml'),
    result('toolu_02Ed', 'edit', 'Successfully replaced text in configuration.yaml.'),
    result('toolu_03Ap', 'apply_patch', 'Success. Updated the following files:\nA scripts/sunset.sh\nM README.md'),
    {
      role: 'assistant',
      content: [toolCall('toolu_04Ex', 'exec', { command: 'ha core check' }), toolCall('toolu_05Ex', 'exec', { command: "git add -A && git commit -m 'Add the porch light automation'" })],
      stopReason: 'toolUse',
      timestamp: 1775610229000,
    },
    result('toolu_04Ex', 'exec', 'Invalid config for automation: required key not provided\n\n(Command exited with code 1)', true),
    result('toolu_05Ex', 'exec', '[main 9c8b7a6] Add the porch light automation'),
  ];

  it('lists every file its tools changed, its commit and its failed check', async () => {
    const digest = await digestOf(openclawParts(entries), 'openclaw');
    const x = extract(digest);
    expect(x.files).toEqual([
      { folder: '', files: ['configuration.yaml', 'README.md'] },
      { folder: 'automations/', files: ['porch.yaml'] },
      { folder: 'scripts/', files: ['sunset.sh'] },
    ]);
    expect(x.commits).toEqual(['Add the porch light automation']);
    expect(x.failures).toEqual(['`ha core check` failed: Invalid config for automation: required key not provided']);
    expect(activityDays(digest)[0]).toMatchObject({ commits: ['Add the porch light automation'], files: 4 });
  });
});

describe('the shared readings of a call (core/api)', () => {
  it('an argv reads as the line typed: a shell\'s script as it is, other words quoted where the shell would need it', () => {
    expect(commandText(['bash', '-lc', "git commit -m 'x'"])).toBe("git commit -m 'x'");
    expect(commandText(['/bin/zsh', '-c', 'npm test'])).toBe('npm test');
    expect(commandText(['git', 'commit', '-m', 'Fix the leap year'])).toBe("git commit -m 'Fix the leap year'");
    expect(commandText(['rg', '-n', 'TODO'])).toBe('rg -n TODO');
    expect(commandText([])).toBeNull();
    expect(commandText([1, 2])).toBeNull();
  });

  it("a patch's files: added, updated, deleted and moved to, each once, a CRLF line's too", () => {
    expect(patchedFiles('*** Begin Patch\r\n*** Update File: a.ts\r\n*** Move to: b.ts\r\n*** Add File: c.ts\n*** Delete File: a.ts\n*** End Patch')).toEqual(['a.ts', 'b.ts', 'c.ts']);
  });

  it('Codex: a patch run through `shell` (its argv, or a heredoc in `bash -lc`) changes the files it names', async () => {
    const parts = codexParts([
      call('shell', { command: ['apply_patch', '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-a\n+b\n*** End Patch\n'] }, 'call_Sh1'),
      output('call_Sh1', 0, 'Done!'),
      call('shell', { command: ['bash', '-lc', "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: src/b.ts\n+b\n*** End Patch\nEOF"] }, 'call_Sh2'),
      output('call_Sh2', 0, 'Done!'),
      call('shell', { command: ['bash', '-lc', 'cat src/c.ts'] }, 'call_Sh3'),
      output('call_Sh3', 0, ''),
    ]);
    expect(extract(await digestOf(parts, 'codex')).files).toEqual([{ folder: 'src/', files: ['a.ts', 'b.ts'] }]);
  });

  it("Codex: a patch input cut at capture's cap still names the files before the cut, never a cut name", async () => {
    const body = `+${'x'.repeat(100)}\n`.repeat(30);
    const patch = `*** Begin Patch\n*** Update File: src/first.ts\n${body}*** Update File: src/second.ts\n${body}${body}*** Update File: src/third.ts\n*** End Patch`;
    const parts = codexParts([call('apply_patch', { input: patch }, 'call_Big'), output('call_Big', 0, 'Success.')]);
    expect(JSON.parse(parts[0]!.meta!).truncated).toBeDefined();
    expect(extract(await digestOf(parts, 'codex')).files).toEqual([{ folder: 'src/', files: ['first.ts', 'second.ts'] }]);
  });
});
