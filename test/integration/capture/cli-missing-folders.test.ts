import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runIn } from '../../support/cli.js';
import { tempHome, type TempHome } from '../../support/home.js';

/**
 * A tester pointed an agent's folder at a path with a typo: `steward sweep` said "no transcript files
 * found", as for an agent with nothing in it. A folder the person set that is no folder is said so, with
 * what set it; an agent's default folders that do not exist (not installed) and an empty setting stay quiet.
 */
let home: TempHome;

beforeEach(() => {
  home = tempHome('steward-missing-folders-');
});
afterEach(() => home.cleanup());

describe('steward sweep and backfill with folders that are not there', () => {
  it('name a folder set by the environment that does not exist, or is a file, and what set it', async () => {
    const file = join(home.dir, 'codex-notes.txt');
    writeFileSync(file, 'not a folder');
    const gemini = join(home.dir, 'gemini');
    mkdirSync(gemini);
    const env = { ...home.env, STEWARD_CODEX_ROOTS: file, STEWARD_OPENCLAW_ROOTS: join(home.dir, 'no-such-folder'), STEWARD_GEMINI_ROOTS: gemini };
    for (const verb of ['sweep', 'backfill']) {
      const { code, out } = await runIn(env, verb);
      expect(code).toBe(0);
      expect(out).toMatch(new RegExp(`^codex: no transcript files found: ${escape(file)} is not a folder \\(set by STEWARD_CODEX_ROOTS\\)`, 'm'));
      // A path that is not there at all is said so: the likelier typo.
      expect(out).toMatch(new RegExp(`^openclaw: no transcript files found: ${escape(join(home.dir, 'no-such-folder'))} does not exist \\(set by STEWARD_OPENCLAW_ROOTS\\)`, 'm'));
      // A folder that is there and empty: nothing to add.
      expect(out).toMatch(/^gemini: no transcript files found \(/m);
      // A setting that names no folder reads nothing on purpose, but says which setting did it.
      expect(out).toMatch(/^claude: no transcript files found: STEWARD_CLAUDE_ROOTS names no folder; STEWARD_CLAUDE_DESKTOP_ROOTS names no folder \(/m);
    }
  });
});

describe('steward sweep with one kind of folder empty and another set to none', () => {
  /** Attack: an empty Claude Code folder beside an empty Desktop setting was said as the setting alone, as if it were the cause. */
  it('says of each kind what is true: the folder holds no transcript files, the setting names no folder', async () => {
    const code = join(home.dir, 'claude-code');
    mkdirSync(code);
    const env = { ...home.env, STEWARD_CLAUDE_ROOTS: code, STEWARD_CLAUDE_DESKTOP_ROOTS: '' };
    const { out } = await runIn(env, 'sweep');
    expect(out).toMatch(new RegExp(`^claude: no transcript files found: ${escape(code)} holds no transcript files \\(set by STEWARD_CLAUDE_ROOTS\\); STEWARD_CLAUDE_DESKTOP_ROOTS names no folder \\(`, 'm'));
  });
});

describe('steward sweep with a folder left out as not a full path', () => {
  it('says the folder was left out and why, not that the setting names none', async () => {
    const env = { ...home.env, STEWARD_GEMINI_ROOTS: './gemrel' };
    const { code, out } = await runIn(env, 'sweep');
    expect(code).toBe(0);
    expect(out).toMatch(/^gemini: no transcript files found: \.\/gemrel was left out because it is not a full path \(set by STEWARD_GEMINI_ROOTS\) \(/m);
    expect(out).not.toMatch(/STEWARD_GEMINI_ROOTS names no folder/);
  });
});

describe('steward sweep with an agent whose default folders are not there', () => {
  it('stays quiet: the agent is just not installed here', async () => {
    const env: NodeJS.ProcessEnv = { ...home.env };
    delete env.STEWARD_CODEX_ROOTS;
    const { code, out } = await runIn(env, 'sweep');
    expect(code).toBe(0);
    expect(out).toMatch(/^codex: no transcript files found \(/m);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
