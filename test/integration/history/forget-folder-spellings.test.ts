import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openGateway } from '../../../core/gateway/index.js';
import { folderHashOf } from '../../../core/projects/index.js';
import { runIn } from '../../support/cli.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

/**
 * One folder spelled two ways is one project (core/capture/assign.ts's FolderAliases): forgetting that
 * project keeps out both spellings, though its row (what the later spelling was aliased to) goes with
 * the forget. The record keeps a hash of the folder's comparable form, never its path; Unforget lifts
 * it, and both spellings come back into one project.
 */

let home: TempHome | undefined;
afterEach(() => {
  home?.cleanup();
  home = undefined;
});

const cli = (...argv: string[]) => runIn(home!.env, ...argv);

/** A Claude session of one line in `cwd`, `minutes` ago. */
function session(root: string, id: string, cwd: string, minutes: number): void {
  writeJsonl(join(root, 'projects', `p-${id}`, `${id}.jsonl`), [claudeLine({ sessionId: id, text: `work on x (${id})`, cwd, ts: new Date(Date.now() - minutes * 60_000) })]);
}

interface Listed {
  projectKey: string;
  sessions: number;
}
const projects = async () => (JSON.parse((await cli('projects', '--json')).out) as { projects: Listed[] }).projects.map((p) => [p.projectKey, p.sessions]);

function sessionsStored(): string[] {
  const db = openGateway(home!.dir);
  try {
    return db.prepare('SELECT session_id FROM sessions ORDER BY session_id').pluck().all() as string[];
  } finally {
    db.close();
  }
}

function tombstoneRows(): Array<Record<string, unknown>> {
  const db = openGateway(home!.dir);
  try {
    return db.prepare('SELECT * FROM history_tombstones').all() as Array<Record<string, unknown>>;
  } finally {
    db.close();
  }
}

const SPELLINGS: Array<[string, string, string]> = [
  ['a Windows folder in another case', 'C:\\Users\\Ana\\x', 'c:\\users\\ana\\x'],
  ['a WSL folder and its Windows share', '/home/ana/x', '\\\\wsl$\\Ubuntu\\home\\ana\\x'],
];

describe('forgetting the project of a folder spelled two ways', () => {
  it.each(SPELLINGS)('%s: both spellings stay out after a backfill, and come back as one project after Unforget', async (_what, first, later) => {
    home = tempHome('steward-forget-spellings-');
    const root = join(home.dir, 'claude');
    home.env.STEWARD_CLAUDE_ROOTS = root;
    session(root, 'A', first, 30);
    session(root, 'B', later, 20);
    expect((await cli('backfill', '--all')).code).toBe(0);
    const [[key, count]] = (await projects()) as [[string, number]];
    expect(count).toBe(2);

    expect((await cli('forget', '--project', key)).code).toBe(0);
    expect(sessionsStored()).toEqual([]);
    expect((await cli('backfill', '--all')).code).toBe(0);
    expect(sessionsStored()).toEqual([]);
    expect(await projects()).toEqual([]);

    // The record holds the folder's hash, never its path (in any spelling, in any column).
    const rows = tombstoneRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'project', id: key });
    expect(rows[0]!.folder_hash).toMatch(/^[0-9a-f]{64}$/);
    const said = JSON.stringify(rows).toLowerCase();
    for (const part of ['ana', 'users', 'home', 'ubuntu']) expect(said).not.toContain(part);
    // The same for both spellings.
    expect([folderHashOf(first), folderHashOf(later)]).toEqual([rows[0]!.folder_hash, rows[0]!.folder_hash]);

    expect((await cli('unforget', '--project', key)).code).toBe(0);
    expect(tombstoneRows()).toEqual([]);
    expect((await cli('backfill', '--all')).code).toBe(0);
    expect(sessionsStored()).toEqual(['A', 'B']);
    const back = await projects();
    expect(back).toHaveLength(1);
    expect(back[0]![1]).toBe(2);
  });
});
