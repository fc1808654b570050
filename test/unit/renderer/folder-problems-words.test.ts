import { describe, expect, it } from 'vitest';
import { fieldProblems } from '../../../core/config/problems.js';
import { linesProblemWords, savedWords } from '../../../renderer/src/places/settings/saving.js';

type Update = Parameters<typeof savedWords>[0];

const key = 'providers.claude.roots';
/** What the config schema says of the folders the form sends: the typed lines, blank ones dropped. */
const refusal = (text: string) => fieldProblems({ providers: { claude: { roots: text.split('\n').map((l) => l.trim()).filter((l) => l !== '') } } });

/** A refused folder list, said by the lines the person typed, counted from 1, not by the config's zero-based keys. */
describe('the folders a save refused, said line by line', () => {
  it('names every wrong line by its number and what it holds', () => {
    const text = '~/claude-data\n~user/x\nrelative/path';
    expect(linesProblemWords(key, text, refusal(text))).toBe('Line 2 (~user/x) and line 3 (relative/path) must each be a full path (from /, ~/ or a drive letter).');
  });

  it('counts the lines as typed, blank ones included', () => {
    const text = '/ok\n\n  relative  ';
    expect(linesProblemWords(key, text, refusal(text))).toBe('Line 3 (relative) must be a full path (from /, ~/ or a drive letter).');
  });

  it('says a problem of the whole list as before, and nothing when none', () => {
    expect(linesProblemWords(key, '/a', { [key]: { message: 'holds at most 64', maximum: 64 } })).toBe('This holds at most 64.');
    expect(linesProblemWords(key, '/a', { 'providers.codex.roots.0': { message: 'must be a full path' } })).toBeUndefined();
  });
});

const update = (saved: string[], environment: Array<{ key: string; env: string }>): Update =>
  ({ saved, appliedNow: [], atNextStart: saved, config: { environment } }) as unknown as Update;

/** A save of what an environment variable decides: the variable wins while it is set, not the next start. */
describe('saving a setting the environment decides', () => {
  it('names the variable, and says the saved folders wait until it is unset', () => {
    const said = savedWords(update([key], [{ key, env: 'STEWARD_CLAUDE_ROOTS' }]));
    expect(said).toBe('Saved to config.json. STEWARD_CLAUDE_ROOTS is set in Steward’s environment and decides the Claude Code folders while it is set; what you saved applies once it is unset and Steward starts again.');
    expect(said).not.toContain('next starts');
  });

  it('still says when the rest takes effect', () => {
    const said = savedWords(update(['providers.claude.enabled', key], [{ key, env: 'STEWARD_CLAUDE_ROOTS' }]));
    expect(said).toContain('Saved to config.json. Watching claude takes effect when Steward next starts');
    expect(said).toContain('STEWARD_CLAUDE_ROOTS is set');
    expect(savedWords(update([key], []))).toBe('Saved to config.json. It takes effect when Steward next starts (quit it and start it again).');
  });
});
