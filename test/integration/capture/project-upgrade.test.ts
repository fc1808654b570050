import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../core/cli/index.js';
import { openGateway } from '../../../core/gateway/index.js';
import { Core } from '../../../core/index.js';
import { projectKeyOf, projectNameOf, projectSlugOf } from '../../../core/projects/folder/index.js';
import type { Db } from '../../../core/store/index.js';
import { captureIo as io } from '../../support/cli.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { claudeSession, desktopSession } from '../../support/transcripts.js';
import { byProvider, captureHarness, type CaptureHarness } from './harness.js';

const SELECTED = '/Users/ana/Documents/invoices';

let h: CaptureHarness | undefined;
let home: TempHome | undefined;
let core: Core | undefined;
afterEach(async () => {
  await core?.shutdown();
  await h?.close();
  home?.cleanup();
  core = undefined;
  h = undefined;
  home = undefined;
});

interface OldProject {
  key: string;
  cwd: string;
  slug: string;
}

/** A folder as the first version keyed it: the path as `resolve` left it (a Windows path seen from WSL stayed a POSIX one). */
function firstVersionProject(cwd: string): OldProject {
  const hex = createHash('sha256').update(cwd).digest('hex');
  return { key: `p_${hex.slice(0, 16)}`, cwd, slug: `${projectNameOf(cwd)}-${hex.slice(0, 8)}` };
}

/** The VM path of a Cowork session: a POSIX path, keyed the same then and now. */
function vmProject(sessionId: string): OldProject {
  const cwd = `/sessions/${sessionId}-vm/outputs`;
  return { key: projectKeyOf(cwd), cwd, slug: projectSlugOf(cwd) };
}

/**
 * What a store written before Capture II holds for a session: its project is its lines' cwd, its row has
 * no project_cwd, and no file has a checkpoint, so the next scheduled tick reads every file again.
 */
function storedByAnOlderVersion(db: Db, sessionId: string, old: OldProject): void {
  const now = Date.now();
  db.prepare('DELETE FROM projects WHERE project_key IN (SELECT project_key FROM sessions WHERE session_id = ?)').run(sessionId);
  db.prepare('INSERT OR IGNORE INTO projects (project_key, cwd, slug, name, repo_id, repo_backed, last_activity_at, updated_at) VALUES (?, ?, ?, ?, NULL, 0, ?, ?)').run(
    old.key,
    old.cwd,
    old.slug,
    projectNameOf(old.cwd),
    now,
    now,
  );
  db.prepare('UPDATE sessions SET project_key = ?, project_cwd = NULL WHERE session_id = ?').run(old.key, sessionId);
  db.exec('DELETE FROM file_checkpoints');
}

const listed = (projects: ReadonlyArray<{ cwd: string; sessions: number }>) => projects.map((p) => [p.cwd, p.sessions]);

