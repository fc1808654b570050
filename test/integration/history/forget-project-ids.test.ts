import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localDay } from '../../../core/api/index.js';
import { GATEWAY_MIGRATIONS } from '../../../core/gateway/migrations.js';
import { openDatabase } from '../../../core/store/index.js';
import { runIn } from '../../support/cli.js';
import { coreHome } from '../../support/core.js';
import { GEMINI_PARENT, GEMINI_SUBAGENT, historyHome, IDS, SUBAGENT_SESSION, withGeminiSubagent } from '../../support/history.js';
import type { TempHome } from '../../support/home.js';
import { ownerWithMcp, type ToolResult } from '../../support/mcp.js';

/**
 * A conversation erased with its project is said to be forgotten with it: the project's record keeps
 * the ids of the conversations (and their subagents) it erased, ids only, as a conversation's record
 * keeps its subagents' ids; unforgetting the project drops them. A Gemini subagent's id names neither
 * its parent nor its project, so only the kept id says whose it was.
 */
const ORCHARD_IDS = [IDS.pruning, IDS.config, SUBAGENT_SESSION];

let home: TempHome;
let orchardKey: string;
let geminiKey: string;

const cli = (...argv: string[]) => runIn(home.env, ...argv);
const today = () => localDay(Date.now());

/** The key of the project a stored conversation is in (`sessions show --json`). */
async function projectOf(sessionId: string): Promise<string> {
  const shown = await cli('sessions', 'show', sessionId, '--json');
  expect(shown.code).toBe(0);
  return (JSON.parse(shown.out) as { session: { projectKey: string } }).session.projectKey;
}

beforeAll(async () => {
  ({ home } = historyHome('steward-forget-project-ids-'));
  withGeminiSubagent(home);
  expect((await cli('backfill', '--all', '--json')).code).toBe(0);
  orchardKey = await projectOf(IDS.config);
  geminiKey = await projectOf(GEMINI_PARENT);
  expect(await projectOf(IDS.pruning)).toBe(orchardKey);
  expect(geminiKey).not.toBe(orchardKey);
  expect((await cli('forget', '--project', orchardKey)).code).toBe(0);
  expect((await cli('forget', '--project', geminiKey)).code).toBe(0);
});

afterAll(() => home?.cleanup());

describe('steward sessions show, after the project was forgotten', () => {
  it('a conversation of it, or a subagent of one, is said to have gone with the project, and how to bring it back', async () => {
    for (const id of [IDS.config, SUBAGENT_SESSION]) {
      expect(await cli('sessions', 'show', id)).toEqual({
        code: 1,
        out: '',
        err: `steward: You forgot the project "orchard" this conversation was in on ${today()}; \`steward unforget --project ${orchardKey}\` brings it back\n`,
      });
    }
    expect((await cli('sessions', 'show', GEMINI_SUBAGENT)).err).toContain(`this conversation was in on ${today()}; \`steward unforget --project ${geminiKey}\` brings it back`);
  });
});

describe('steward forget --session, after the project was forgotten', () => {
  it('says the project it was in is forgotten already, and changes nothing (not that it is a subagent)', async () => {
    expect(await cli('forget', '--session', IDS.config)).toEqual({
      code: 0,
      out: `You forgot the project orchard (${orchardKey}) this conversation was in on ${today()}: nothing more to do. It stays out of future imports; \`steward unforget --project ${orchardKey}\` lifts that (\`steward forget --session ${IDS.config} --not-stored\` keeps this conversation out even then).\n`,
      err: '',
    });
    const json = JSON.parse((await cli('forget', '--session', IDS.config, '--json')).out) as Record<string, unknown>;
    expect(json).toMatchObject({ alreadyForgotten: { kind: 'project', id: orchardKey } });
    expect(json).not.toHaveProperty('subagentOf');
  });
});

