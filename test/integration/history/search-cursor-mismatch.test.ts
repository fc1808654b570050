import { describe, expect, it } from 'vitest';
import { StewardError } from '../../../core/index.js';
import { runIn } from '../../support/cli.js';
import { claudeHistoryWithMcp, writeSubagentOrchard } from '../../support/mcp.js';

// A cursor given back with a search that is not the one it pages is refused (invalid_params) in words
// that say what differs: the query, a filter by name, the sort, or the dates the cursor holds. The rule
// is the owner's (Search.Query), so the CLI, JSON-RPC and MCP say the same; no query text is echoed.

const SESSION = 'c0ffee00-0000-4000-8000-0000000c5a11';
const history = claudeHistoryWithMcp('steward-search-cursor-mismatch-', (root) => writeSubagentOrchard(root, SESSION, 12));

/** The refusal Search.Query gives `params` with the cursor of `first`'s first page. */
async function refusal(first: Record<string, unknown>, params: Record<string, unknown>): Promise<StewardError> {
  const page = await history.core().call('Search.Query', { query: 'orchard', limit: 2, ...first });
  expect(page.cursor).toBeDefined();
  const error = await history.core().call('Search.Query', { query: 'orchard', limit: 2, ...params, cursor: page.cursor }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StewardError);
  expect((error as StewardError).code).toBe('invalid_params');
  expect((error as StewardError).message).toMatch(/^The cursor belongs to another search: /);
  return error as StewardError;
}

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe('Search.Query with a cursor of another search', () => {
  it('names the query when only the query differs, without saying either query', async () => {
    const { message } = await refusal({}, { query: 'orchard rows' });
    expect(message).toMatch(/the query differs/);
    expect(message).not.toMatch(/orchard|rows|filter|this cursor pages/);
  });

  it('names each filter that differs, added or changed', async () => {
    expect((await refusal({}, { kind: 'text' })).message).toMatch(/the kind filter differs/);
    expect((await refusal({ role: 'user' }, { role: 'assistant', sessionId: SESSION })).message).toMatch(/the session and role filters differ/);
    const both = (await refusal({ kind: 'text' }, { query: 'rows', provider: 'claude' })).message;
    expect(both).toMatch(/the query differs/);
    expect(both).toMatch(/the provider and kind filters differ/);
  });

  it('says when one redacts secrets and the other does not (a CLI cursor given to an agent search)', async () => {
    expect((await refusal({ redact: true }, {})).message).toMatch(/this cursor pages a search with secrets redacted, and this search shows them/);
    // Left out is off, as the search reads it.
    const page = await history.core().call('Search.Query', { query: 'orchard', limit: 2 });
    await expect(history.core().call('Search.Query', { query: 'orchard', limit: 2, redact: false, cursor: page.cursor })).resolves.toBeDefined();
  });

  it('says which order the cursor pages in', async () => {
    const { message } = await refusal({ sort: 'newest' }, { sort: 'relevance' });
    expect(message).toMatch(/this cursor pages newest first, and this search asks by relevance/);
    // The default said, or left out, is the same search.
    const page = await history.core().call('Search.Query', { query: 'orchard', limit: 2 });
    await expect(history.core().call('Search.Query', { query: 'orchard', limit: 2, sort: 'relevance', cursor: page.cursor })).resolves.toBeDefined();
  });

  it('says the dates the cursor holds and the ones asked', async () => {
    const from = Date.now() - 100 * DAY;
    const later = from + 10 * DAY;
    expect((await refusal({ from }, { from: later })).message).toContain(`this cursor pages a search from ${iso(from)}, and this search asks from ${iso(later)}`);
    expect((await refusal({ from }, {})).message).toContain(`this cursor pages a search from ${iso(from)}, and this search has no from`);
    const to = Date.now() + DAY;
    expect((await refusal({}, { to })).message).toContain(`this cursor pages a search with no to, and this search asks to ${iso(to)}`);
  });

  it('a cursor whose dates were edited past any Date is refused as one it never gave out, not as an internal error', async () => {
    const page = await history.core().call('Search.Query', { query: 'orchard', limit: 2 });
    const mark = JSON.parse(Buffer.from(page.cursor!, 'base64url').toString('utf8')) as Record<string, unknown>;
    for (const edited of [{ to: 9e15 }, { fr: 9e15 }, { to: 8_640_000_000_001 }]) {
      const cursor = Buffer.from(JSON.stringify({ ...mark, ...edited })).toString('base64url');
      // The same search, and another (whose refusal would say the dates the cursor holds).
      for (const query of ['orchard', 'orchard rows']) {
        await expect(history.core().call('Search.Query', { query, limit: 2, cursor })).rejects.toMatchObject({ code: 'invalid_params', message: 'The cursor is not one this request gave out; start again without it' });
      }
    }
  });

  it('the same search pages on with its cursor', async () => {
    const page = await history.core().call('Search.Query', { query: 'orchard', limit: 2 });
    await expect(history.core().call('Search.Query', { query: 'orchard', limit: 2, cursor: page.cursor })).resolves.toBeDefined();
  });

  it('a cursor given out before cursors said what they page keeps the short words', async () => {
    const page = await history.core().call('Search.Query', { query: 'orchard', limit: 2, kind: 'text' });
    const { g: _parts, fr: _from, to: _to, ...older } = JSON.parse(Buffer.from(page.cursor!, 'base64url').toString('utf8')) as Record<string, unknown>;
    const cursor = Buffer.from(JSON.stringify(older)).toString('base64url');
    await expect(history.core().call('Search.Query', { query: 'orchard', limit: 2, kind: 'text', cursor })).resolves.toBeDefined();
    await expect(history.core().call('Search.Query', { query: 'orchard', limit: 2, cursor })).rejects.toThrow(/^The cursor belongs to another search; start again without it$/);
  });
});

describe('the CLI and MCP say the same', () => {
  it('steward search --cursor with another --kind names the kind filter', async () => {
    const first = await runIn(history.home().env, 'search', 'orchard', '--limit', '2', '--json');
    expect(first.code).toBe(0);
    const { cursor } = JSON.parse(first.out) as { cursor: string };
    const again = await runIn(history.home().env, 'search', 'orchard', '--limit', '2', '--kind', 'text', '--cursor', cursor);
    expect(again.code).not.toBe(0);
    expect(again.err).toMatch(/The cursor belongs to another search: the kind filter differs/);
  });

  it('search_transcripts with another span than the cursor pinned says the instant the cursor holds', async () => {
    const call = (args: Record<string, unknown>) => history.call('search_transcripts', args);
    const args = { query: 'orchard', from: '100d', limit: 2 };
    const first = await call(args);
    const { cursor, pinned } = first.structuredContent as { cursor: string; pinned: { from: string } };
    const other = await call({ ...args, from: '90d', cursor });
    expect(other.isError).toBe(true);
    expect(other.content[0]?.text).toMatch(/^invalid_params: The cursor belongs to another search: /);
    expect(other.content[0]?.text).toContain(`this cursor pages a search from ${pinned.from}, and this search asks from `);
    const filtered = await call({ ...args, cursor, role: 'user', query: 'rows' });
    expect(filtered.content[0]?.text).toMatch(/^invalid_params: The cursor belongs to another search: the query differs; the role filter differs/);
  });
});
