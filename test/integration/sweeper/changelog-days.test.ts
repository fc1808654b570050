import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Core } from '../../../core/core.js';
import { projectPaths } from '../../../core/sweeper/index.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { appendJsonl, claudeLine, writeJsonl } from '../../support/transcripts.js';

/**
 * One conversation over several days, no edits and no commits, swept by the offline curator over a
 * real Core: each day with activity gets its heading and a bullet saying what that day was about.
 */
let home: TempHome;
let core: Core;
let cwd: string;
let transcript: string;

const noon = (day: string, plus = 0) => new Date(Date.parse(`${day}T12:00:00Z`) + plus);

function turn(day: string, ask: string, answer: string, plus = 0) {
  return [
    claudeLine({ sessionId: 'sess-dots', cwd, ts: noon(day, plus), text: ask }),
    claudeLine({ sessionId: 'sess-dots', cwd, ts: noon(day, plus + 1_000), type: 'assistant', text: answer }),
  ];
}

beforeEach(() => {
  home = tempHome('steward-sweeper-days-');
  const root = join(home.dir, 'roots', 'claude');
  cwd = join(home.dir, 'work', 'dotfiles');
  mkdirSync(cwd, { recursive: true });
  transcript = join(root, 'projects', '-work-dotfiles', 'sess-dots.jsonl');
  writeJsonl(transcript, [
    { type: 'custom-title', customTitle: 'Dotfiles for the new laptop', sessionId: 'sess-dots' },
    ...turn('2026-12-01', 'Set up zsh with the usual aliases', 'zsh is set up with the aliases.'),
    ...turn('2026-12-03', 'Make tmux use vi keys in copy mode', 'tmux now uses vi keys in copy mode.'),
  ]);
  core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: { ...home.env, STEWARD_CLAUDE_ROOTS: root } });
});

afterEach(async () => {
  await core.shutdown();
  home.cleanup();
});

async function captured(): Promise<{ key: string; changelog: () => string; state: string }> {
  await core.call('Backfill.Run', {});
  const { projects } = await core.call('Projects.List', {});
  expect(projects).toHaveLength(1);
  const key = projects[0]!.projectKey;
  const { slug } = await core.call('Projects.Get', { projectKey: key });
  const paths = projectPaths(home.dir, slug);
  return { key, changelog: () => readFileSync(paths.changelog, 'utf8'), state: paths.state };
}

