import { describe, expect, it } from 'vitest';
import { methods, SEARCH_PROVIDERS, type SearchHit } from '../../../core/api/index.js';
import { searchHref } from '../../../renderer/src/navigation.js';
import { agentChoices, canSearch, filtersFrom, filtersToParams, queryOf, typedInBox, withChip } from '../../../renderer/src/places/search/filters.js';
import { countSentence, emptySentence, rankedSentence } from '../../../renderer/src/places/search/sentences.js';

describe('the Search place’s chips as a Search.Query', () => {
  it('"What I said" asks for the person’s own words, not every user text (command echoes, subagent prompts)', () => {
    expect(queryOf({ q: 'frost', who: 'me' })).toMatchObject({ query: 'frost', role: 'user', kind: 'text', genuineUserTurn: true });
  });

  it('"Anyone" and "The assistant" do not', () => {
    expect(queryOf({ q: 'frost' }).genuineUserTurn).toBeUndefined();
    expect(queryOf({ q: 'frost', who: 'assistant' })).toMatchObject({ role: 'assistant' });
    expect(queryOf({ q: 'frost', who: 'assistant' }).genuineUserTurn).toBeUndefined();
  });

  it('asks for snippets and titles with secrets redacted, whatever the chips (results are read on a shared screen too)', () => {
    for (const filters of [{ q: 'frost' }, { q: '', who: 'me' }, { q: 'token', kind: 'tool_result', sort: 'newest' }] as const) expect(queryOf(filters).redact).toBe(true);
  });
});

describe('the Agent chips', () => {
  it('offer every provider and every app the contract can narrow a search to, Claude Desktop beside Claude', () => {
    expect(agentChoices()).toEqual([
      { value: undefined, label: 'All agents' },
      { value: 'claude', label: 'Claude' },
      { value: 'claude-desktop', label: 'Claude Desktop' },
      { value: 'openclaw', label: 'OpenClaw' },
      { value: 'codex', label: 'Codex CLI' },
      { value: 'gemini', label: 'Gemini CLI' },
    ]);
    // Derived from the contract's list, not a second one: each chip is a provider the search takes.
    expect(agentChoices().flatMap((c) => (c.value === undefined ? [] : [c.value])).sort()).toEqual([...SEARCH_PROVIDERS].sort());
  });

  it('Claude Desktop, from the address, asks the contract for its sessions alone, with or without words', () => {
    const filters = filtersFrom({ q: '', provider: 'claude-desktop' });
    expect(canSearch(filters)).toBe(true);
    const query = queryOf(filters);
    expect(query.provider).toBe('claude-desktop');
    expect(methods['Search.Query'].params.safeParse(query).success).toBe(true);
  });
});

describe('a search with chips and no words', () => {
  it('runs when a chip narrows it, and asks the contract for its messages with an empty query', () => {
    expect(canSearch({ q: '' })).toBe(false);
    expect(canSearch({ q: '  ', sort: 'newest' })).toBe(false);
    for (const chip of [{ who: 'me' }, { kind: 'tool_use' }, { provider: 'claude' }, { project: 'p_0123456789abcdef' }, { when: '7d' }] as const) expect(canSearch({ q: '', ...chip })).toBe(true);
    expect(queryOf({ q: '', who: 'me' })).toMatchObject({ query: '', role: 'user', kind: 'text', genuineUserTurn: true });
  });

  it('an empty page says no message matches the filters, not the words', () => {
    expect(emptySentence({ hits: [] }, false)).toBe('Nothing matches these filters.');
  });
});

