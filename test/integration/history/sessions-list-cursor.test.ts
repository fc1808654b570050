import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core, StewardError, type Params } from '../../../core/index.js';
import { fingerprint } from '../../../core/history/cursor.js';
import { listingMark } from '../../../core/history/search-mark.js';
import { historyHome, type HistoryFixture } from '../../support/history.js';
import type { TempHome } from '../../support/home.js';

// A Sessions.List cursor is marked as a search cursor is (search-mark.ts): keyed with the home's
// search-cursor-key, so one made without the key, or edited, is refused (invalid_params), and one given
// back with another listing is refused in words that say what differs, as a search's are.

let home: TempHome;
let core: Core;
let fixture: HistoryFixture;

const open = () => Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
const held = (cursor: string) => JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown>;
const made = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const iso = (ms: number) => new Date(ms).toISOString();

beforeAll(async () => {
  ({ home, fixture } = historyHome('steward-sessions-list-cursor-'));
  core = open();
  await core.call('Backfill.Run', { all: true });
}, 60_000);

afterAll(async () => {
  await core?.shutdown();
  home?.cleanup();
});

/** The error Sessions.List gives `params`, or undefined when it answers. */
async function refusal(params: Params<'Sessions.List'>): Promise<StewardError | undefined> {
  return core.call('Sessions.List', params).then(
    () => undefined,
    (e: unknown) => e as StewardError,
  );
}

/** The cursor of the first page of `params`, one conversation a page. */
async function firstCursor(params: Params<'Sessions.List'> = {}): Promise<string> {
  const page = await core.call('Sessions.List', { limit: 1, ...params });
  expect(page.cursor).toBeDefined();
  return page.cursor!;
}

describe('Sessions.List cursors keyed with the home’s secret', () => {
  it('marks the listing under the key search cursors use, never as a plain sha256 anyone could make', async () => {
    const mark = held(await firstCursor({ provider: 'claude' }));
    const key = Buffer.from(readFileSync(join(home.dir, 'search-cursor-key'), 'utf8').trim(), 'hex');
    expect(mark).toMatchObject({ v: 2, f: fingerprint({ provider: 'claude' }, key) });
    expect(mark.f).not.toBe(fingerprint({ provider: 'claude' }));
  });

  it('refuses a cursor made without the key (as the unkeyed fingerprint made them) with invalid_params', async () => {
    const { sessions } = await core.call('Sessions.List', {});
    const first = sessions[0]!;
    const unkeyed = createHash('sha256').update(JSON.stringify([])).digest('base64url').slice(0, 12);
    const forged = made({ f: unkeyed, t: first.lastAt, i: first.sessionId });
    const error = await refusal({ limit: 1, cursor: forged });
    expect(error).toBeInstanceOf(StewardError);
    expect(error).toMatchObject({ code: 'invalid_params', message: 'The cursor belongs to another listing; start again without it' });
  });

  it('refuses an edited mark, and a cursor that is no cursor, with invalid_params', async () => {
    const cursor = await firstCursor();
    const mark = held(cursor);
    const f = mark.f as string;
    const edited = made({ ...mark, f: (f[0] === 'A' ? 'B' : 'A') + f.slice(1) });
    expect(await refusal({ limit: 1, cursor: edited })).toMatchObject({ code: 'invalid_params', message: expect.stringMatching(/^The cursor belongs to another listing/) as unknown });
    expect(await refusal({ limit: 1, cursor: made({ ...mark, v: 3 }) })).toMatchObject({ code: 'invalid_params', message: 'The cursor is not one this request gave out; start again without it' });
    expect(await refusal({ limit: 1, cursor: 'not-a-cursor' })).toMatchObject({ code: 'invalid_params' });
  });

  it('refuses a date no Date holds (an edited fr or to) as a cursor it never gave out, not as an internal error', async () => {
    const mark = held(await firstCursor());
    for (const edited of [{ fr: 9e15 }, { to: 9e15 }, { fr: 8_640_000_000_001 }]) {
      // The same listing, and another (whose refusal would say the dates the cursor holds).
      for (const provider of [undefined, 'claude'] as const) {
        expect(await refusal({ limit: 1, ...(provider ? { provider } : {}), cursor: made({ ...mark, ...edited }) })).toMatchObject({ code: 'invalid_params', message: 'The cursor is not one this request gave out; start again without it' });
      }
    }
  });

  it('a cursor of another home (another key) gets the short words, naming no filter that does not differ', async () => {
    const mark = held(await firstCursor({ provider: 'claude' }));
    const elsewhere = made({ ...mark, ...listingMark({ provider: 'claude' }, randomBytes(32)) });
    expect(await refusal({ limit: 1, provider: 'claude', cursor: elsewhere })).toMatchObject({ code: 'invalid_params', message: 'The cursor belongs to another listing; start again without it' });
    expect(await refusal({ limit: 1, cursor: elsewhere })).toMatchObject({ message: 'The cursor belongs to another listing; start again without it' });
    // A `g` edited to hold no digest, or too few, cannot say which filter differs either.
    for (const g of ['', 'AA']) expect(await refusal({ limit: 1, provider: 'claude', cursor: made({ ...mark, f: 'AAAAAAAAAAAA', g }) })).toMatchObject({ message: 'The cursor belongs to another listing; start again without it' });
  });
});

describe('Sessions.List with a cursor of another listing', () => {
  it('names each filter that differs', async () => {
    const { projects } = await core.call('Projects.List', {});
    const provider = await refusal({ limit: 1, cursor: await firstCursor({ provider: 'claude' }) });
    expect(provider).toMatchObject({ code: 'invalid_params', message: 'The cursor belongs to another listing: the provider filter differs. Give that listing with the cursor, or start again without it' });
    const both = await refusal({ limit: 1, projectKey: projects[0]!.projectKey, cursor: await firstCursor({ provider: 'claude' }) });
    expect(both?.message).toMatch(/: the project and provider filters differ\. /);
  });

  it('says the dates the cursor holds and the ones asked', async () => {
    const from = fixture.times.pruning - 1;
    const cursor = await firstCursor({ from });
    const none = await refusal({ limit: 1, cursor });
    expect(none?.message).toBe(`The cursor belongs to another listing: this cursor pages a listing from ${iso(from)}, and this listing has no from. Give that listing with the cursor, or start again without it`);
    const other = await refusal({ limit: 1, from: from + 1, cursor });
    expect(other?.message).toMatch(new RegExp(`this cursor pages a listing from ${iso(from)}, and this listing asks from ${iso(from + 1)}`));
  });
});

describe('Sessions.List paging', () => {
  it('pages without repeating or skipping, redacted or not, and on after a restart', async () => {
    const all = (await core.call('Sessions.List', { provider: 'claude' })).sessions.map((s) => s.sessionId);
    expect(all.length).toBeGreaterThan(2);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page += 1) {
      // A cursor of a redacted page goes on with a raw one: the rows are the same.
      const got = await core.call('Sessions.List', { limit: 1, provider: 'claude', redact: page % 2 === 0, ...(cursor ? { cursor } : {}) });
      seen.push(...got.sessions.map((s) => s.sessionId));
      cursor = got.cursor;
      if (!cursor) break;
      if (page === 0) {
        await core.shutdown();
        core = open();
      }
    }
    expect(seen).toEqual(all);
  });
});
