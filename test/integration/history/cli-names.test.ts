import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { besidesNobodyImports, runIn } from '../../support/cli.js';
import { historyHome, IDS, KITCHEN, ORCHARD } from '../../support/history.js';
import type { TempHome } from '../../support/home.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

/** Two projects called "billing" (same folder name, different places) and one whose assistant ran `rm -rf node_modules`. */
const BILLING_A = '/work/a/billing';
const BILLING_B = '/work/b/billing';
const CLEANUP = 'c1ea0000-7a4d-4e8b-9c61-2a8f0b9e4c11';

let home: TempHome;
let keys: Record<string, string>;

function writeMore(claudeRoot: string): void {
  const ts = new Date(Date.now() - 3 * 86_400_000);
  const cleanup = [
    claudeLine({ sessionId: CLEANUP, cwd: BILLING_A, ts, text: 'The build is broken, start clean' }),
    claudeLine({
      sessionId: CLEANUP,
      cwd: BILLING_A,
      ts,
      type: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_09Clean', name: 'Bash', input: { command: 'rm -rf node_modules && npm ci', description: 'Reinstall' } }],
    }),
  ];
  writeJsonl(join(claudeRoot, 'projects', '-work-a-billing', `${CLEANUP}.jsonl`), cleanup);
  const other = 'b1110000-7a4d-4e8b-9c61-2a8f0b9e4c11';
  writeJsonl(join(claudeRoot, 'projects', '-work-b-billing', `${other}.jsonl`), [claudeLine({ sessionId: other, cwd: BILLING_B, ts, text: 'Invoices are late' })]);
}

beforeAll(async () => {
  const made = historyHome('steward-cli-names-');
  home = made.home;
  writeMore(made.fixture.claudeRoot);
  expect((await cli('backfill', '--all', '--json')).code).toBe(0);
  const projects = JSON.parse((await cli('projects', '--json')).out) as { projects: Array<{ projectKey: string; cwd: string }> };
  keys = Object.fromEntries(projects.projects.map((p) => [p.cwd, p.projectKey]));
});

afterAll(() => home?.cleanup());

const cli = (...argv: string[]) => runIn(home.env, ...argv);
const sessionsIn = (out: string) => [...new Set((JSON.parse(out) as { hits: Array<{ sessionId: string }> }).hits.map((h) => h.sessionId))];

describe('steward search takes a command\'s flags as words of the query', () => {
  it('finds `rm -rf node_modules` typed as it is, with options before, after or between the words', async () => {
    for (const argv of [
      ['search', 'rm', '-rf', 'node_modules', '--json'],
      ['search', '--json', 'rm', '-rf', 'node_modules'],
      ['search', 'rm', '-rf', '--json', 'node_modules', '--kind', 'tool_use'],
      ['search', '--json', '--', 'rm', '-rf', 'node_modules'],
      ['search', 'rm', '-rf', '--json', '--', 'node_modules'],
    ]) {
      const { code, out, err } = await cli(...argv);
      expect({ argv, err: besidesNobodyImports(err), code }).toEqual({ argv, err: '', code: 0 });
      expect(sessionsIn(out)).toEqual([CLEANUP]);
    }
  });

  it('refuses a mistyped option of its own, saying what was meant and how to search for it', async () => {
    const { code, out, err } = await cli('search', 'invoices', '--projct', 'billing');
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toBe("steward: unknown option '--projct' (did you mean --project?); to search for it, put it after --: steward search -- --projct\n");
    const json = await cli('search', 'rm', '-rf', '--jsn');
    expect(json.code).toBe(2);
    // Words after `--` are the person's text, whatever they look like.
    const literal = await cli('search', '--json', '--', 'rm', '--projct');
    expect(besidesNobodyImports(literal.err)).toBe('');
    expect(literal.code).toBe(0);
  });
});

