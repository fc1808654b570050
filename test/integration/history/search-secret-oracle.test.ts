import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../core/core.js';
import { SearchReader } from '../../../core/gateway/search-read.js';
import { coreHome } from '../../support/core.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

/**
 * A search whose caller gets redacted results (`redact: true`: the panel, the CLI, the MCP tools) must
 * not find a part by words that only a redacted secret holds: hit or miss would tell a secret a
 * character at a time (`hunter2s*` finds it, `hunter3*` does not), though the snippet shows [REDACTED].
 * Neither may a page's hits, its cursor or its ranking count such a part. A raw search finds it.
 */
const TOKEN = `ghp_0123456789abcdef${'Zq7Lm2Xw9K'.repeat(2)}`;
const PASSWORD = 'hunter2supersecret';
const VAULT = 'va017000-0000-4000-8000-000000000001';
const PLAIN = 'va017000-0000-4000-8000-000000000002';
const MANY = 'va017000-0000-4000-8000-000000000003';
const APART = 'va017000-0000-4000-8000-000000000004';
const CALL = 'va017000-0000-4000-8000-000000000005';
/** A private key's body: lines of 64 letters and digits (a run of them is a token the index holds). */
const KEY_LINES = Array.from({ length: 50 }, (_, i) => `Kq${String(i).padStart(2, '0')}${'Zx9Lm2Wv7Pt4Rn8Hs3Jd6Fb1Gc5Yk0Mw'.repeat(2).slice(0, 60)}`);
const KEY = `-----BEGIN RSA PRIVATE KEY-----\n${KEY_LINES.join('\n')}\n-----END RSA PRIVATE KEY-----`;
/** Words apart in one long message: its evidence is two pieces of it. */
const FILLER = 'the lantern keeps burning over quiet fields '.repeat(80);
/** Parts in one conversation each holding a token: more than a page. */
const TOKENS = 130;

const temp = coreHome('steward-search-secret-', { shared: true });
let core: Core;

beforeAll(async () => {
  const { home } = temp;
  const root = join(home.dir, 'roots', 'claude');
  const t = Date.now() - 3_600_000;
  const at = (s: number) => new Date(t + s * 1_000);
  writeJsonl(join(root, 'projects', '-work-vault', `${VAULT}.jsonl`), [
    claudeLine({ sessionId: VAULT, cwd: '/work/vault', ts: at(0), text: `Deploy the orchard vault with password=${PASSWORD} and GITHUB_TOKEN=${TOKEN} please` }),
    claudeLine({ sessionId: VAULT, cwd: '/work/vault', ts: at(1), type: 'assistant', text: 'Deploying the vault now.' }),
  ]);
  writeJsonl(join(root, 'projects', '-work-vault', `${PLAIN}.jsonl`), [
    claudeLine({ sessionId: PLAIN, cwd: '/work/vault', ts: at(2), text: 'The orchard vault opens twice: orchard vault, orchard vault.' }),
  ]);
  writeJsonl(join(root, 'projects', '-work-apart', `${APART}.jsonl`), [
    claudeLine({ sessionId: APART, cwd: '/work/apart', ts: at(3), text: `Meadow first. ${FILLER} password=stewardq9x7w2 then meadow again.` }),
    claudeLine({ sessionId: APART, cwd: '/work/apart', ts: at(4), text: `Meadow first. ${FILLER} password=qqqbreakx9w7 then meadow again.` }),
    claudeLine({ sessionId: APART, cwd: '/work/apart', ts: at(5), text: `password=kestrel ${FILLER} and the kestrel hovers.` }),
    // A word a secret holds, then, past most of an excerpt's room, a word the reader sees.
    claudeLine({ sessionId: APART, cwd: '/work/apart', ts: at(7), text: `password=osprey7x9q2w ${'a heron waits by the reeds '.repeat(42)} kingfisher dives ${'the river runs cold and clear '.repeat(40)}` }),
    // A private key in a message, longer than an excerpt's room before its last lines.
    claudeLine({ sessionId: APART, cwd: '/work/apart', ts: at(8), text: `Here is the private key for the heron box:\n${KEY}\nkeep it safe.` }),
    // A password, and a one-letter word the snippet does not look for.
    claudeLine({ sessionId: APART, cwd: '/work/apart', ts: at(9), text: `Wren notes: ${'the river runs cold and clear '.repeat(8)}password=hunter9zest9 and then a plover ${'the river runs cold and clear '.repeat(40)}` }),
    // A token a piece's edge would cut (about 1,000 characters after "osprey"), and another copy of it first.
    claudeLine({ sessionId: APART, cwd: '/work/apart', ts: at(6), text: `Use ${TOKEN} first. ${'a heron waits by the reeds '.repeat(120)} osprey ${'the river runs cold and clear '.repeat(40).slice(0, 982)} ${TOKEN} end` }),
  ]);
  writeJsonl(
    join(root, 'projects', '-work-many', `${MANY}.jsonl`),
    Array.from({ length: TOKENS }, (_, i) =>
      claudeLine({ sessionId: MANY, cwd: '/work/many', ts: at(10 + i), text: `Token ${i}: GITHUB_TOKEN=ghp_0123456789abcdef${i.toString(36).padStart(4, 'x')}${'Zq7Lm2Xw9K'.repeat(2)}` }),
    ),
  );
  // A command whose token starts past the 140 characters a tool call's one line keeps.
  writeJsonl(join(root, 'projects', '-work-call', `${CALL}.jsonl`), [
    claudeLine({ sessionId: CALL, cwd: '/work/call', ts: at(200), type: 'assistant', content: [{ type: 'tool_use', id: 'toolu_call', name: 'Bash', input: { command: `echo lighthouse ${'y'.repeat(100)} ${TOKEN} | gh auth login --with-token` } }] }),
  ]);
  home.env.STEWARD_CLAUDE_ROOTS = root;
  home.env.STEWARD_OPENCLAW_ROOTS = '';
  core = temp.open();
  await core.call('Backfill.Run', { all: true });
}, 60_000);

