import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core, type Params, type Result } from '../../core/index.js';
import { runIn } from '../support/cli.js';
import { tempHome, type TempHome } from '../support/home.js';
import { claudeLine, writeJsonl } from '../support/transcripts.js';

/**
 * Search tried the way a person who uses Steward every day would: pasted identifiers and error
 * codes beside other words, groups, accents, another script, ranking, sub-second and whole-day date
 * edges. Each test names one bug found this way (Sessions.Get paging around hits, genuine-turn paging
 * and keyset paging held up and are covered elsewhere).
 */

let home: TempHome;
let core: Core;
/** 2026-03-10 12:00:00 UTC, a whole second. */
const BASE = Date.UTC(2026, 2, 10, 12, 0, 0);
/** Enough words before a match that a snippet must be cut around it, not taken from the start. */
const FILLER = 'Some unrelated words about gardening and soil and weather. '.repeat(8);

const S = {
  words: '11111111-0000-4000-8000-000000000001',
  rank: '11111111-0000-4000-8000-000000000002',
  accents: '11111111-0000-4000-8000-000000000003',
  clock: '11111111-0000-4000-8000-000000000004',
  pasted: '11111111-0000-4000-8000-000000000005',
} as const;

interface Line {
  text: string;
  type?: 'user' | 'assistant';
  /** Epoch ms; by default BASE plus a minute per line. */
  ts?: number;
}

function conversation(roots: string, sessionId: string, lines: Line[]): void {
  writeJsonl(
    join(roots, 'projects', '-work-attack', `${sessionId}.jsonl`),
    lines.map((l, i) => claudeLine({ sessionId, cwd: '/work/attack', type: l.type ?? (i % 2 === 0 ? 'user' : 'assistant'), text: l.text, ts: new Date(l.ts ?? BASE + i * 60_000) })),
  );
}

beforeAll(async () => {
  home = tempHome('steward-attack-');
  const roots = join(home.dir, 'roots');
  conversation(roots, S.words, [
    { text: `${FILLER}Meet me at the café tomorrow; the résumé is attached.` },
    { text: `We concatenate the files first. ${FILLER}Then the cat sat on the mat.` },
    { text: '日本語のテストを書いてください' },
    { text: 'fix error E0502 in src/a/b.ts and TS2345 in foo.bar.baz' },
    { text: 'the parse config step runs first' },
    { text: 'Why does parseConfig throw when the loader runs?' },
  ]);
  conversation(roots, S.rank, [
    // Three mentions of the word itself, short.
    { text: 'cat cat cat and a dog' },
    // One mention of the word, and many words that merely hold its letters.
    { text: 'cat concatenate catalog category scatter catapult cattle catch catholic catnip' },
  ]);
  conversation(roots, S.accents, [
    // Only the accented form, three times, short: the densest match for "resume".
    { text: 'résumé résumé résumé' },
    { text: 'please resume the upload later today when the network is back' },
  ]);
  conversation(roots, S.pasted, [
    { text: 'sqlalchemy.exc.IntegrityError: NOT NULL constraint failed: users.email' },
    { text: 'the migration gives the column a default' },
    { text: 'sqlalchemy.exc.IntegrityError: NOT NULL constraint failed: users.email, again after the seed' },
  ]);
  // Two lines of one second, a tenth and nine tenths into it.
  conversation(roots, S.clock, [
    { text: 'kestrel early in the second', ts: BASE + 100 },
    { text: 'kestrel late in the second', ts: BASE + 900 },
  ]);
  // Two pairs of conversations whose lines share a second: in each pair one was stored first, whichever that is.
  conversation(roots, 'aaaaaaaa-0000-4000-8000-000000000009', [{ text: 'osprey at nine tenths', ts: BASE + 900 }]);
  conversation(roots, 'zzzzzzzz-0000-4000-8000-000000000009', [{ text: 'osprey at one tenth', ts: BASE + 100 }]);
  conversation(roots, 'bbbbbbbb-0000-4000-8000-000000000009', [{ text: 'heron at one tenth', ts: BASE + 100 }]);
  conversation(roots, 'yyyyyyyy-0000-4000-8000-000000000009', [{ text: 'heron at nine tenths', ts: BASE + 900 }]);
  home.env.STEWARD_CLAUDE_ROOTS = roots;
  core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
  await core.call('Backfill.Run', { all: true });
});

