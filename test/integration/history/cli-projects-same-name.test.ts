import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIn } from '../../support/cli.js';
import { historyHome, IDS } from '../../support/history.js';
import type { TempHome } from '../../support/home.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

/** Two projects called "payments": two folders of that name in different places. */
const PAYMENTS_A = '/work/a/payments';
const PAYMENTS_B = '/work/b/payments';

let home: TempHome;
let keys: Record<string, string>;

beforeAll(async () => {
  const made = historyHome('steward-cli-same-name-');
  home = made.home;
  const ts = new Date(Date.now() - 86_400_000);
  const a = 'a0a00000-7a4d-4e8b-9c61-2a8f0b9e4c11';
  const b = 'b0b00000-7a4d-4e8b-9c61-2a8f0b9e4c11';
  writeJsonl(join(made.fixture.claudeRoot, 'projects', '-work-a-payments', `${a}.jsonl`), [claudeLine({ sessionId: a, cwd: PAYMENTS_A, ts, text: 'Refunds are slow' })]);
  writeJsonl(join(made.fixture.claudeRoot, 'projects', '-work-b-payments', `${b}.jsonl`), [claudeLine({ sessionId: b, cwd: PAYMENTS_B, ts, text: 'Refunds are slow' })]);
  expect((await cli('backfill', '--all', '--json')).code).toBe(0);
  const projects = JSON.parse((await cli('projects', '--json')).out) as { projects: Array<{ projectKey: string; cwd: string }> };
  keys = Object.fromEntries(projects.projects.map((p) => [p.cwd, p.projectKey]));
});

afterAll(() => home?.cleanup());

const cli = (...argv: string[]) => runIn(home.env, ...argv);

describe('steward projects with two projects of one name', () => {
  it('tells them apart as the panel does, and each line names what --project takes', async () => {
    const { code, out } = await cli('projects');
    expect(code).toBe(0);
    const heads = out.split('\n').filter((line) => line.includes('payments') && !line.startsWith(' '));
    expect(heads).toHaveLength(2);
    expect(heads[0]).not.toBe(heads[1]);
    for (const [cwd, tail] of [[PAYMENTS_A, '…/a/payments'], [PAYMENTS_B, '…/b/payments']] as const) {
      const line = heads.find((l) => l.includes(keys[cwd]!));
      expect(line, cwd).toContain(`payments (${tail})`);
    }
    // The ambiguous name is refused; the key each line shows is taken.
    expect((await cli('search', 'refunds', '--project', 'payments')).code).toBe(2);
    const found = await cli('search', 'refunds', '--project', keys[PAYMENTS_A]!, '--json');
    expect(found.code).toBe(0);
  });

  it('prints a project whose name is its own once, with no folder beside it', async () => {
    const { out } = await cli('projects');
    expect(out).toMatch(/^p_[0-9a-f]{16} {2}kitchen {2}/m);
  });
});

describe('steward unforget', () => {
  it('says conversation, as every other message does, never session', async () => {
    const lifted = await cli('unforget', '--session', IDS.kitchen);
    expect(lifted.code).toBe(0);
    expect(lifted.out).toBe('Nothing was forgotten under that conversation id.\n');
    expect((await cli('forget', '--session', IDS.kitchen)).code).toBe(0);
    expect((await cli('unforget', '--session', IDS.kitchen)).out).toBe("Lifted: Steward's next check imports that conversation again (any message older than the regular checks reach: `steward backfill --all`).\n");
  });
});