describe('what a page of the Search place says about itself', () => {
  const hit = { sessionId: 's', partId: 'p', projectKey: null, ts: 1, role: 'user', kind: 'text', provider: 'claude', genuineUserTurn: true, isCompactSummary: false, toolName: null, summary: null, snippet: 'x', highlights: [] };

  it('an empty page with a cursor says the matches looked at so far were none, not that nothing matches', () => {
    expect(emptySentence({ hits: [], cursor: 'c' })).toBe('None among the newest matches looked at so far; More matches looks further back.');
    expect(emptySentence({ hits: [] })).toBe('No conversation matches that.');
    expect(emptySentence({ hits: [hit], cursor: 'c' })).toBeUndefined();
  });

  it('a search refused as too broad leaves it to its note, never saying nothing matches', () => {
    expect(emptySentence({ hits: [], fallback: { mode: 'too_broad', message: '“e*” stands for too many different words…' } })).toBeUndefined();
    expect(emptySentence({ hits: [], fallback: { mode: 'phrase', message: 'searched as one exact phrase' } })).toBe('No conversation matches that.');
  });

  it('says how many matches relevance ranked, and nothing when it ranked none', () => {
    expect(rankedSentence({ rankedAmong: 500 })).toBe('Ranked among the newest 500 matches. Narrow the search, or order by newest to reach older ones.');
    expect(rankedSentence({ rankedAmong: 0 })).toBeUndefined();
    expect(rankedSentence({})).toBeUndefined();
  });
});

describe('what a search says it found', () => {
  const hit = (sessionId: string, partId: string) => ({ sessionId, partId }) as SearchHit;
  it('a page with more behind it is counted so far, never as a total', () => {
    const hits = [hit('a', 'a:1'), hit('a', 'a:2'), hit('b', 'b:1')];
    expect(countSentence({ hits, sessions: [], cursor: undefined })).toBe('Showing 3 matches in 2 conversations.');
    expect(countSentence({ hits, sessions: [], cursor: 'next' })).toBe('Showing 3 matches in 2 conversations. More matches looks for others.');
    expect(countSentence({ hits: [hit('a', 'a:1')], sessions: [], cursor: undefined })).toBe('Showing 1 match in 1 conversation.');
  });
});

describe('chips that cannot meet', () => {
  it('pressing one lets go of the other group’s choice it cannot meet, never leaving a search that matches nothing', () => {
    // What I said is only ever messages.
    expect(withChip({ q: 'frost', kind: 'tool_use' }, 'who', 'me')).toEqual({ q: 'frost', who: 'me', kind: undefined });
    expect(withChip({ q: 'frost', who: 'me' }, 'kind', 'tool_result')).toEqual({ q: 'frost', who: undefined, kind: 'tool_result' });
    // A tool's output is not the assistant's words; its commands and thinking are.
    expect(withChip({ q: 'frost', who: 'assistant' }, 'kind', 'tool_result')).toEqual({ q: 'frost', who: undefined, kind: 'tool_result' });
    expect(withChip({ q: 'frost', who: 'assistant' }, 'kind', 'tool_use')).toEqual({ q: 'frost', who: 'assistant', kind: 'tool_use' });
    // Choices that meet are kept as they are.
    expect(withChip({ q: 'frost', who: 'me', when: '7d' }, 'kind', 'text')).toEqual({ q: 'frost', who: 'me', kind: 'text', when: '7d' });
  });
});

describe('the search box emptied', () => {
  it('commits no query at once: a chip then lists every message it selects, newest first, and the address drops q', () => {
    const emptied = typedInBox({ q: 'rsync', sort: 'newest' }, '');
    expect(emptied).toEqual({ q: '', sort: 'newest' });
    const chosen = withChip(emptied!, 'who', 'assistant');
    expect(queryOf(chosen)).toMatchObject({ query: '', role: 'assistant' });
    expect(searchHref(filtersToParams(chosen))).toBe('#/search?who=assistant&sort=newest');
    // Spaces alone are no words either, as Enter would have trimmed them.
    expect(typedInBox({ q: 'rsync' }, '   ')).toEqual({ q: '' });
  });

  it('other typing waits for Enter (no search per keystroke), and an empty box with no query commits nothing', () => {
    expect(typedInBox({ q: 'rsync' }, 'rsyn')).toBeUndefined();
    expect(typedInBox({ q: '' }, 'r')).toBeUndefined();
    expect(typedInBox({ q: '', who: 'me' }, '')).toBeUndefined();
  });
});
