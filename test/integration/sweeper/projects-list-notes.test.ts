import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Core } from '../../../core/core.js';
import { coreHome } from '../../support/core.js';
import { runIn } from '../../support/cli.js';

/**
 * Projects.List carries where each project's notes stand, judged in the owner by the sweeper's gate,
 * so `steward projects` asks once instead of once per project (Settings.Get, then Projects.Get each).
 */

const temp = coreHome('steward-list-notes-');
const ACTIVE = 1_700_000_000_000;
const FOLDERS = ['swept', 'behind', 'fresh', 'quiet', 'withheld', 'broken', 'stopped', 'throwaway', 'hidden'];

afterEach(() => vi.restoreAllMocks());

/** A sweep-state.json as the sweeper writes it (its other fields default). */
function writeState(notesPath: string, state: Record<string, unknown>): void {
  mkdirSync(notesPath, { recursive: true });
  writeFileSync(join(notesPath, 'sweep-state.json'), JSON.stringify({ version: 1, ...state }));
}

/** One project per folder, each with one conversation last active at ACTIVE (`quiet`: none, so no activity). */
function projects(c: Core): Record<string, string> {
  const session = c.gateway.prepare("INSERT INTO sessions (session_id, provider, source, project_key, cwd, first_ts, last_ts, updated_at) VALUES (?, 'claude', 'code', ?, ?, ?, ?, 1)");
  return Object.fromEntries(
    FOLDERS.map((f) => {
      const key = c.projects.touch(`/work/${f}`);
      if (f !== 'quiet') session.run(`s-${f}`, key, `/work/${f}`, ACTIVE - 60_000, ACTIVE);
      return [f, key];
    }),
  );
}

/** Each project left in the state its name says. */
async function seed(c: Core): Promise<Record<string, string>> {
  const keys = projects(c);
  const dir = async (f: string) => (await c.call('Projects.Get', { projectKey: keys[f]! })).notesPath;
  writeState(await dir('swept'), { watermark: ACTIVE, lastOutcome: 'ok' });
  writeState(await dir('behind'), { watermark: ACTIVE - 1, lastOutcome: 'ok' });
  writeState(await dir('withheld'), { watermark: ACTIVE, notesStaleSince: ACTIVE + 1 });
  writeState(await dir('broken'), { watermark: null, lastOutcome: 'failed', lastError: { code: 'http', message: 'HTTP 404 at models.example.test' }, consecutiveFailures: 1, nextAttemptAt: Date.now() + 3_600_000 });
  writeState(await dir('stopped'), { watermark: null, lastOutcome: 'paused', lastError: { code: 'auth', message: 'refused at models.example.test' } });
  writeState(await dir('throwaway'), { scratch: true });
  return keys;
}

describe('Projects.List: where each project\'s notes stand', () => {
  it('carries every state the sweeper\'s gate gives, in the words `steward projects` says, naming no host', async () => {
    writeFileSync(join(temp.home.dir, 'config.json'), JSON.stringify({ sweeper: { ignore: ['/work/hidden'] } }));
    const c = temp.open();
    await seed(c);
    const { projects } = await c.call('Projects.List', { redact: true });
    const byName = Object.fromEntries(projects.map((p) => [p.name, p.notes]));
    expect(byName.swept).toEqual({ state: 'current', words: 'Nothing new since the last sweep: the notes are current.' });
    expect(byName.behind).toEqual({ state: 'waiting', words: 'Activity since the last sweep is not in the notes yet; `steward sweeper run` curates it now.' });
    // Never swept: the label ("No notes yet") and the sentence say the same, as for a project with nothing to curate.
    expect(byName.fresh).toEqual({ state: 'none', words: 'No notes yet; `steward sweeper run` writes them now.' });
    expect(byName.quiet).toEqual({ state: 'none', words: 'No notes yet: nothing to curate.' });
    expect(byName.withheld).toEqual({ state: 'waiting', words: 'Withheld since a conversation was forgotten; the next sweep rebuilds them.' });
    expect(byName.broken!.state).toBe('failed');
    expect(byName.broken!.words).toMatch(/^The last sweep failed: the model answered with an error\. Waiting after recent failures before trying again at \d{4}-\d{2}-\d{2} \d{2}:\d{2} .+\.$/);
    expect(byName.stopped).toEqual({ state: 'paused', words: 'Curation is paused (Settings says why); the notes are rebuilt once it resumes. The last sweep stopped: the model provider refused the credentials.' });
    expect(byName.throwaway).toEqual({ state: 'scratch', words: 'This is a scratch project; it is never swept.' });
    expect(byName.hidden).toEqual({ state: 'ignored', words: 'This folder is on the list of folders whose notes Steward never writes (Settings).' });
    // The unredacted list carries the same.
    expect((await c.call('Projects.List', {})).projects.map((p) => p.notes)).toEqual(projects.map((p) => p.notes));
    expect(JSON.stringify(projects)).not.toContain('models.example.test');
  });

  it('says off for every project while writing notes is turned off', async () => {
    writeFileSync(join(temp.home.dir, 'config.json'), JSON.stringify({ sweeper: { enabled: false } }));
    const c = temp.open();
    await seed(c);
    const { projects } = await c.call('Projects.List', {});
    expect(projects).toHaveLength(FOLDERS.length);
    for (const p of projects) expect(p.notes).toEqual({ state: 'off', words: 'Writing project notes is turned off in config.json.' });
  });
});

describe('steward projects', () => {
  it('asks once (Projects.List), never per project, and prints what the list carries', async () => {
    const c = temp.open();
    const keys = await seed(c);
    const listed = (await c.call('Projects.List', { redact: true })).projects;
    await temp.close();

    const call = vi.spyOn(Core.prototype, 'call');
    const text = await runIn(temp.home.env, 'projects');
    const json = await runIn(temp.home.env, 'projects', '--json');
    expect(call.mock.calls.map(([method]) => method)).toEqual(['Projects.List', 'Projects.List']);
    expect(text.code).toBe(0);
    for (const p of listed) expect(text.out).toContain(`${p.projectKey}  ${p.name}  `);
    expect(text.out).toContain(`${keys.throwaway}  throwaway  `);
    expect(text.out).toContain('    notes: scratch — This is a scratch project; it is never swept.\n');
    expect(text.out).toContain('    notes: none — No notes yet: nothing to curate.\n');
    expect(text.out).toContain('    notes: none — No notes yet; `steward sweeper run` writes them now.\n');
    expect(text.out.match(/\n {4}notes: /g)).toHaveLength(FOLDERS.length);
    expect(JSON.parse(json.out)).toEqual({ projects: listed });
  });
});
