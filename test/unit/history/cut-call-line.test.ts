import { describe, expect, it } from 'vitest';
import { toolCallLine } from '../../../core/history/messages.js';
import { bound } from '../../../core/transcripts/bounds.js';

/** A call's input as capture stores it: its JSON, kept up to 8 KiB (bounds.ts), cut mid-string past that. */
function stored(input: Record<string, unknown>): string {
  return bound(JSON.stringify(input), 8 * 1024).text!;
}

describe('a tool call whose stored input was cut short still names what it touched', () => {
  it('a Write of a big file names the file', () => {
    const text = stored({ file_path: '/work/app/src/big-module.ts', content: 'export const x = 1;\n'.repeat(2_000) });
    expect(() => JSON.parse(text)).toThrow();
    expect(toolCallLine('Write', text)).toBe('Write: /work/app/src/big-module.ts');
  });

  it('an Edit with a long old_string names the file, and a long Bash command names its start', () => {
    expect(toolCallLine('Edit', stored({ file_path: 'src/a.ts', old_string: 'y'.repeat(20_000), new_string: 'z' }))).toBe('Edit: src/a.ts');
    expect(toolCallLine('Bash', stored({ command: 'echo hi && ' + 'x'.repeat(20_000) }))).toMatch(/^Bash: echo hi && x{100,}…$/);
  });

  it('never takes a key written inside a string of the input for an argument', () => {
    const text = stored({ content: 'config: {"command": "rm -rf /"} '.repeat(600) });
    expect(toolCallLine('Write', text)).toBe('Write');
  });

  it('a cut inside an escape leaves that argument out rather than failing', () => {
    const text = stored({ command: 'x'.repeat(8 * 1024 - 20) + '\u0001'.repeat(10) });
    expect(toolCallLine('Bash', text)).toMatch(/^Bash(: x+…)?$/);
  });

  it('reads a whole input as before', () => {
    expect(toolCallLine('Bash', JSON.stringify({ command: 'npm test', description: 'run' }))).toBe('Bash: npm test');
  });
});
