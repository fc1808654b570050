import { describe, expect, it } from 'vitest';
import { commandLine } from '../../../core/api/index.js';
import { callRest, partView } from '../../../core/history/messages.js';
import type { OrderedPart } from '../../../core/gateway/index.js';

const call = (toolName: string, input: unknown): OrderedPart => ({
  rowid: 1,
  partId: 'cc:u1:0',
  role: 'assistant',
  kind: 'tool_use',
  ts: 1,
  place: 1,
  text: typeof input === 'string' ? input : JSON.stringify(input),
  meta: JSON.stringify({ name: toolName }),
  genuineUserTurn: false,
  isCompactSummary: false,
});

describe('the one line a folded tool call shows', () => {
  it('a search says its pattern, not the folder it searched', () => {
    expect(partView(call('Grep', { pattern: 'parseConfig\\(', path: 'src', output_mode: 'content' }), 'claude').summary).toBe('Grep: parseConfig\\(');
    expect(partView(call('Glob', { pattern: '**/*.test.ts', path: '/work/orchard' }), 'claude').summary).toBe('Glob: **/*.test.ts');
  });

  it('a to-do list says how far it is', () => {
    const todos = [
      { content: 'Read the config', status: 'completed', activeForm: 'Reading the config' },
      { content: 'Fix the loader', status: 'in_progress', activeForm: 'Fixing the loader' },
      { content: 'Run the tests', status: 'pending', activeForm: 'Running the tests' },
    ];
    expect(partView(call('TodoWrite', { todos }), 'claude').summary).toBe('TodoWrite: 3 to-dos, 1 done');
  });

  it('a command given as its argv reads as the line typed; a text patch by the file it touches', () => {
    expect(partView(call('shell', { command: ['bash', '-lc', 'npm test -- --run'], workdir: '/work/orchard' }), 'claude').summary).toBe('shell: npm test -- --run');
    expect(partView(call('shell', { command: ['rg', '-n', 'TODO'] }), 'claude').summary).toBe('shell: rg -n TODO');
    const patch = '*** Begin Patch\n*** Update File: src/config/load_settings.ts\n@@\n-old\n+new\n*** End Patch';
    expect(partView(call('apply_patch', patch), 'claude').summary).toBe('apply_patch: src/config/load_settings.ts');
  });

  it('a command of several lines reads whole, its lines joined as the shell reads them; a description by its first line', () => {
    expect(partView(call('Bash', { command: 'cd app\nrm -rf node_modules && npm ci', description: 'Reinstall' }), 'claude').summary).toBe('Bash: cd app; rm -rf node_modules && npm ci');
    expect(partView(call('Task', { description: 'Survey frost dates\nfor the orchard' }), 'claude').summary).toBe('Task: Survey frost dates');
  });

  it('the other words of a call leave out its argument exactly when its line shows all of it (one cut for both)', () => {
    const line = (input: Record<string, unknown>) => partView(call('Bash', input), 'claude').summary!;
    const rest = (input: Record<string, unknown>) => callRest(JSON.stringify(input));
    for (const length of [139, 140, 141, 200]) {
      const command = { command: `echo ${'x'.repeat(length - 5)}`, description: 'Say it' };
      const whole = line(command) === `Bash: ${command.command}`;
      expect(whole).toBe(length <= 140);
      expect(rest(command).includes('command: ')).toBe(!whole);
      const task = { description: 'y'.repeat(length), prompt: 'Go' };
      const shown = partView(call('Task', task), 'claude').summary === `Task: ${task.description}`;
      expect(shown).toBe(length <= 140);
      expect(callRest(JSON.stringify(task)).includes('description: ')).toBe(!shown);
    }
    // A first line of several is not all of it.
    expect(callRest(JSON.stringify({ description: 'one\ntwo' }))).toBe('description: one\ntwo');
  });
});

describe('a shell command as one line', () => {
  it('joins lines with `; `, after an operator with a space, and goes on after a trailing backslash', () => {
    expect(commandLine('cd app\n\nnpm ci')).toBe('cd app; npm ci');
    expect(commandLine('npm run build &&\n  npm test')).toBe('npm run build && npm test');
    expect(commandLine('docker run \\\n  --rm \\\n  alpine true')).toBe('docker run --rm alpine true');
    expect(commandLine('git log |\nhead -5')).toBe('git log | head -5');
    expect(commandLine('  npm   test  ')).toBe('npm test');
  });

  it('a Codex patch names the file it patches, and how many more, in every form Codex stores it', () => {
    // test/fixtures/transcripts/codex/agentsview/fc_args_2.jsonl: a function_call whose arguments are an object.
    const two = '*** Begin Patch\n*** Update File: internal/parser/codex.go\n*** Update File: internal/parser/parser_test.go\n*** End Patch';
    expect(partView(call('apply_patch', { patch: two }), 'codex').summary).toBe('apply_patch: internal/parser/codex.go and 1 more');
    // The Responses API's arguments string `{"input": "*** Begin Patch…"}`, stored parsed.
    expect(partView(call('apply_patch', { input: two }), 'codex').summary).toBe('apply_patch: internal/parser/codex.go and 1 more');
    // The custom tool's free text (the rollout fixtures), with three files.
    const three = '*** Begin Patch\n*** Add File: a.ts\n+x\n*** Delete File: b.ts\n*** Update File: c.ts\n@@\n-y\n+z\n*** End Patch\n';
    expect(partView(call('apply_patch', three), 'codex').summary).toBe('apply_patch: a.ts and 2 more');
    // Through the shell, as older Codex ran it.
    expect(partView(call('shell', { command: ['apply_patch', two] }), 'codex').summary).toBe('shell: apply_patch internal/parser/codex.go and 1 more');
  });
});