afterAll(async () => {
  await core?.shutdown();
  home?.cleanup();
});

type Hit = Result<'Search.Query'>['hits'][number];
const search = (params: Params<'Search.Query'>) => core.call('Search.Query', params);
const marked = (hit: Hit) => hit.highlights.map(([a, b]) => hit.snippet.slice(a, b));
const only = async (params: Params<'Search.Query'>) => {
  const result = await search(params);
  expect(result.hits).toHaveLength(1);
  return result.hits[0]!;
};
/** A highlight that starts or ends inside a word marks letters that were not what matched. */
const insideAWord = (hit: Hit) => hit.highlights.filter(([a, b]) => /[\p{L}\p{N}]/u.test(hit.snippet.slice(a - 1, a)) || /[\p{L}\p{N}]/u.test(hit.snippet.slice(b, b + 1)));

describe('query syntax: what a person pastes is searched, not refused', () => {
  // prepareQuery writes an identifier with a hump as `(TS2345 OR "TS 2345")`, and FTS5 takes no
  // implicit AND beside a parenthesised group: the whole query falls back to one phrase.
  it.each([
    ['an error code after a word', 'fix TS2345'],
    ['an error code before a word', 'E0502 baz'],
    ['a camelCase name beside a word', 'parseConfig throw'],
  ])('%s: %s', async (_name, query) => {
    const result = await search({ query });
    expect(result.fallback).toBeUndefined();
    expect(result.hits).toHaveLength(1);
  });

  it('a (group) beside a word keeps its meaning, as the contract says groups do', async () => {
    const result = await search({ query: 'cat (mat OR dog)', sessionId: S.words });
    expect(result.fallback).toBeUndefined();
    expect(result.hits.map((h) => h.snippet)).toEqual([expect.stringContaining('the cat sat on the mat')]);
  });
});

describe('a pasted error that holds operator words', () => {
  const pasted = 'IntegrityError: NOT NULL constraint failed';

  it('is searched as written when its operators match nothing, on every page', async () => {
    const first = await search({ query: pasted, sessionId: S.pasted, sort: 'newest', limit: 1 });
    expect(first.fallback).toMatchObject({ mode: 'phrase', message: expect.stringContaining('searched as one exact phrase') });
    expect(first.hits).toHaveLength(1);
    const second = await search({ query: pasted, sessionId: S.pasted, sort: 'newest', limit: 1, cursor: first.cursor! });
    expect(second.fallback?.mode).toBe('phrase');
    expect(second.hits.map((h) => h.partId)).not.toEqual(first.hits.map((h) => h.partId));
    expect([...first.hits, ...second.hits].map((h) => h.snippet)).toEqual([expect.stringContaining('again after the seed'), expect.stringMatching(/users\.email$/)]);
    expect(second.cursor).toBeUndefined();
  });

  it('keeps its operators when they match something', async () => {
    const result = await search({ query: 'IntegrityError NOT seed', sessionId: S.pasted });
    expect(result.fallback).toBeUndefined();
    expect(result.hits.map((h) => h.snippet)).toEqual([expect.stringMatching(/users\.email$/)]);
  });
});

