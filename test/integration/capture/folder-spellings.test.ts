import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../core/config/index.js';
import { Capture } from '../../../core/capture/index.js';
import { Tombstones } from '../../../core/gateway/index.js';
import { createMemoryLogger } from '../../../core/log/index.js';
import { expectIndexExact } from '../../support/search-index.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';
import { byProvider, captureHarness, inLastHour, type CaptureHarness } from './harness.js';

/**
 * One folder, two spellings: Windows names are case-insensitive, and Claude Desktop on Windows records
 * a WSL folder by its share (`\\wsl$\<distro>\…`) where an agent inside WSL records `/…`. Each is one
 * project, the one its first spelling made (keys stay the documented sha256 of the normalized cwd).
 */
const FIRST = 'C:\\Users\\Ana\\x';
const LATER = 'c:\\users\\ana\\x';
const WSL = '/home/ana/x';
const SHARE = '\\\\wsl$\\Ubuntu\\home\\ana\\x';
const documentedKey = (normalized: string) => `p_${createHash('sha256').update(normalized).digest('hex').slice(0, 16)}`;

let h: CaptureHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A Claude session of one line in `cwd`, each minute later than the last. */
let minute = 0;
function session(c: CaptureHarness, id: string, cwd: string): void {
  writeJsonl(join(c.claudeRoot, 'projects', `p-${id}`, `${id}.jsonl`), [claudeLine({ sessionId: id, text: `work on x (${id})`, cwd, ts: inLastHour(++minute) })]);
}

const projectOf = (c: CaptureHarness, id: string) => c.db.prepare('SELECT project_key FROM sessions WHERE session_id = ?').pluck().get(id) as string | undefined;
const listed = (c: CaptureHarness) =>
  c.projects
    .list()
    .map((p) => [p.projectKey, p.cwd, p.sessions])
    .sort();

/** Capture as an earlier version assigned projects: each spelling its own (no folders known to compare). */
async function tickWithoutAliases(c: CaptureHarness): Promise<void> {
  const { projects } = c;
  const env = { ...c.home.env, STEWARD_CLAUDE_ROOTS: c.claudeRoot, STEWARD_CLAUDE_DESKTOP_ROOTS: c.desktopRoot, STEWARD_OPENCLAW_ROOTS: c.openclawRoot, STEWARD_CODEX_ROOTS: c.codexRoot, STEWARD_GEMINI_ROOTS: c.geminiRoot };
  const earlier = new Capture({
    db: c.db,
    config: parseConfig({}),
    env,
    logger: createMemoryLogger(),
    projects: { touch: (cwd, now) => projects.touch(cwd, now), keyOf: (cwd) => projects.keyOf(cwd), vacated: (key) => projects.vacated(key) },
    record: () => undefined,
  });
  await earlier.tick();
  await earlier.stop();
}

/** A store an earlier version left with two projects for FIRST and LATER: A in the first, B in the later. */
async function twoProjects(): Promise<CaptureHarness> {
  const c = captureHarness();
  await c.driver.stop();
  session(c, 'A', FIRST);
  await tickWithoutAliases(c);
  session(c, 'B', LATER);
  await tickWithoutAliases(c);
  expect(listed(c)).toEqual([
    [documentedKey('c:\\Users\\Ana\\x'), FIRST, 1],
    [documentedKey('c:\\users\\ana\\x'), 'c:\\users\\ana\\x', 1],
  ].sort());
  return c;
}