describe('a re-read that moves sessions to another project leaves no empty project behind', () => {
  it('Cowork: after the upgrade the VM path project is gone and the list shows only the folder the user selected', async () => {
    h = captureHarness();
    const c = h;
    desktopSession(c.desktopRoot, 'cw-1', 2, 'Sort my invoices', [SELECTED]);
    await c.driver.tick();
    const vm = vmProject('cw-1');
    storedByAnOlderVersion(c.db, 'cw-1', vm);
    expect(listed(c.projects.list())).toEqual([[vm.cwd, 1]]);

    await c.restart();
    expect(byProvider(await c.driver.tick(), 'claude')).toMatchObject({ read: 1 });
    expect(listed(c.projects.list())).toEqual([[SELECTED, 1]]);
    expect(c.count('SELECT COUNT(*) FROM projects WHERE project_key = ?', vm.key)).toBe(0);
    expect(c.projects.count()).toBe(1);
  });

  it('a Windows path whose key changed under the new normalization (WSL /mnt/c) leaves no project under its old key', async () => {
    h = captureHarness();
    const c = h;
    claudeSession(c.claudeRoot, 'wsl-1', 2, { cwd: '/mnt/c/Users/ana/proj' });
    await c.driver.tick();
    const old = firstVersionProject('/mnt/c/Users/ana/proj');
    expect(old.key).not.toBe(projectKeyOf('/mnt/c/Users/ana/proj'));
    storedByAnOlderVersion(c.db, 'wsl-1', old);

    await c.restart();
    await c.driver.tick();
    expect(listed(c.projects.list())).toEqual([['c:\\Users\\ana\\proj', 1]]);
    expect(c.count('SELECT COUNT(*) FROM projects WHERE project_key = ?', old.key)).toBe(0);
  });

  it('a project that still holds a session of its own stays when another of its sessions moves away', async () => {
    h = captureHarness();
    const c = h;
    const vm = vmProject('cw-2');
    desktopSession(c.desktopRoot, 'cw-2', 2, 'Sort my invoices', [SELECTED]);
    claudeSession(c.claudeRoot, 'stays', 2, { cwd: vm.cwd });
    await c.driver.tick();
    storedByAnOlderVersion(c.db, 'cw-2', vm);

    await c.restart();
    await c.driver.tick();
    expect(listed(c.projects.list()).sort()).toEqual([[SELECTED, 1], [vm.cwd, 1]].sort());
  });
});

describe('through the owner: steward projects and Projects.List after the upgrade', () => {
  function withDesktopRoot(): { home: TempHome; desktop: string } {
    home = tempHome('steward-project-upgrade-');
    const desktop = join(home.dir, 'roots', 'desktop');
    mkdirSync(desktop, { recursive: true });
    home.env.STEWARD_CLAUDE_DESKTOP_ROOTS = desktop;
    return { home, desktop };
  }

  function rewriteStore(dir: string, sessionId: string, old: OldProject): void {
    const db = openGateway(dir);
    try {
      storedByAnOlderVersion(db, sessionId, old);
    } finally {
      db.close();
    }
  }

  it('steward projects lists only the folder the user selected', async () => {
    const { home, desktop } = withDesktopRoot();
    desktopSession(desktop, 'cw-cli', 2, 'Sort my invoices', [SELECTED]);
    expect(await runCli(['sweep'], io(home.env))).toBe(0);
    rewriteStore(home.dir, 'cw-cli', vmProject('cw-cli'));

    expect(await runCli(['sweep'], io(home.env))).toBe(0);
    const out = io(home.env);
    expect(await runCli(['projects', '--json'], out)).toBe(0);
    expect(listed((JSON.parse(out.out) as { projects: Array<{ cwd: string; sessions: number }> }).projects)).toEqual([[SELECTED, 1]]);
    const text = io(home.env);
    expect(await runCli(['projects'], text)).toBe(0);
    expect(text.out).not.toContain('outputs');
  });

  it('a project whose sessions moved away but whose folder holds notes is kept, notes and all', async () => {
    const { home, desktop } = withDesktopRoot();
    desktopSession(desktop, 'cw-notes', 2, 'Sort my invoices', [SELECTED]);
    core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
    await core.call('Sweep.Tick', {});
    const vm = vmProject('cw-notes');
    storedByAnOlderVersion(core.gateway, 'cw-notes', vm);
    const notes = join(home.dir, 'projects', vm.slug);
    mkdirSync(notes, { recursive: true });
    writeFileSync(join(notes, 'OVERVIEW.md'), '# outputs\nWhat the sweeper curated.\n');
    await core.shutdown();

    core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
    await core.call('Sweep.Tick', {});
    const { projects } = await core.call('Projects.List', {});
    expect(listed(projects).sort()).toEqual([[SELECTED, 1], [vm.cwd, 0]].sort());
    expect(projects.find((p) => p.cwd === vm.cwd)?.projectKey).toBe(vm.key);
    expect(existsSync(join(notes, 'OVERVIEW.md')) && readFileSync(join(notes, 'OVERVIEW.md'), 'utf8')).toContain('What the sweeper curated.');
  });
});
