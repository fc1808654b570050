import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../core/core.js';
import type { SearchHit } from '../../../core/api/index.js';
import { coreHome } from '../../support/core.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

/**
 * Panel QA (issue 12): a hit whose only match is in a tool call's one line ("Bash: git commit -am
 * 'trees: cursor pagination'") showed no mark: its snippet is what the call says besides that line,
 * empty here. The line carries its own marks (`summaryHighlights`), found by the same terms as the
 * snippet's, on the line as shown (redacted when the search is).
 */
const CLAUDE = 'c1a0de00-0000-4000-8000-00000000c012';
const TOKEN = `ghp_0123456789abcdef${'Zq7Lm2Xw9K'.repeat(2)}`;
const COMMIT = "git commit -am 'trees: cursor pagination'";
const PUSH = `GITHUB_TOKEN=${TOKEN} git push origin hedgerow-cursor`;
// "cursors" runs into the line's 140-character cut ("…cursor…"): the word the line shows is not the word stored.
const LONG = `${'x'.repeat(132)} cursors tail`;

const temp = coreHome('steward-search-call-line-', { shared: true });
let core: Core;

beforeAll(async () => {
  const { home } = temp;
  const at = (s: number) => new Date(Date.now() - 600_000 + s * 1_000);
  const line = (s: number, o: Parameters<typeof claudeLine>[0] extends infer O ? Partial<O> : never) => claudeLine({ sessionId: CLAUDE, cwd: '/work/trees', ts: at(s), ...o });
  const call = (id: string, input: unknown) => ({ type: 'assistant' as const, content: [{ type: 'tool_use', id, name: 'Bash', input }] });
  const root = join(home.dir, 'claude');
  writeJsonl(join(root, 'projects', '-work-trees', `${CLAUDE}.jsonl`), [
    line(1, { text: 'Commit the pagination work please' }),
    line(2, call('toolu_01Commit', { command: COMMIT })),
    line(3, call('toolu_02Push', { command: PUSH })),
    line(4, call('toolu_03Cat', { command: 'cat lantern.txt' })),
    line(5, { content: [{ type: 'tool_result', tool_use_id: 'toolu_03Cat', content: 'lantern notes: keep the lantern lit' }] }),
    line(6, call('toolu_04Long', { command: LONG, description: 'Print the cursor walk' })),
  ]);
  home.env.STEWARD_CLAUDE_ROOTS = root;
  home.env.STEWARD_OPENCLAW_ROOTS = '';
  core = temp.open();
  await core.call('Backfill.Run', { all: true });
});

const marked = (hit: SearchHit) => (hit.summaryHighlights ?? []).map(([a, b]) => hit.summary!.slice(a, b));
/** The long call's line, found by the run of padding that opens its command. */
const LONG_CALL = LONG.slice(0, 20);
const callOf = (hits: SearchHit[], words: string) => hits.find((h) => h.kind === 'tool_use' && (h.summary ?? '').includes(words))!;

describe('a hit whose match is in a tool call’s one line', () => {
  it('marks the match in that line, the snippet beside it empty', async () => {
    for (const redact of [false, true]) {
      const { hits } = await core.call('Search.Query', { query: 'cursor', redact });
      const hit = callOf(hits, 'trees:');
      expect(hit).toMatchObject({ summary: `Bash: ${COMMIT}`, snippet: '', highlights: [] });
      expect(marked(hit)).toEqual(['cursor']);
    }
  });

  it('marks each word of the query the line holds, the tool’s name too (it is found by it)', async () => {
    const { hits } = await core.call('Search.Query', { query: 'bash OR pagination', redact: true });
    expect(marked(callOf(hits, 'trees:'))).toEqual(['Bash', 'pagination']);
  });

  it('marks the line as redacted: its offsets are into the text shown, never the secret', async () => {
    const { hits } = await core.call('Search.Query', { query: 'hedgerow', redact: true });
    const hit = callOf(hits, 'git push');
    expect(hit.summary).not.toContain('ghp_0123');
    expect(hit.summary).toContain('[REDACTED]');
    expect(marked(hit)).toEqual(['hedgerow']);
  });

  it('a tool output’s hit leaves the line of the call it answers unmarked: that is not what matched', async () => {
    const { hits } = await core.call('Search.Query', { query: 'lantern', redact: true });
    const output = hits.find((h) => h.kind === 'tool_result')!;
    expect(output.summary).toBe('Bash: cat lantern.txt');
    expect(output.summaryHighlights).toBeUndefined();
    expect(output.highlights.length).toBeGreaterThan(0);
    expect(callOf(hits, 'lantern')).toBeDefined();
    expect(marked(callOf(hits, 'lantern'))).toEqual(['lantern']);
  });

  it('a word the line’s cut runs into is not marked, and a line with no match has no marks', async () => {
    const { hits } = await core.call('Search.Query', { query: 'cursor', redact: true });
    const hit = callOf(hits, LONG_CALL);
    expect(hit.summary).toMatch(/cursor…$/);
    expect(hit.summaryHighlights).toBeUndefined();
    expect(hit.snippet.slice(...hit.highlights[0]!)).toBe('cursor');
    const plain = await core.call('Search.Query', { query: 'walk', redact: true });
    expect(callOf(plain.hits, LONG_CALL).summaryHighlights).toBeUndefined();
  });
});
