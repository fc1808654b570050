import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../../core/index.js';
import { searchMark } from '../../../core/history/search-mark.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { writeSubagentOrchard } from '../../support/mcp.js';

// A search cursor holds nothing a guess of the query can be checked against: its marks are keyed with a
// secret of the home (search-cursor-key, 0600), which the owner and an in-process reader of the same
// home share. A cursor given out before the key gets the short "start again" refusal (attack-mcp-5).

const SESSION = 'c0ffee00-0000-4000-8000-0000000c5a12';
let home: TempHome;
let core: Core;

const open = () => Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
const held = (cursor: string) => JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown>;
const unkeyed = (value: unknown, n: number) => createHash('sha256').update(JSON.stringify(value)).digest('base64url').slice(0, n);

beforeAll(async () => {
  home = tempHome('steward-search-cursor-key-');
  const root = join(home.dir, 'roots', 'claude');
  writeSubagentOrchard(root, SESSION, 6);
  home.env.STEWARD_CLAUDE_ROOTS = root;
  core = open();
  await core.call('Backfill.Run', {});
}, 60_000);

afterAll(async () => {
  await core?.shutdown();
  home?.cleanup();
});

describe('search cursors keyed with the home’s secret', () => {
  it('no digest the cursor holds is the plain sha256 of the query', async () => {
    const page = await core.call('Search.Query', { query: 'orchard', limit: 2 });
    const mark = held(page.cursor!);
    expect(typeof mark.g).toBe('string');
    // The query's digest is the first of `g`, as it was before the key.
    expect((mark.g as string).slice(0, 2)).not.toBe(unkeyed('orchard', 2));
    for (const guess of ['orchard', 'rows', 'frost']) expect(JSON.stringify(mark)).not.toContain(unkeyed(guess, 2) + unkeyed(null, 2));
  });

  it('the key is one file of the home, private, the same across a restart: a cursor pages on after it', async () => {
    const page = await core.call('Search.Query', { query: 'orchard', limit: 2 });
    const file = join(home.dir, 'search-cursor-key');
    expect(readFileSync(file, 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    await core.shutdown();
    core = open();
    await expect(core.call('Search.Query', { query: 'orchard', limit: 2, cursor: page.cursor })).resolves.toBeDefined();
  });

  it('a cursor given out before the key is refused with the short words, naming no part', async () => {
    const page = await core.call('Search.Query', { query: 'orchard', limit: 2, kind: 'text' });
    const { v: _keyed, ...mark } = held(page.cursor!);
    // What the same search's cursor held before: unkeyed digests.
    const older = { ...mark, f: 'AAAAAAAAAAAA', g: 'AAAAAAAAAAAAAAAAAA' };
    const cursor = Buffer.from(JSON.stringify(older)).toString('base64url');
    await expect(core.call('Search.Query', { query: 'orchard', limit: 2, kind: 'text', cursor })).rejects.toThrow(/^The cursor belongs to another search; start again without it$/);
  });

  it('a cursor of another home (another key) gets the short words, naming no part that does not differ', async () => {
    const params = { query: 'orchard', limit: 2, kind: 'text' } as const;
    const page = await core.call('Search.Query', { ...params });
    const elsewhere = Buffer.from(JSON.stringify({ ...held(page.cursor!), ...searchMark(params, 'relevance', randomBytes(32)) })).toString('base64url');
    await expect(core.call('Search.Query', { ...params, cursor: elsewhere })).rejects.toMatchObject({ code: 'invalid_params', message: 'The cursor belongs to another search; start again without it' });
    await expect(core.call('Search.Query', { query: 'rows', limit: 2, cursor: elsewhere })).rejects.toThrow(/^The cursor belongs to another search; start again without it$/);
    // A `g` edited to hold no digest, or too few, cannot say which part differs either.
    for (const g of ['', 'AAAA']) {
      const edited = Buffer.from(JSON.stringify({ ...held(page.cursor!), f: 'AAAAAAAAAAAA', g })).toString('base64url');
      await expect(core.call('Search.Query', { ...params, cursor: edited })).rejects.toThrow(/^The cursor belongs to another search; start again without it$/);
    }
  });
});
