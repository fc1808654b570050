import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { localDay } from '../../../core/api/index.js';
import { runIn } from '../../support/cli.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

/** `steward context` for the folder of a project the person forgot: says so, and the way back. */
let home: TempHome;
let cwd: string;

beforeEach(() => {
  home = tempHome('steward-context-forgotten-');
  const root = join(home.dir, 'roots', 'claude');
  cwd = join(home.dir, 'work', 'dotfiles');
  mkdirSync(join(cwd, 'tmux'), { recursive: true });
  writeJsonl(join(root, 'projects', '-work-dotfiles', 'sess-dots.jsonl'), [
    claudeLine({ sessionId: 'sess-dots', cwd, ts: new Date(Date.now() - 3_600_000), text: 'Make tmux use vi keys in copy mode' }),
    claudeLine({ sessionId: 'sess-dots', cwd, ts: new Date(Date.now() - 3_599_000), type: 'assistant', text: 'tmux now uses vi keys.' }),
  ]);
  home.env.STEWARD_CLAUDE_ROOTS = root;
});

afterEach(() => home.cleanup());

const cli = (...argv: string[]) => runIn(home.env, ...argv);

describe('steward context, for a forgotten project', () => {
  it('says the project was forgotten and how to unforget it, for its folder and one inside it', async () => {
    expect((await cli('backfill', '--all', '--json')).code).toBe(0);
    const { projects } = JSON.parse((await cli('projects', '--json')).out) as { projects: Array<{ projectKey: string; name: string }> };
    const key = projects.find((p) => p.name === 'dotfiles')!.projectKey;
    expect((await cli('forget', '--project', key, '--yes')).code).toBe(0);
    for (const folder of [cwd, join(cwd, 'tmux')]) {
      const said = await cli('context', '--cwd', folder);
      expect(said.code).toBe(1);
      expect(said.out).toBe('');
      expect(said.err).toBe(
        `steward: You forgot the project dotfiles (${key}) on ${localDay(Date.now())}, so Steward keeps no notes for it; \`steward unforget --project ${key}\` brings it back\n`,
      );
    }
    // A folder no project, forgotten or not, contains is said as before.
    expect((await cli('context', '--cwd', join(home.dir, 'elsewhere'))).err).toBe('steward: Steward knows no project containing that folder yet\n');
  });
});