describe('--project takes a project as `steward projects` names it', () => {
  it('search, sessions list and forget take a name (in any case) or a slug, and keys still', async () => {
    const kitchen = keys[KITCHEN]!;
    for (const name of ['kitchen', 'Kitchen', kitchen, `kitchen-${kitchen.slice(2, 10)}`]) {
      const search = await cli('search', 'apple', '--project', name, '--json');
      expect({ name, err: besidesNobodyImports(search.err) }).toEqual({ name, err: '' });
      expect(sessionsIn(search.out)).toEqual([IDS.kitchen]);
      const list = await cli('sessions', 'list', '--project', name, '--json');
      expect((JSON.parse(list.out) as { sessions: Array<{ sessionId: string }> }).sessions.map((s) => s.sessionId)).toEqual([IDS.kitchen]);
    }
    const listed = await cli('search', '--project', 'orchard', '--json');
    expect(listed.code).toBe(0);
    expect((JSON.parse(listed.out) as { hits: Array<{ projectKey: string }> }).hits.every((h) => h.projectKey === keys[ORCHARD])).toBe(true);
  });

  it('an unknown name is not_found (exit 1, as an unknown key or id) and an ambiguous one a usage error, the same for every verb', async () => {
    const ambiguous = [keys[BILLING_A], keys[BILLING_B]].sort();
    for (const argv of [
      ['search', 'invoices', '--project'],
      ['sessions', 'list', '--project'],
      ['forget', '--project'],
    ]) {
      const unknown = await cli(...argv, 'billing-service');
      expect(unknown.code).toBe(1);
      expect(unknown.err).toBe('steward: --project: no project is called "billing-service"; `steward projects` lists each project\'s name and key\n');
      const two = await cli(...argv, 'billing');
      expect(two.code).toBe(2);
      expect(two.err).toMatch(/^steward: --project: 2 projects are called "billing" \((p_[0-9a-f]{16}), (p_[0-9a-f]{16})\); give one of those keys/);
      expect(/\((p_\w+), (p_\w+)\)/.exec(two.err)!.slice(1).sort()).toEqual(ambiguous);
    }
  });

  it('forget and unforget a project by its name', async () => {
    const forgot = await cli('forget', '--project', 'openclaw-workspace');
    expect(forgot.err).toBe('');
    // Named as `steward projects` names it, its key beside it for `unforget`.
    expect(forgot.out).toMatch(/^Forgot project openclaw-workspace \(p_[0-9a-f]{16}\): deleted its 1 conversation from Steward\. /);
    const lifted = await cli('unforget', '--project', 'openclaw-workspace');
    expect(lifted.err).toBe('');
    expect(lifted.out).toMatch(/^Lifted/);
  });
});

describe('steward sessions show and export name a conversation by its whole id', () => {
  it('a part of an id is told where to copy the whole one from', async () => {
    for (const verb of ['show', 'export']) {
      const { code, err } = await cli('sessions', verb, IDS.kitchen.slice(0, 8));
      expect(code).toBe(1);
      expect(err).toBe(
        'steward: No stored conversation has that id (it may have been pruned or forgotten); give the whole id (a part of one is not enough), as `steward sessions list` or `steward search` prints it\n',
      );
    }
    expect((await cli('sessions', 'show', IDS.kitchen)).code).toBe(0);
    // Forgetting an id nothing is stored under is refused, unless --not-stored says it is meant (it
    // keeps it out); it still says the id must be whole.
    const refused = await cli('forget', '--session', IDS.kitchen.slice(0, 8));
    expect({ code: refused.code, out: refused.out }).toEqual({ code: 1, out: '' });
    const forgot = await cli('forget', '--session', IDS.kitchen.slice(0, 8), '--not-stored');
    expect(forgot.out).toContain('nothing was stored under that id (a conversation is named by its whole id, as `steward sessions list` prints it)');
    expect((await cli('unforget', '--session', IDS.kitchen.slice(0, 8))).out).toMatch(/^Lifted/);
  });
});
