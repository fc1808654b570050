import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localDay } from '../../../core/api/index.js';
import { runIn } from '../../support/cli.js';
import { IDS, ORCHARD, SUBAGENT_SESSION, historyHome, historyOwnerPerTest } from '../../support/history.js';
import type { TempHome } from '../../support/home.js';

/**
 * A conversation forgotten on its own, then its project: the project's forget found nothing of it to
 * erase, so it kept no id of it, yet its record keeps the conversation out all the same (capture withholds
 * a conversation by the project of its folder). Unforgetting the conversation alone does not bring it back.
 */

const today = () => localDay(Date.now());

describe('Forget.Lift of a conversation whose project was forgotten after it', () => {
  const owner = historyOwnerPerTest();

  it('names the project record that still keeps it out, which the next backfill honours; unforgetting the project brings it back', async () => {
    const { c } = owner.open('steward-unforget-still-out-');
    await c.call('Backfill.Run', { all: true });
    const orchard = (await c.call('Projects.List', {})).projects.find((p) => p.cwd === ORCHARD)!;
    await c.call('Forget.Session', { sessionId: IDS.pruning });
    await c.call('Forget.Project', { projectKey: orchard.projectKey });

    const record = { kind: 'project', id: orchard.projectKey, label: 'orchard', createdAt: expect.any(Number), via: 'project' };
    expect(await c.call('Forget.Lift', { kind: 'session', id: IDS.pruning })).toEqual({ lifted: true, stillOut: record });
    // Its subagent, erased with it, is kept out by the project too.
    for (const id of [IDS.pruning, SUBAGENT_SESSION]) expect((await c.call('Forget.Of', { sessionId: id })).record).toEqual(record);

    const backfill = await c.call('Backfill.Run', { all: true });
    expect(backfill.providers.find((p) => p.provider === 'claude')!.withheld?.forgotten ?? 0).toBeGreaterThan(0);
    await expect(c.call('Sessions.Get', { sessionId: IDS.pruning })).rejects.toMatchObject({ code: 'not_found' });

    expect(await c.call('Forget.Lift', { kind: 'project', id: orchard.projectKey })).toEqual({ lifted: true, nextCheck: 'all' });
    await c.call('Backfill.Run', { all: true });
    expect((await c.call('Sessions.Get', { sessionId: IDS.pruning })).session.sessionId).toBe(IDS.pruning);
  });

  it('says nothing more of a conversation whose project is not forgotten', async () => {
    const { c } = owner.open('steward-unforget-alone-');
    await c.call('Backfill.Run', { all: true });
    await c.call('Forget.Session', { sessionId: IDS.pruning });
    expect(await c.call('Forget.Lift', { kind: 'session', id: IDS.pruning })).toEqual({ lifted: true, nextCheck: 'all' });
  });
});

describe('steward unforget --session, for a conversation whose project was forgotten after it', () => {
  let home: TempHome;
  let orchardKey: string;
  const cli = (...argv: string[]) => runIn(home.env, ...argv);

  beforeAll(async () => {
    ({ home } = historyHome('steward-cli-unforget-still-out-'));
    expect((await cli('backfill', '--all', '--json')).code).toBe(0);
    const shown = await cli('sessions', 'show', IDS.pruning, '--json');
    orchardKey = (JSON.parse(shown.out) as { session: { projectKey: string } }).session.projectKey;
    expect((await cli('forget', '--session', IDS.pruning)).code).toBe(0);
    expect((await cli('forget', '--project', orchardKey)).code).toBe(0);
  });

  afterAll(() => home?.cleanup());

  it('says it stays out because its project is forgotten, and how to bring that back, not that the next backfill imports it', async () => {
    const said = await cli('unforget', '--session', IDS.pruning);
    expect(said).toEqual({
      code: 0,
      out: `Lifted this conversation's own forget, but it stays out of future imports: you forgot the project orchard (${orchardKey}) this conversation was in on ${today()}; \`steward unforget --project ${orchardKey}\` brings it back.\n`,
      err: '',
    });
    expect(said.out).not.toContain('imports that conversation again');
  });
});
