import { describe, expect, it } from 'vitest';
import { partView } from '../../../core/history/messages.js';
import type { OrderedPart } from '../../../core/gateway/index.js';

const call = (toolName: string, input: unknown): OrderedPart => ({
  rowid: 1,
  partId: 'cc:u1:0',
  role: 'assistant',
  kind: 'tool_use',
  ts: 1,
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
});
