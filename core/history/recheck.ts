import { looksLikeJson, toolNameOf, type Evidence, type MatchedPart, type SearchFilter, type SearchReader } from '../gateway/index.js';
import { isJsonText, type Redactor } from '../secrets/index.js';
import { redactableCut, redactPieces } from './snippet.js';
import { compileTerms, TermPattern } from './term-match.js';

/**
 * The index holds parts as stored, secrets and all; a search that hands out redacted results keeps a
 * match only when its words still match what the reader may see. Otherwise hit or miss is an oracle:
 * `hunter2s*` finds the part with `password=hunter2supersecret` and `hunter3*` does not, though the
 * snippet says [REDACTED], so a secret could be rebuilt a character at a time.
 *
 * What the reader may see of a part is taken where its words are: around the first place each term of
 * the query matches, then, where that is not enough, its first PLACES_PER_TERM (term-match.ts finds
 * them as the index did), with the context a secret is recognised by, cut as a snippet's excerpt is
 * (redactableCut) and redacted. The words' MATCH then runs again over those pieces, NOT and all
 * (SearchReader.stillMatching), so AND, OR, NOT, phrases, prefixes and column filters keep their
 * meaning. Per part the work is bounded: a few pieces of about 2,000 characters, linted many to a
 * secretlint pass.
 */

/** Places of each term a part's evidence is taken around: a word a secret holds and the text repeats is seen at one of them. */
const PLACES_PER_TERM = 4;
/** Characters kept on either side of a place: as much as a snippet's excerpt redacts with (snippet.ts REDACT_CONTEXT). */
const CONTEXT = 1_000;

/** The matches of a page, less those the words only matched inside secrets, in the order given. */
export type Recheck = (matches: readonly MatchedPart[]) => Promise<MatchedPart[]>;

/**
 * A recheck for a search of `terms` (PreparedQuery's, with its prefixes) under `filter`, whose results
 * are redacted with `redactor`. Each part is first seen around the first place of each term, which
 * nearly always settles it; only a part that fails there is seen again around more places (a word that
 * first stood in a secret may stand outside one later). A search with NOT sees every part around all
 * its places at once: a word it leaves parts out by must be seen wherever the reader sees it.
 */
export function recheckOf(reader: SearchReader, filter: Pick<SearchFilter, 'expression' | 'kind' | 'genuineUserTurn'>, terms: readonly string[], prefixes: readonly string[], redactor: Redactor, negated: boolean): Recheck {
  // Refused words are refused before the index is asked, never only where a part was found.
  reader.checkWords(filter);
  const compiled = compileTerms(terms, prefixes);
  const pattern = compiled.length === 0 ? null : new TermPattern(compiled);
  const stillMatching = async (matches: readonly MatchedPart[], places: number): Promise<Set<number>> => {
    const pieces = matches.map((m) => piecesOf(m.text ?? '', pattern, places));
    // Each piece redacted as the part's text reads: a piece from deep inside a JSON text still reads its `\n` as a line break.
    const redacted = await redactPieces(
      matches.flatMap((m, i) => {
        const redactAsJson = isJsonText(m.text ?? '');
        return pieces[i]!.map((text) => ({ text, redactAsJson }));
      }),
      redactor,
    );
    let at = 0;
    const evidence = matches.map((m, i): Evidence => {
      const mine = redacted.slice(at, (at += pieces[i]!.length));
      const text = m.text ?? '';
      return { key: m.key, kind: m.kind, pieces: mine, json: text !== '' && looksLikeJson(text), toolName: m.kind === 'tool_use' ? toolNameOf(m.meta) : null };
    });
    return reader.stillMatching(filter, evidence);
  };
  return async (matches) => {
    if (matches.length === 0) return [];
    const kept = await stillMatching(matches, negated ? PLACES_PER_TERM : 1);
    // Seen again only where more places show more of the part.
    const doubtful = negated ? [] : matches.filter((m) => !kept.has(m.key) && morePlaces(m.text ?? '', pattern));
    for (const key of doubtful.length === 0 ? [] : await stillMatching(doubtful, PLACES_PER_TERM)) kept.add(key);
    return matches.filter((m) => kept.has(m.key));
  };
}

/** Whether a term has a second place in `text`: then more places than one show more of it. */
function morePlaces(text: string, pattern: TermPattern | null): boolean {
  if (pattern === null) return false;
  const places = pattern.firstMatchesIn(text, 2);
  return new Set(places.map((p) => p.term)).size < places.length;
}

/**
 * The stretches of `text` around the places its terms match, merged where they meet. A text with no
 * place found (a term the patterns cannot tell, such as NEAR's) is kept as its head.
 */
function piecesOf(text: string, pattern: TermPattern | null, perTerm: number): string[] {
  if (text === '') return [];
  const places = pattern === null ? [] : pattern.firstMatchesIn(text, perTerm);
  const spans = places.map((m): [number, number] => [m.ranges[0]![0], m.ranges[m.ranges.length - 1]![1]]);
  if (spans.length === 0) spans.push([0, 0]);
  // Widened first, then merged: a cut moved back to a key block's header may reach before the piece ahead of it.
  const cuts = spans.map(([start, end]) => redactableCut(text, start - CONTEXT, end + CONTEXT)).sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const [from, to] of cuts) {
    const last = merged[merged.length - 1];
    if (last && from <= last[1]) last[1] = Math.max(last[1], to);
    else merged.push([from, to]);
  }
  return merged.map(([from, to]) => text.slice(from, to));
}