describe('the owner, after the project was forgotten', () => {
  const owner = ownerWithMcp(() => home);
  const of = async (sessionId: string) => (await owner.core().call('Forget.Of', { sessionId })).record;

  it('Forget.Of answers each of its conversations and their subagents with the project’s record', async () => {
    for (const id of ORCHARD_IDS) expect(await of(id)).toMatchObject({ kind: 'project', id: orchardKey, label: 'orchard', via: 'project' });
    for (const id of [GEMINI_PARENT, GEMINI_SUBAGENT]) expect(await of(id)).toMatchObject({ kind: 'project', id: geminiKey, via: 'project' });
    expect(await of(IDS.kitchen)).toBeNull();
  });

  it('the record keeps their ids alone', () => {
    const kept = owner.core().gateway.prepare('SELECT * FROM history_tombstone_kept WHERE kind = ? AND id = ? ORDER BY session_id').all('project', orchardKey);
    expect(kept).toEqual([...ORCHARD_IDS].sort().map((sessionId) => ({ session_id: sessionId, kind: 'project', id: orchardKey })));
  });

  it('get_session says the project it was in was forgotten', async () => {
    const answer = (await owner.client().callTool({ name: 'get_session', arguments: { session_id: IDS.config } })) as ToolResult;
    expect(answer.isError).toBe(true);
    expect(answer.content[0]!.text).toBe(`not_found: the person forgot the project this conversation was in (${orchardKey}) on ${today()}; Steward keeps it out until they bring it back.`);
  });

  it('unforgetting the project drops the ids it kept: no record covers them any more', async () => {
    expect(await owner.core().call('Forget.Lift', { kind: 'project', id: orchardKey })).toEqual({ lifted: true, nextCheck: 'all' });
    for (const id of ORCHARD_IDS) expect(await of(id)).toBeNull();
    expect(owner.core().gateway.prepare('SELECT COUNT(*) FROM history_tombstone_kept WHERE id = ?').pluck().get(orchardKey)).toBe(0);
    // The other project's stay.
    expect(await of(GEMINI_SUBAGENT)).toMatchObject({ kind: 'project', id: geminiKey, via: 'project' });
  });
});

describe('steward forget --session --not-stored, for a conversation its forgotten project keeps out', () => {
  it('gives it a record of its own, so unforgetting the project does not bring it back', async () => {
    const forgot = await cli('forget', '--session', GEMINI_PARENT, '--not-stored', '--json');
    expect(forgot.code).toBe(0);
    expect(JSON.parse(forgot.out)).toMatchObject({ kind: 'session', id: GEMINI_PARENT });
    expect((await cli('unforget', '--project', geminiKey)).code).toBe(0);
    expect((await cli('backfill', '--all', '--json')).code).toBe(0);
    const shown = await cli('sessions', 'show', GEMINI_PARENT);
    expect(shown.code).toBe(1);
    expect(shown.err).toContain(`You forgot this conversation on ${today()}`);
  });
});

describe('a store whose forgets kept subagent ids before projects kept any', () => {
  const temp = coreHome('steward-forget-kept-migrate-');

  it('keeps them: Forget.Of still names the conversation a subagent went with', async () => {
    const db = openDatabase(join(temp.home.dir, 'gateway.db'), { label: 'gateway', migrations: GATEWAY_MIGRATIONS.slice(0, 19) });
    db.prepare("INSERT INTO history_tombstones (kind, id, label, created_at) VALUES ('session', 'parent-1', 'A plan', 1)").run();
    db.prepare("INSERT INTO history_tombstone_subagents (subagent_id, session_id) VALUES ('sub-1', 'parent-1')").run();
    db.close();
    const core = temp.open();
    expect((await core.call('Forget.Of', { sessionId: 'sub-1' })).record).toEqual({ kind: 'session', id: 'parent-1', label: 'A plan', createdAt: 1, via: 'parent' });
    // Forgotten before Steward recorded which files held it: it comes back only if its transcript is still on disk.
    expect(await core.call('Forget.Lift', { kind: 'session', id: 'parent-1' })).toEqual({ lifted: true, ifOnDisk: true });
    expect(core.gateway.prepare('SELECT COUNT(*) FROM history_tombstone_kept').pluck().get()).toBe(0);
  });
});