describe('one project for the spellings of one folder', () => {
  it('a Windows folder in another case joins the project its first spelling made, keyed as documented', async () => {
    h = captureHarness();
    session(h, 'A', FIRST);
    await h.driver.tick();
    session(h, 'B', LATER);
    await h.driver.tick();
    const key = documentedKey('c:\\Users\\Ana\\x');
    expect(listed(h)).toEqual([[key, FIRST, 2]]);
    expect([projectOf(h, 'A'), projectOf(h, 'B')]).toEqual([key, key]);
    // The session keeps the folder it was recorded in.
    expect(h.db.prepare("SELECT cwd FROM sessions WHERE session_id = 'B'").pluck().get()).toBe(LATER);
    expectIndexExact(h.db);
  });

  it("a WSL folder recorded through Windows' share joins the project an agent inside WSL made, and the other way round", async () => {
    h = captureHarness();
    session(h, 'A', WSL);
    await h.driver.tick();
    session(h, 'B', SHARE);
    session(h, 'C', '\\\\wsl.localhost\\Ubuntu\\home\\ana\\y');
    await h.driver.tick();
    session(h, 'D', '/home/ana/y');
    await h.driver.tick();
    expect(listed(h)).toEqual([
      [documentedKey(WSL), WSL, 2],
      [documentedKey('\\\\wsl.localhost\\Ubuntu\\home\\ana\\y'), '\\\\wsl.localhost\\Ubuntu\\home\\ana\\y', 2],
    ].sort());
  });

  it('a store holding a project per spelling merges into the earliest on the next sweep; the later row goes', async () => {
    h = await twoProjects();
    await h.restart();
    const stats = byProvider(await h.driver.tick(), 'claude');
    // Moved, not read again.
    expect(stats).toMatchObject({ read: 0, partsWritten: 0 });
    const key = documentedKey('c:\\Users\\Ana\\x');
    expect(listed(h)).toEqual([[key, FIRST, 2]]);
    expect([projectOf(h, 'A'), projectOf(h, 'B')]).toEqual([key, key]);
    expectIndexExact(h.db);
    // New sessions of either spelling join it.
    session(h, 'C', LATER);
    await h.driver.tick();
    expect(listed(h)).toEqual([[key, FIRST, 3]]);
  });

  it("a forgotten later spelling's project keeps its folder's new sessions out", async () => {
    h = await twoProjects();
    const later = documentedKey('c:\\users\\ana\\x');
    // What forget --project does to capture: the key kept out, its rows and its row gone.
    new Tombstones(h.db).add('project', later, 'x');
    h.db.prepare("DELETE FROM parts WHERE session_id = 'B'").run();
    h.db.prepare("DELETE FROM sessions WHERE session_id = 'B'").run();
    h.projects.remove(later);
    await h.restart();
    session(h, 'C', LATER);
    session(h, 'D', FIRST);
    await h.driver.tick();
    expect(h.db.prepare('SELECT session_id FROM sessions ORDER BY session_id').pluck().all()).toEqual(['A', 'D']);
  });

  it('a forgotten project still holding rows neither takes nor gives sessions, until the forget is lifted', async () => {
    h = await twoProjects();
    const first = documentedKey('c:\\Users\\Ana\\x');
    const later = documentedKey('c:\\users\\ana\\x');
    const tombstones = new Tombstones(h.db);
    // The earliest project forgotten (its rows not yet erased): the later one's sessions stay where they are.
    tombstones.add('project', first, 'x');
    await h.restart();
    await h.driver.tick();
    expect([projectOf(h, 'A'), projectOf(h, 'B')]).toEqual([first, later]);
    const told = h.logger.lines.filter((line) => line.includes('not moved into a forgotten project'));
    expect(told).toHaveLength(1);
    expect(told[0]).not.toContain('ana');
    await h.driver.tick();
    expect(projectOf(h, 'B')).toBe(later);
    // The later one forgotten instead: its sessions are the forget's to erase, not moved out of it.
    tombstones.remove('project', first);
    tombstones.add('project', later, 'x');
    await h.driver.tick();
    expect(projectOf(h, 'B')).toBe(later);
    // Lifted: the next sweep moves them.
    tombstones.remove('project', later);
    await h.driver.tick();
    expect([projectOf(h, 'A'), projectOf(h, 'B')]).toEqual([first, first]);
    expect(listed(h)).toEqual([[first, FIRST, 2]]);
  });
});
