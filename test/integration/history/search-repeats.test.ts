import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Core, Params, Result } from '../../../core/index.js';
import { coreHome } from '../../support/core.js';
import { claudeLine, writeJsonl, type ClaudeLineOptions } from '../../support/transcripts.js';

/**
 * The QA report: `retry` gave a first page of 20 identical `Grep: retry` calls of one conversation, and
 * the person's own "make the retry count configurable" only under What I said. Within a conversation,
 * hits of the same text (a tool call: the same tool and input) are one hit that says how many more.
 */

const LOOPING = 'c1a0de00-0000-4000-8000-00000000e701';
const OTHER = 'c1a0de00-0000-4000-8000-00000000e702';
const TIES = 'c1a0de00-0000-4000-8000-00000000e703';
const VAULT = 'c1a0de00-0000-4000-8000-00000000e704';
const TOKEN = `ghp_0123456789abcdef${'Zq7Lm2Xw9K'.repeat(2)}`;
const REPEATS = 25;
const base = Date.UTC(2026, 3, 7, 9);
const at = (i: number) => new Date(base + i * 60_000);
const GREP = { pattern: 'retry', path: 'src/' };
const call = (id: string, name: string, input: unknown) => ({ type: 'tool_use', id, name, input });

function writeConversations(root: string): void {
  const line = (sessionId: string, i: number, o: Partial<ClaudeLineOptions>) => claudeLine({ sessionId, cwd: '/work/retry', ts: at(i), ...o });
  const dir = join(root, 'projects', '-work-retry');
  writeJsonl(join(dir, `${LOOPING}.jsonl`), [
    line(LOOPING, 0, { text: 'Please make the retry count configurable: it is hard-coded to three in both the client and the server, and the flaky deploys need five.' }),
    // An agent stuck in a loop, newer than what the person said.
    ...Array.from({ length: REPEATS }, (_, i) => line(LOOPING, 1 + i, { type: 'assistant', content: [call(`toolu_grep${i}`, 'Grep', GREP)] })),
    // The same words elsewhere, or by another tool: different hits.
    line(LOOPING, 30, { type: 'assistant', content: [call('toolu_grepTest', 'Grep', { pattern: 'retry', path: 'test/' })] }),
    line(LOOPING, 31, { type: 'assistant', content: [call('toolu_glob', 'Glob', GREP)] }),
  ]);
  // The same call in another conversation is that conversation's hit.
  writeJsonl(join(dir, `${OTHER}.jsonl`), [line(OTHER, 40, { type: 'assistant', content: [call('toolu_other', 'Grep', GREP)] })]);
  // The same secret twice: a redacted search must not tell that the hidden tokens are one.
  const secret = (i: number) => line(VAULT, 50 + i, { type: 'assistant', text: `Set GITHUB_TOKEN=${TOKEN} before the kestrel upload` });
  writeJsonl(join(dir, `${VAULT}.jsonl`), [secret(0), secret(1)]);
}

type Hit = Result<'Search.Query'>['hits'][number];

describe('repeats within a conversation are one hit', () => {
  const temp = coreHome('steward-search-repeats-', { shared: true });
  let core: Core;
  beforeAll(async () => {
    const roots = join(temp.home.dir, 'roots');
    writeConversations(roots);
    temp.home.env.STEWARD_CLAUDE_ROOTS = roots;
    core = temp.open();
    await core.call('Backfill.Run', { all: true });
  });

  async function allPages(query: Params<'Search.Query'>): Promise<Hit[]> {
    const hits: Hit[] = [];
    let cursor: string | undefined;
    do {
      const page = await core.call('Search.Query', { ...query, ...(cursor ? { cursor } : {}) });
      hits.push(...page.hits);
      cursor = page.cursor;
    } while (cursor);
    return hits;
  }

  it('the first page holds the person’s words and the looping call once, with how many more like it', async () => {
    const page = await core.call('Search.Query', { query: 'retry' });
    const mine = page.hits.find((h) => h.genuineUserTurn);
    expect(mine?.snippet).toContain('retry count configurable');
    const looped = page.hits.filter((h) => h.sessionId === LOOPING && h.toolName === 'Grep' && h.snippet.includes('src/'));
    expect(looped).toHaveLength(1);
    expect(looped[0]!.alike).toBe(REPEATS - 1);
    // The shown one of the repeats is its best-ranked: of equal scores, the newest.
    expect(looped[0]!.ts).toBe(at(REPEATS).getTime());
    // Different input, another tool, another conversation: each its own hit, none folded.
    expect(page.hits).toHaveLength(5);
    for (const hit of page.hits.filter((h) => h !== looped[0])) expect(hit.alike).toBeUndefined();
    expect(page.cursor).toBeUndefined();
  });

  it.each([1, 2, 3])('pages of %i visit every match exactly once', async (limit) => {
    const whole = await core.call('Search.Query', { query: 'retry', limit: 100 });
    const paged = await allPages({ query: 'retry', limit });
    expect(paged.map((h) => h.partId)).toEqual(whole.hits.map((h) => h.partId));
    expect(new Set(paged.map((h) => h.partId)).size).toBe(paged.length);
    // Each match is shown or counted in the hit it is like: 25 + 4 matches.
    expect(paged.reduce((sum, h) => sum + 1 + (h.alike ?? 0), 0)).toBe(REPEATS + 4);
  });

  it('text a secret was redacted from folds only when the results are not redacted', async () => {
    const raw = await core.call('Search.Query', { query: 'kestrel' });
    expect(raw.hits.map((h) => h.alike)).toEqual([1]);
    const redacted = await core.call('Search.Query', { query: 'kestrel', redact: true });
    expect(redacted.hits).toHaveLength(2);
    for (const hit of redacted.hits) expect(hit.alike).toBeUndefined();
  });

  it('within one conversation only: a search narrowed to it folds the same', async () => {
    const page = await core.call('Search.Query', { query: 'retry', sessionId: LOOPING });
    expect(page.hits).toHaveLength(4);
    expect(page.hits.find((h) => h.alike !== undefined)?.alike).toBe(REPEATS - 1);
  });
});

describe('when relevance ties, the person’s words come first', () => {
  const temp = coreHome('steward-search-ties-', { shared: true });
  let core: Core;
  beforeAll(async () => {
    const roots = join(temp.home.dir, 'roots');
    const line = (i: number, o: Partial<ClaudeLineOptions>) => claudeLine({ sessionId: TIES, cwd: '/work/ties', ts: at(i), ...o });
    // The same words from both: equal scores; the agent's is newer, which broke the tie until now.
    writeJsonl(join(roots, 'projects', '-work-ties', `${TIES}.jsonl`), [line(0, { text: 'retry the flaky upload' }), line(1, { type: 'assistant', text: 'retry the flaky upload' })]);
    temp.home.env.STEWARD_CLAUDE_ROOTS = roots;
    core = temp.open();
    await core.call('Backfill.Run', { all: true });
  });

  it('ranks the person’s turn before the agent’s text of the same score, on one page or two', async () => {
    const page = await core.call('Search.Query', { query: 'upload' });
    expect(page.hits.map((h) => h.role)).toEqual(['user', 'assistant']);
    const first = await core.call('Search.Query', { query: 'upload', limit: 1 });
    const second = await core.call('Search.Query', { query: 'upload', limit: 1, cursor: first.cursor! });
    expect([...first.hits, ...second.hits].map((h) => h.partId)).toEqual(page.hits.map((h) => h.partId));
    expect(second.cursor).toBeUndefined();
  });
});
