import { afterEach, describe, expect, it } from 'vitest';
import { Core, StewardError, type StewardClient } from '../../../core/index.js';
import { mustBeStoredProject } from '../../../core/cli/names.js';
import { historyHome } from '../../support/history.js';
import { tempHome, type TempHome } from '../../support/home.js';

// A key asked of a store that holds no projects at all is no typo: nothing was imported yet, so the
// refusal says how projects come in (a backfill). Once any is stored, it points at the list instead.

const UNKNOWN = 'p_0000000000000000';
const BACKFILL = '`steward backfill`';

let home: TempHome | undefined;
let core: Core | undefined;
afterEach(async () => {
  await core?.shutdown();
  core = undefined;
  home?.cleanup();
  home = undefined;
});

const open = (h: TempHome) => (core = Core.open({ home: { dir: h.dir, kind: 'env' }, env: h.env }));
const refusal = (c: Core) => c.call('Projects.Get', { projectKey: UNKNOWN }).catch((e: unknown) => e);

/** A client that answers the two calls mustBeStoredProject makes, as an owner with `projects` would. */
function clientWith(projects: Array<{ projectKey: string }>): StewardClient {
  const answers: Record<string, unknown> = { 'Projects.List': { projects }, 'Forget.List': { tombstones: [] } };
  return { call: (method: string) => Promise.resolve(answers[method]) } as unknown as StewardClient;
}

describe('Projects.Get of an unknown key', () => {
  it('on a store with no projects at all, says a backfill brings them in', async () => {
    home = tempHome('steward-projects-get-empty-');
    const missing = await refusal(open(home));
    expect(missing).toBeInstanceOf(StewardError);
    expect(missing).toMatchObject({ code: 'not_found', message: expect.stringMatching(/^No stored project has the key p_0{16}/) });
    expect((missing as StewardError).message).toContain(BACKFILL);
  });

  it('on a store that holds projects, says nothing of a backfill', async () => {
    ({ home } = historyHome('steward-projects-get-held-'));
    const c = open(home);
    await c.call('Backfill.Run', { all: true });
    expect((await c.call('Projects.List', {})).projects.length).toBeGreaterThan(0);
    const missing = await refusal(c);
    expect(missing).toMatchObject({ code: 'not_found' });
    expect((missing as StewardError).message).not.toContain('backfill');
  });
});

describe('the CLI refusing an unknown key (steward sweeper show KEY, --project KEY)', () => {
  it('says a backfill brings projects in only when none is stored', async () => {
    const empty = await mustBeStoredProject(clientWith([]), UNKNOWN, 'sweeper show').catch((e: unknown) => e);
    expect(empty).toMatchObject({ code: 'not_found', message: expect.stringMatching(/^sweeper show: no stored project has the key p_0{16}/) });
    expect((empty as StewardError).message).toContain(BACKFILL);
    const held = await mustBeStoredProject(clientWith([{ projectKey: 'p_1111111111111111' }]), UNKNOWN, 'sweeper show').catch((e: unknown) => e);
    expect((held as StewardError).message).not.toContain('backfill');
  });
});