const search = (query: string, more: Record<string, unknown> = {}) => core.call('Search.Query', { query, redact: true, ...more });
const sessionsOf = (result: { hits: Array<{ sessionId: string }> }) => [...new Set(result.hits.map((h) => h.sessionId))].sort();

describe('a redacted search orders and names its hits without a secret’s characters', () => {
  it('a word after NOT never raises a hit: the order is the same whatever the secret starts with', async () => {
    const order = async (query: string) => (await search(query)).hits.map((h) => h.partId);
    const right = await order('orchard vault NOT hunter2s*');
    expect(right.length).toBeGreaterThan(1);
    for (const query of ['orchard vault NOT hunter3s*', 'orchard vault NOT zzzz', `orchard vault NOT ${PASSWORD}`]) expect(await order(query)).toEqual(right);
  });

  it('a tool call’s one line is redacted before it is cut, so a token the cut shortened never shows', async () => {
    const { hits } = await search('lighthouse');
    expect(hits.map((h) => h.sessionId)).toEqual([CALL]);
    expect(hits[0]!.summary).toContain('[REDACTED]');
    expect(hits[0]!.summary).not.toContain('ghp_0123');
  });
});

describe('a redacted search finds nothing by a secret’s characters', () => {
  it('a prefix of a password or a token finds nothing, as a wrong one finds nothing; raw, it finds the part', async () => {
    for (const sort of ['relevance', 'newest'] as const) {
      for (const query of ['hunter2s*', 'hunter2supersecret', '"password hunter2supersecret"', 'ghp_0123456789abc*', 'ghp_0123456789abcdef*']) {
        const hit = await search(query, { sort });
        expect({ query, sort, hits: hit.hits.length, cursor: hit.cursor }).toEqual({ query, sort, hits: 0, cursor: undefined });
        expect(await search(query.replace('hunter2', 'hunter3').replace('abc', 'abd'), { sort })).toMatchObject({ hits: [] });
      }
    }
    expect(sessionsOf(await core.call('Search.Query', { query: 'hunter2s*' }))).toEqual([VAULT]);
    expect(sessionsOf(await core.call('Search.Query', { query: 'ghp_0123456789abc*', sessionId: VAULT }))).toEqual([VAULT]);
  });

  it('words beside the secret still find the part; a query needs its words outside secrets, as written (AND, OR, phrases)', async () => {
    expect(sessionsOf(await search('orchard vault'))).toEqual([VAULT, PLAIN]);
    expect(sessionsOf(await search('"orchard vault" password'))).toEqual([VAULT]);
    expect(sessionsOf(await search('orchard hunter2s*'))).toEqual([]);
    expect(sessionsOf(await search('deploy AND hunter2s*'))).toEqual([]);
    // OR: the part is found by its other word alone, with the right prefix as with a wrong one.
    const right = await search('deploy OR hunter2s*');
    const wrong = await search('deploy OR hunter3*');
    expect(right.hits.map((h) => h.partId)).toEqual(wrong.hits.map((h) => h.partId));
    expect(sessionsOf(right)).toEqual([VAULT]);
    expect(right.hits[0]!.snippet).toContain('password=[REDACTED]');
  });

  it('NOT leaves a part out by what the reader sees, never by a secret: the right prefix and a wrong one find the same', async () => {
    for (const sort of ['relevance', 'newest'] as const) {
      const right = await search('deploy NOT hunter2s*', { sort });
      const wrong = await search('deploy NOT hunter3*', { sort });
      expect(right.hits.map((h) => h.partId)).toEqual(wrong.hits.map((h) => h.partId));
      expect(sessionsOf(right)).toEqual([VAULT]);
      // What the reader sees still leaves out: the password's key is outside the secret.
      expect(await search('deploy NOT password', { sort })).toMatchObject({ hits: [] });
      expect(sessionsOf(await search('(deploy OR opens) NOT (orchard twice)', { sort }))).toEqual([VAULT]);
    }
    // Raw, NOT leaves it out by the secret as the index holds it.
    expect(await core.call('Search.Query', { query: 'deploy NOT hunter2s*' })).toMatchObject({ hits: [] });
  });

  it('no word matches what stands between pieces of a part: a secret is not found through it', async () => {
    // The break is no fixed word either: one a secret starts with is not what this query sets between pieces.
    for (const query of ['meadow steward*', 'meadow stewardq*', 'meadow qqq*', 'meadow qqqbreak*']) {
      const found = await search(query);
      expect({ query, hits: found.hits.length }).toEqual({ query, hits: 0 });
      expect(sessionsOf(await core.call('Search.Query', { query }))).toEqual([APART]);
    }
    expect(sessionsOf(await search('meadow lantern'))).toEqual([APART]);
  });

  it('no word of a query can match the break between pieces, however the tokenizer splits or folds it', async () => {
    // The first piece of the meadow part ends 1,000 characters after "Meadow", inside a word of the filler.
    const tail = /[A-Za-z]+$/.exec(`Meadow first. ${FILLER}`.slice(0, 6 + 1_000))![0];
    for (const split of ['\u0305', '\u0300\u0305']) {
      for (const letter of ['q', 'z']) {
        const right = await search(`meadow AND (stewardq* OR ${tail}${split}${letter}*)`);
        const wrong = await search(`meadow AND (stewarde* OR ${tail}${split}${letter}*)`);
        expect(right.hits.map((h) => h.partId)).toEqual(wrong.hits.map((h) => h.partId));
      }
    }
    // ſ is s to the tokenizer: a query of s-words does not leave s free for the break.
    const right = await search('meadow AND (stewardq* OR ſqq*)');
    const wrong = await search('meadow AND (stewarde* OR ſqq*)');
    expect(right.hits.map((h) => h.partId)).toEqual(wrong.hits.map((h) => h.partId));
  });

  it('words the index refuses are refused whether or not a secret matches them', async () => {
    for (const words of ['NEAR(stewardq* NOT zebra)', 'meadow NOT body:']) {
      const right = await search(words);
      const wrong = await search(words.replace('stewardq*', 'stewarde*'));
      expect({ words, fallback: right.fallback?.mode }).toEqual({ words, fallback: wrong.fallback?.mode });
      expect(right.hits.length).toBe(wrong.hits.length);
    }
  });

  it('a piece of evidence never ends inside a token: the token is seen whole, and redacted', async () => {
    for (const query of ['osprey AND ghp_0123456789a*', 'osprey AND 0123456789a*', 'osprey AND ghp_0123456789abcdef*']) {
      expect({ query, hits: (await search(query)).hits.length }).toEqual({ query, hits: 0 });
    }
    expect(sessionsOf(await search('osprey AND river'))).toEqual([APART]);
  });

  it('a snippet is cut around the match the reader sees as if it had been the first: the same whatever a secret matched', async () => {
    const right = await search('kingfisher OR osprey7*');
    const wrong = await search('kingfisher OR osprey8*');
    expect(right.hits.map((h) => [h.snippet, h.highlights])).toEqual(wrong.hits.map((h) => [h.snippet, h.highlights]));
    expect(right.hits[0]!.snippet).toMatch(/kingfisher dives the river runs/);
  });

  it('a key block cut far below its header is still redacted: in the snippet and for the re-check', async () => {
    for (const query of ['private key', 'heron END', 'END']) {
      const found = await search(query);
      for (const hit of found.hits) expect({ query, snippet: hit.snippet }).not.toEqual({ query, snippet: expect.stringMatching(/Kq\d\d|Zx9Lm2/) });
    }
    // A line deep in the body (more than 1,000 characters below BEGIN): its prefix finds what a wrong one finds.
    const deep = KEY_LINES[40]!.slice(0, 8);
    for (const query of [`heron AND ${deep}*`, `${deep}*`]) {
      expect({ query, hits: (await search(query)).hits.length }).toEqual({ query, hits: 0 });
      expect({ query, hits: (await search(query.replace(deep, `${deep.slice(0, 6)}qq`))).hits.length }).toEqual({ query, hits: 0 });
    }
  });

  it('a hit with no match the reader sees has the snippet of its head, wherever a secret matched', async () => {
    const snippetOf = async (query: string) => (await search(query, { sort: 'newest', limit: 100 })).hits.find((h) => h.snippet.includes('Wren'))?.snippet;
    const right = await snippetOf('a OR hunter9z*');
    expect(right).toBeDefined();
    expect(right).toBe(await snippetOf('a OR hunter8z*'));
    expect(right).toMatch(/^Wren notes: the river/);
  });

  it('no phrase and no NEAR reaches from one piece of evidence into the next; within one they do', async () => {
    const reader = new SearchReader(core.gateway, { subagentTokenCap: 0 });
    const kept = (expression: string, pieces: string[]) => [...reader.stillMatching({ expression }, [{ key: 1, kind: 'text', pieces, json: false, toolName: null }])];
    const apart = ['the grey heron', 'pond at dusk'];
    for (const expression of ['"heron pond"', 'NEAR(heron pond)', 'NEAR(heron pond, 5)', 'NEAR(heron pond, 40)']) expect({ expression, kept: kept(expression, apart) }).toEqual({ expression, kept: [] });
    expect(kept('heron pond', apart)).toEqual([1]);
    expect(kept('NEAR(heron pond, 5)', ['the grey heron by the pond'])).toEqual([1]);
    await reader.close();
  });

  it('a word a secret holds first and the text holds again is found where the reader sees it', async () => {
    for (const sort of ['relevance', 'newest'] as const) {
      const found = await search('kestrel hovers', { sort });
      expect(found.hits.map((h) => h.snippet)).toEqual([expect.stringContaining('kestrel hovers')]);
    }
  });

  it('a page of parts that only secrets match counts none of them: no hits, no cursor, nothing ranked', async () => {
    for (const sort of ['relevance', 'newest'] as const) {
      let page = await search('ghp_0123456789abcdef*', { sort, limit: 5 });
      const seen: string[] = [];
      // A page may come back short within its budget; its cursor goes on, and every page is empty.
      for (let n = 0; n < 50; n += 1) {
        seen.push(...page.hits.map((h) => h.partId));
        if (page.cursor === undefined) break;
        page = await search('ghp_0123456789abcdef*', { sort, limit: 5, cursor: page.cursor });
      }
      expect(seen).toEqual([]);
      expect(page.cursor).toBeUndefined();
    }
    // Words outside the tokens page through all of them.
    const all: string[] = [];
    let page = await search('token', { limit: 50, sort: 'newest' });
    for (;;) {
      all.push(...page.hits.map((h) => h.partId));
      if (page.cursor === undefined) break;
      page = await search('token', { limit: 50, sort: 'newest', cursor: page.cursor });
    }
    expect(all.length).toBeGreaterThanOrEqual(TOKENS);
  });
});