/** The bullets under one day's heading. */
function bullets(changelog: string, day: string): string[] {
  const section = changelog.split(/^## /m).find((s) => s.startsWith(`${day}\n`)) ?? '';
  return section.split('\n').filter((l) => l.startsWith('- '));
}

describe('the offline CHANGELOG of a conversation spanning several days', () => {
  it('gives each day with activity its heading and a bullet naming that day\'s request', async () => {
    const { key, changelog } = await captured();
    const result = await core.call('Sweeper.Run', { projectKey: key });
    expect(result).toMatchObject({ outcome: 'ok', mode: 'offline', changelog: 'appended' });
    const text = changelog();
    expect(text.match(/^## .*$/gm)).toEqual(['## 2026-12-01', '## 2026-12-03']);
    expect(bullets(text, '2026-12-01')).toEqual(['- Worked on: Dotfiles for the new laptop — “Set up zsh with the usual aliases”']);
    expect(bullets(text, '2026-12-03')).toEqual(['- Worked on: Dotfiles for the new laptop — “Make tmux use vi keys in copy mode”']);
  });

  it('a new turn on a later day in the old conversation gets that day\'s entry; a second turn that day another bullet', async () => {
    const { key, changelog } = await captured();
    await core.call('Sweeper.Run', { projectKey: key });
    appendJsonl(transcript, turn('2026-12-05', 'Make tmux use vi keys', 'Done: tmux uses vi keys everywhere now.'));
    await core.call('Backfill.Run', {});
    expect(await core.call('Sweeper.Run', { projectKey: key, force: true })).toMatchObject({ outcome: 'ok', changelog: 'appended' });
    appendJsonl(transcript, turn('2026-12-05', 'Bind prefix r to reload the tmux config', 'prefix r reloads it.', 3_600_000));
    await core.call('Backfill.Run', {});
    expect(await core.call('Sweeper.Run', { projectKey: key, force: true })).toMatchObject({ outcome: 'ok', changelog: 'appended' });
    const text = changelog();
    expect(text.match(/^## .*$/gm)).toEqual(['## 2026-12-01', '## 2026-12-03', '## 2026-12-05']);
    expect(bullets(text, '2026-12-05')).toEqual([
      '- Worked on: Dotfiles for the new laptop — “Make tmux use vi keys”',
      '- Worked on: Dotfiles for the new laptop — “Bind prefix r to reload the tmux config”',
    ]);
  });

  it("a day whose request held a secret quotes no other day's request, not even a later one", async () => {
    // The title and the first days' requests hold credentials, so none of them can stand in a note;
    // only the last day's request can. The earlier days must not borrow it.
    writeJsonl(transcript, [
      { type: 'custom-title', customTitle: 'Deploy with ghp_abcdefghijklmnopqrstuvwxyz0123456789', sessionId: 'sess-dots' },
      ...turn('2026-12-01', 'Use the key ghp_abcdefghijklmnopqrstuvwxyz0123456789 to push', 'Pushed.'),
      ...turn('2026-12-02', 'Use the key ghp_0123456789abcdefghijklmnopqrstuvwxyz to push again', 'Pushed again.'),
      ...turn('2026-12-03', 'Make tmux use vi keys in copy mode', 'tmux now uses vi keys in copy mode.'),
    ]);
    const { key, changelog } = await captured();
    expect(await core.call('Sweeper.Run', { projectKey: key })).toMatchObject({ outcome: 'ok', changelog: 'appended' });
    const text = changelog();
    expect(text.match(/^## .*$/gm)).toEqual(['## 2026-12-01', '## 2026-12-02', '## 2026-12-03']);
    expect(bullets(text, '2026-12-01')).toEqual(['- Worked on the project']);
    expect(bullets(text, '2026-12-02')).toEqual(['- Worked on the project']);
    expect(bullets(text, '2026-12-03')).toEqual(['- Worked on: Make tmux use vi keys in copy mode']);
  });

  it('a day without a usable request names the conversation by its title alone', async () => {
    writeJsonl(transcript, [
      { type: 'custom-title', customTitle: 'Dotfiles for the new laptop', sessionId: 'sess-dots' },
      ...turn('2026-12-01', 'Use the key ghp_abcdefghijklmnopqrstuvwxyz0123456789 to push', 'Pushed.'),
      ...turn('2026-12-03', 'Make tmux use vi keys in copy mode', 'tmux now uses vi keys in copy mode.'),
    ]);
    const { key, changelog } = await captured();
    await core.call('Sweeper.Run', { projectKey: key });
    const text = changelog();
    expect(bullets(text, '2026-12-01')).toEqual(['- Worked on: Dotfiles for the new laptop']);
    expect(bullets(text, '2026-12-03')).toEqual(['- Worked on: Dotfiles for the new laptop — “Make tmux use vi keys in copy mode”']);
  });

  it("with no title, each day quotes only its own request, not the conversation's first one", async () => {
    writeJsonl(transcript, [
      ...turn('2026-12-01', 'Set up zsh with the usual aliases', 'zsh is set up with the aliases.'),
      ...turn('2026-12-03', 'Make tmux use vi keys in copy mode', 'tmux now uses vi keys in copy mode.'),
      claudeLine({ sessionId: 'sess-dots', cwd, ts: noon('2026-12-04'), type: 'assistant', text: 'Still working on the tmux keys.' }),
    ]);
    const { key, changelog } = await captured();
    await core.call('Sweeper.Run', { projectKey: key });
    const text = changelog();
    expect(bullets(text, '2026-12-01')).toEqual(['- Worked on: Set up zsh with the usual aliases']);
    expect(bullets(text, '2026-12-03')).toEqual(['- Worked on: Make tmux use vi keys in copy mode']);
    expect(bullets(text, '2026-12-04')).toEqual(['- Worked on the project']);
  });

  it('a re-run of the same sweep (its record lost after the notes were written) doubles no bullet', async () => {
    const { key, changelog, state } = await captured();
    await core.call('Sweeper.Run', { projectKey: key });
    const once = changelog();
    // As after a crash between writing the notes and recording the sweep: the same activity is swept again.
    rmSync(state);
    expect(existsSync(state)).toBe(false);
    expect(await core.call('Sweeper.Run', { projectKey: key })).toMatchObject({ changelog: 'duplicate' });
    expect(changelog()).toBe(once);
  });
});
