import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openGateway, SearchIndex, SearchReader } from '../../../core/gateway/index.js';
import { GATEWAY_MIGRATIONS } from '../../../core/gateway/migrations.js';
import { RETAG_IN_STEP, scopeTokens } from '../../../core/gateway/search-index.js';
import { History } from '../../../core/history/index.js';
import { IndexBackfill } from '../../../core/history/indexer.js';
import { createMemoryLogger } from '../../../core/log/index.js';
import { projectKeyOf } from '../../../core/projects/folder/index.js';
import { openDatabase, type Db } from '../../../core/store/index.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { appendJsonl, claudeLine, desktopSession, writeJsonl } from '../../support/transcripts.js';
import { captureHarness, type CaptureHarness } from '../capture/harness.js';
import { expectIndexExact, indexAsBefore } from '../../support/search-index.js';

const SELECTED = '/Users/ana/Documents/invoices';
const REPO = 'github.com/ana/invoices';

let h: CaptureHarness | undefined;
let history: History | undefined;
let home: TempHome | undefined;
afterEach(async () => {
  await history?.stop();
  await h?.close();
  home?.cleanup();
  history = undefined;
  h = undefined;
  home = undefined;
});

const count = (db: Db, sql: string, ...args: unknown[]) => db.prepare(sql).pluck().get(...args) as number;

function openHistory(c: CaptureHarness): History {
  history = new History({ db: c.db, projects: c.projects, env: c.home.env, logger: createMemoryLogger(), emit: () => undefined, removeNotes: async () => false });
  return history;
}

const projectOf = (c: CaptureHarness, sessionId: string) => c.db.prepare('SELECT project_key FROM sessions WHERE session_id = ?').pluck().get(sessionId) as string | null;

/** The parts a search finds with a project filter, or with a repository filter. */
async function found(hist: History, query: string, filter: { projectKey: string } | { repo: string }): Promise<string[]> {
  const result = await hist.search.query({ query, limit: 100, ...filter } as Parameters<History['search']['query']>[0]);
  return result.hits.map((hit) => hit.partId).sort();
}

describe('a project or repository filter after a live session moves project', () => {
  it('Cowork: the folder the person selected arrives on a later tick; its project and repository find the parts indexed before, the project it left none', async () => {
    h = captureHarness();
    const c = h;
    const file = desktopSession(c.desktopRoot, 'cw-1', 2, 'Sort my invoices');
    await c.driver.tick();
    const left = projectOf(c, 'cw-1')!;
    const hist = openHistory(c);
    expect(await found(hist, 'desktop', { projectKey: left })).toHaveLength(2);

    const sidecar = join(c.desktopRoot, 'local-agent-mode-sessions', 'org-1', 'ws-1', 'local_cw-1.json');
    writeFileSync(sidecar, JSON.stringify({ ...JSON.parse(readFileSync(sidecar, 'utf8')), userSelectedFolders: [SELECTED], lastActivityAt: 3 }));
    appendJsonl(file, [claudeLine({ sessionId: 'cw-1', text: 'desktop 2', cwd: '/sessions/cw-1-vm/outputs' })]);
    await c.driver.tick();
    const now = projectOf(c, 'cw-1')!;
    expect(now).toBe(projectKeyOf(SELECTED));
    c.db.prepare('UPDATE projects SET repo_id = ? WHERE project_key = ?').run(REPO, now);

    expect(await found(hist, 'desktop', { projectKey: now })).toHaveLength(3);
    expect(await found(hist, 'desktop', { repo: 'ana/invoices' })).toHaveLength(3);
    expect(await found(hist, 'desktop', { projectKey: left })).toEqual([]);
    expectIndexExact(c.db);
  });

  it('a session first read without a folder: the parts indexed with no project are found under the project it gains', async () => {
    h = captureHarness();
    const c = h;
    const file = join(c.claudeRoot, 'projects', '-work-late', 'late-1.jsonl');
    writeJsonl(file, [claudeLine({ sessionId: 'late-1', text: 'early quince', extra: { cwd: undefined } })]);
    await c.driver.tick();
    expect(projectOf(c, 'late-1')).toBeNull();

    appendJsonl(file, [claudeLine({ sessionId: 'late-1', text: 'later quince', cwd: '/work/late' })]);
    await c.driver.tick();
    const key = projectOf(c, 'late-1')!;
    expect(key).toBe(projectKeyOf('/work/late'));
    c.db.prepare('UPDATE projects SET repo_id = ? WHERE project_key = ?').run('github.com/ana/late', key);
    const hist = openHistory(c);
    expect(await found(hist, 'quince', { projectKey: key })).toHaveLength(2);
    expect(await found(hist, 'quince', { repo: 'ana/late' })).toHaveLength(2);
    expectIndexExact(c.db);
  });

  it('a session with more indexed parts than a move re-tags in step is re-tagged by the index walk after the tick', async () => {
    h = captureHarness();
    const c = h;
    const file = join(c.claudeRoot, 'projects', '-work-late', 'long-1.jsonl');
    const lines = RETAG_IN_STEP * 2;
    const base = Date.now() - 3_600_000;
    writeJsonl(
      file,
      Array.from({ length: lines }, (_, i) => claudeLine({ sessionId: 'long-1', type: i % 2 === 0 ? 'user' : 'assistant', text: `medlar ${i}`, ts: new Date(base + i * 1000), extra: { cwd: undefined } })),
    );
    await c.driver.tick();
    appendJsonl(file, [claudeLine({ sessionId: 'long-1', text: 'medlar last', cwd: '/work/long', ts: new Date(base + lines * 1000) })]);
    await c.driver.tick();
    const key = projectOf(c, 'long-1')!;
    const index = new SearchIndex(c.db);
    expect(index.retagPending()).toBe(true);

    const hist = openHistory(c);
    hist.startIndexing();
    await hist.whenIndexed();
    expect(index.retagPending()).toBe(false);
    expect(await found(hist, 'medlar', { projectKey: key })).toHaveLength(100);
    expect(count(c.db, 'SELECT COUNT(*) FROM search_fts WHERE search_fts MATCH ?', `medlar AND scope : ${scopeTokens.project(key)}`)).toBe(lines + 1);
    expectIndexExact(c.db);
  });
});

