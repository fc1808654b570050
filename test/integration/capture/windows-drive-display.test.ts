import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { displayFolder, normalizeCwd, projectKeyOf } from '../../../core/projects/index.js';
import { coreHome } from '../../support/core.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';
import { inLastHour } from './harness.js';

/**
 * QA: a Claude session whose cwd is `C:\Users\ana\source\repos\WinForms App` showed in Projects as
 * `c:\Users\ana\…`. The key is the documented sha256 of the normalized cwd (a lower-case drive), the
 * same for `C:\…`, `c:\…` and WSL's `/mnt/c/…`; the folder shown is the one the agent wrote first,
 * its drive letter as written.
 */
const WRITTEN = 'C:\\Users\\ana\\source\\repos\\WinForms App';
const LOWER = 'c:\\Users\\ana\\source\\repos\\WinForms App';
const WSL = '/mnt/c/Users/ana/source/repos/WinForms App';
const documentedKey = `p_${createHash('sha256').update(LOWER).digest('hex').slice(0, 16)}`;

const home = coreHome('steward-drive-');

/** A Core over temp roots (never the real home), with a Claude root the test writes sessions into. */
function open() {
  const roots = Object.fromEntries(['claude', 'desktop', 'openclaw', 'codex', 'gemini'].map((p) => [p, join(home.home.dir, 'roots', p)]));
  for (const dir of Object.values(roots)) mkdirSync(dir!, { recursive: true });
  const env = { STEWARD_CLAUDE_ROOTS: roots.claude, STEWARD_CLAUDE_DESKTOP_ROOTS: roots.desktop, STEWARD_OPENCLAW_ROOTS: roots.openclaw, STEWARD_CODEX_ROOTS: roots.codex, STEWARD_GEMINI_ROOTS: roots.gemini };
  return { core: home.open({ env }), claude: roots.claude! };
}

let minute = 0;
function session(claude: string, id: string, cwd: string): void {
  writeJsonl(join(claude, 'projects', `p-${id}`, `${id}.jsonl`), [claudeLine({ sessionId: id, text: `fix the form (${id})`, cwd, ts: inLastHour(++minute) })]);
}

describe('a Windows folder in Projects', () => {
  it('keys C:\\, c:\\ and /mnt/c/ alike, as documented', () => {
    expect(normalizeCwd(WRITTEN)).toBe(LOWER);
    expect([WRITTEN, LOWER, WSL, `${WRITTEN}\\`].map((cwd) => projectKeyOf(cwd))).toEqual([documentedKey, documentedKey, documentedKey, documentedKey]);
  });

  it('is shown as the agent wrote it: its drive letter as written, nothing else changed from the key form', () => {
    expect(displayFolder(WRITTEN)).toBe(WRITTEN);
    expect(displayFolder(`${WRITTEN}\\`)).toBe(WRITTEN);
    expect(displayFolder('\\\\?\\C:\\Users\\ana\\app')).toBe('C:\\Users\\ana\\app');
    expect(displayFolder(LOWER)).toBe(LOWER);
    expect(displayFolder(WSL)).toBe(LOWER);
    expect(displayFolder('/home/ana/app/')).toBe('/home/ana/app');
  });

  it('a Claude session in C:\\… is listed with C:\\, keyed as documented; c:\\ and /mnt/c/ sessions join it', async () => {
    const { core, claude } = open();
    session(claude, 'a', WRITTEN);
    await core.call('Sweep.Tick', {});
    session(claude, 'b', LOWER);
    session(claude, 'c', WSL);
    await core.call('Sweep.Tick', {});
    const { projects } = await core.call('Projects.List', {});
    expect(projects.map((p) => [p.projectKey, p.cwd, p.name, p.sessions])).toEqual([[documentedKey, WRITTEN, 'WinForms App', 3]]);
    expect(await core.call('Projects.Get', { projectKey: documentedKey })).toMatchObject({ cwd: WRITTEN });
  });

  it('a project an earlier version listed as c:\\… shows C:\\… once the agent writes it so again', async () => {
    const { core, claude } = open();
    session(claude, 'a', LOWER);
    await core.call('Sweep.Tick', {});
    expect((await core.call('Projects.List', {})).projects.map((p) => p.cwd)).toEqual([LOWER]);
    session(claude, 'b', WRITTEN);
    await core.call('Sweep.Tick', {});
    expect((await core.call('Projects.List', {})).projects.map((p) => [p.projectKey, p.cwd])).toEqual([[documentedKey, WRITTEN]]);
  });
});
