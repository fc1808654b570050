import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../../core/core.js';
import { buildQualityProjects, QUALITY_SECRETS, type QualityProject } from '../../fixtures/sweeper/quality.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { leaks } from '../../unit/secrets/corpus.js';

/**
 * The offline curator's notes, judged as a returning person would judge them, on six real-shaped
 * projects captured through the real gateway.
 */
let home: TempHome;
let core: Core;
let projects: Record<string, QualityProject>;
const notes = new Map<string, { overview: string; changelog: string }>();

/** The lines of one `## Title` section of a note. */
function sectionOf(text: string, title: string): string[] {
  const at = text.indexOf(`\n## ${title}\n`);
  if (at < 0) return [];
  const rest = text.slice(at + title.length + 5);
  const end = rest.search(/\n## /);
  return (end < 0 ? rest : rest.slice(0, end)).split('\n').filter((l) => l.trim() !== '');
}

beforeAll(async () => {
  home = tempHome('steward-quality-');
  const roots = { claude: join(home.dir, 'roots', 'claude'), desktop: join(home.dir, 'roots', 'desktop'), openclaw: join(home.dir, 'roots', 'openclaw'), work: join(home.dir, 'work') };
  for (const dir of Object.values(roots)) mkdirSync(dir, { recursive: true });
  projects = buildQualityProjects(roots);
  core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: { ...home.env, STEWARD_CLAUDE_ROOTS: roots.claude, STEWARD_CLAUDE_DESKTOP_ROOTS: roots.desktop, STEWARD_OPENCLAW_ROOTS: roots.openclaw } });
  await core.call('Backfill.Run', { all: true });
  const { projects: known } = await core.call('Projects.List', {});
  for (const [name, project] of Object.entries(projects)) {
    const found = known.find((p) => p.cwd === project.cwd || p.cwd === project.altCwd);
    if (!found) throw new Error(`capture filed no project for ${name}`);
    await core.call('Sweeper.Run', { projectKey: found.projectKey });
    const got = await core.call('Projects.Get', { projectKey: found.projectKey });
    notes.set(name, { overview: got.overview ?? '', changelog: got.changelog ?? '' });
    if (process.env.SHOW_NOTES) console.info(`==== ${name}\n${got.overview}\n${got.changelog}`);
  }
}, 120_000);

afterAll(async () => {
  await core?.shutdown();
  home?.cleanup();
});

describe.each(['long session with compaction', 'many short sessions', 'openclaw', 'cowork', 'heredoc commits and failures', 'a project with a README'])('offline notes: %s', (name) => {
  const project = () => projects[name]!;
  const note = () => notes.get(name)!;

  it("the focus is the newest session's task statement", () => {
    const focus = sectionOf(note().overview, 'Current state and focus');
    expect(focus[0]).toContain(`Task: ${project().focus}`);
  });

  it('no injected, meta or noise text, and no secret', () => {
    const text = `${note().overview}\n${note().changelog}`;
    for (const bad of project().forbidden) expect(text, bad).not.toContain(bad);
    for (const secret of QUALITY_SECRETS) expect(leaks(text, secret), secret).toBe(false);
    expect(text).not.toMatch(/\(no recent request recorded\)/);
  });

  it('commit subjects appear whole, in the overview and the changelog', () => {
    const commits = sectionOf(note().overview, 'Recent commits');
    for (const subject of project().commits) {
      expect(commits).toContain(`- ${subject}`);
      expect(note().changelog).toContain(subject);
    }
  });

  it('changed files are grouped by folder and in natural order', () => {
    const files = sectionOf(note().overview, 'Files changed').join('\n');
    const positions = project().filesInOrder.map((f) => files.indexOf(f));
    expect(positions.every((p) => p >= 0), files).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('changelog headings are the dates of the activity, never the day of the sweep', () => {
    const headings = [...note().changelog.matchAll(/^## (\d{4}-\d{2}-\d{2})$/gm)].map((m) => m[1]);
    expect(headings).toEqual(project().activityDates);
  });

  it('says what the project is when its folder has a README', () => {
    const about = sectionOf(note().overview, 'What this project is').join('\n');
    if (project().about === null) expect(about).toBe('');
    else {
      expect(about).toContain(project().about!);
      expect(about).toContain('Tide tables and low-water warnings for small harbours');
      expect(about).toContain('github.com/ana/tidepool');
    }
  });

  it('reports failures still open, and not those fixed later', () => {
    const failures = sectionOf(note().overview, 'Unresolved failures').join('\n');
    if (project().openFailure) expect(failures).toContain(project().openFailure!);
    if (project().fixedFailure) expect(failures).not.toContain(`\`${project().fixedFailure}\``);
    if (!project().openFailure) expect(failures).toBe('');
  });
});