describe('repairing a store whose sessions moved project before moves re-tagged', () => {
  /**
   * A gateway.db as the version before this repair left it: parts indexed with the project their
   * session had then, and session rows moved since (one from another project, one from none) without
   * their parts' tags.
   */
  function storeWrittenTheOldWay(dir: string): { moved: string; filled: string; left: string } {
    const db = openDatabase(join(dir, 'gateway.db'), { label: 'gateway', migrations: GATEWAY_MIGRATIONS.slice(0, 9) });
    const [left, moved, filled, stays] = ['/work/vm', '/work/selected', '/work/filled', '/work/stays'].map(projectKeyOf) as [string, string, string, string];
    const session = db.prepare("INSERT INTO sessions (session_id, provider, source, project_key, cwd, first_ts, last_ts, updated_at) VALUES (?, 'claude', 'code', ?, NULL, 0, 0, 0)");
    const part = db.prepare("INSERT INTO parts (part_id, session_id, provider, role, kind, ts, text, meta) VALUES (?, ?, 'claude', 'user', 'text', ?, ?, NULL)");
    const base = Date.UTC(2026, 0, 1);
    db.transaction(() => {
      session.run('moved', left);
      session.run('filled', null);
      session.run('stays', stays);
      for (let i = 0; i < 300; i += 1) part.run(`cc:p-${i}:0`, ['moved', 'filled', 'stays'][i % 3], base + i * 1000, `loquat ${i}`);
    })();
    indexAsBefore(db);
    db.prepare("UPDATE sessions SET project_key = ? WHERE session_id = 'moved'").run(moved);
    db.prepare("UPDATE sessions SET project_key = ? WHERE session_id = 'filled'").run(filled);
    db.close();
    return { moved, filled, left };
  }

  it('the migration only marks the work; the index walk re-tags the stale parts in resumable pieces, and filters find them where their sessions are', async () => {
    home = tempHome('steward-search-move-');
    const keys = storeWrittenTheOldWay(home.dir);
    const db = openGateway(home.dir);
    const reader = new SearchReader(db);
    const inProject = async (key: string) => (await reader.newest({ expression: 'loquat', projectKeys: [key] }, null, 500)).matches.length;
    try {
      // Opening re-tagged nothing: that is the walk's work.
      expect(await inProject(keys.moved)).toBe(0);
      expect(await inProject(keys.left)).toBe(100);
      const index = new SearchIndex(db);
      expect(index.retagPending()).toBe(true);
      expect(index.retagStep(10)).toBe(true);
      // A piece re-tags at most as many parts as it is given (the two moved sessions' parts alternate).
      expect((await inProject(keys.moved)) + (await inProject(keys.filled))).toBe(10);

      const walk = new IndexBackfill({ index, logger: createMemoryLogger(), onProgress: () => undefined });
      walk.start();
      await walk.whenIdle();
      expect(index.retagPending()).toBe(false);
      expect(await inProject(keys.moved)).toBe(100);
      expect(await inProject(keys.filled)).toBe(100);
      expect(await inProject(keys.left)).toBe(0);
      expectIndexExact(db);
    } finally {
      await reader.close();
      db.close();
    }
  });
});