describe('snippets show what matched, and highlight only that', () => {
  it('a word is shown where it stands as a word, not where its letters sit inside a longer one', async () => {
    const hit = await only({ query: 'cat', sessionId: S.words });
    expect(hit.snippet).toContain('the cat sat');
    expect(insideAWord(hit)).toEqual([]);
  });

  it('a word typed without accents (the index removes them) shows and marks the accented word it found', async () => {
    const cafe = await only({ query: 'cafe', sessionId: S.words });
    expect(cafe.snippet).toContain('café');
    expect(marked(cafe)).toContain('café');
    const resume = await only({ query: 'resume', sessionId: S.words });
    expect(marked(resume)).toContain('résumé');
  });

  it('a camelCase name found by its pieces marks the pieces', async () => {
    const hits = (await search({ query: 'parseConfig', sessionId: S.words })).hits;
    const pieces = hits.find((h) => h.snippet.includes('parse config'));
    expect(pieces).toBeDefined();
    expect(marked(pieces!).map((m) => m.toLowerCase())).toEqual(['parse', 'config']);
  });
});

describe('a prefix', () => {
  it('marks what it matched at the start of the words it starts', async () => {
    const hit = await only({ query: 'concat*', sessionId: S.words });
    expect(marked(hit)).toEqual(['concat']);
    expect(hit.snippet).toMatch(/^We concatenate/);
    const ranked = await search({ query: 'catal*', sessionId: S.rank });
    expect(ranked.hits.map(marked)).toEqual([['catal']]);
  });
});

describe('relevance weighs what the index matched', () => {
  it('three mentions of a word outrank one mention among words that merely hold its letters', async () => {
    const { hits } = await search({ query: 'cat', sessionId: S.rank });
    expect(hits.map((h) => h.snippet)).toEqual(['cat cat cat and a dog', expect.stringContaining('concatenate')]);
  });

  it('a match the index found through its accents counts: the densest match ranks first', async () => {
    const { hits } = await search({ query: 'resume', sessionId: S.accents });
    expect(hits.map((h) => h.snippet)).toEqual(['résumé résumé résumé', expect.stringContaining('please resume')]);
  });
});

describe('time: the contract’s epoch ms, inclusive', () => {
  it('from and to cut inside a second', async () => {
    const late = await search({ query: 'kestrel', from: BASE + 500 });
    expect(late.hits.map((h) => h.ts! - BASE)).toEqual([900]);
    const early = await search({ query: 'kestrel', to: BASE + 500 });
    expect(early.hits.map((h) => h.ts! - BASE)).toEqual([100]);
  });

  it('newest first orders by the second, as the contract says, and lines of one second the last stored first', async () => {
    // The index orders by line time in seconds, then rowid. Files are read in name order: the osprey
    // line at .900 is stored first, the heron line at .100 is.
    expect((await search({ query: 'osprey', sort: 'newest' })).hits.map((h) => h.ts! - BASE)).toEqual([100, 900]);
    expect((await search({ query: 'heron', sort: 'newest' })).hits.map((h) => h.ts! - BASE)).toEqual([900, 100]);
  });
});

describe('steward search --from DAY --to DAY', () => {
  let cliHome: TempHome;

  beforeAll(async () => {
    cliHome = tempHome('steward-attack-cli-');
    const roots = join(cliHome.dir, 'roots');
    conversation(roots, S.clock, [{ text: 'kestrel at noon', ts: BASE }]);
    cliHome.env.STEWARD_CLAUDE_ROOTS = roots;
    // The CLI reads a date in the person's zone: this one's, whatever the machine's.
    cliHome.env.TZ = 'UTC';
    expect((await runIn(cliHome.env, 'backfill', '--all', '--json')).code).toBe(0);
  });

  afterAll(() => cliHome?.cleanup());

  it('one day as both ends finds what was said that day', async () => {
    const any = await runIn(cliHome.env, 'search', 'kestrel', '--json');
    expect((JSON.parse(any.out) as { hits: Hit[] }).hits).toHaveLength(1);
    const { code, out } = await runIn(cliHome.env, 'search', 'kestrel', '--from', '2026-03-10', '--to', '2026-03-10', '--json');
    expect(code).toBe(0);
    expect((JSON.parse(out) as { hits: Hit[] }).hits.map((h) => h.ts)).toEqual([BASE]);
  });
});
