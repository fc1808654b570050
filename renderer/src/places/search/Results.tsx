import type { ReactElement } from 'react';
import type { SearchHit, SearchSession } from '../../../../core/api/index.js';
import { conversationName, formatCount, formatDateTime, formatRelativeTime, parentKindWords, providerLabel } from '../../components/index.js';
import { opensHere, sessionHref, type Click } from '../../navigation.js';
import { moreLikeIt } from '../../../../core/api/reading.js';
import { Highlighted } from './Highlighted.js';
import { hitLabel } from './sentences.js';

/**
 * The match opened from a search is kept in the search's own history entry (`history.state`), not in the
 * page's script: Back finds it there after the conversation was reloaded too (QA: the pages then came
 * back at their top, the focus on the page's body), and only Back to that search focuses it.
 */
const OPENED = 'searchOpened';

type Entry = Pick<History, 'state' | 'replaceState'>;

const stateOf = (entry: Entry): Record<string, unknown> => (typeof entry.state === 'object' && entry.state !== null ? (entry.state as Record<string, unknown>) : {});

/** Opening a match: the entry shown (the search) remembers it, beside whatever else it holds; its address stays. */
export function rememberOpened(partId: string, entry: Entry = window.history): void {
  entry.replaceState({ ...stateOf(entry), [OPENED]: partId }, '');
}

/** A match opened in this tab (not in a new tab or window, which leaves the search where it is) is remembered. */
export function hitOpened(event: Click, partId: string, entry: Entry = window.history): void {
  if (opensHere(event)) rememberOpened(partId, entry);
}

/** The match opened from the search shown, once: the results focus it after Back, and the entry forgets it. */
export function takeLastOpened(entry: Entry = window.history): string | undefined {
  const { [OPENED]: part, ...rest } = stateOf(entry);
  if (typeof part !== 'string') return undefined;
  entry.replaceState(rest, '');
  return part;
}

export function SessionGroup({ session, sessionId, hits }: { session: SearchSession | undefined; sessionId: string; hits: SearchHit[] }): ReactElement {
  const title = session ? conversationName(session) : 'Untitled conversation';
  return (
    <li className="search-group">
      <h3 className="search-group__title">
        <a href={sessionHref(sessionId)} className="search-group__link">
          {title}
        </a>
      </h3>
      <p className="search-group__meta">
        {[session?.projectName ?? 'No project', session?.app ?? providerLabel(hits[0]!.provider), parentKindWords(session?.parentKind ?? null)].filter(Boolean).join(' · ')}
        {session?.lastAt != null && (
          <>
            {' · '}
            <time dateTime={new Date(session.lastAt).toISOString()}>{formatRelativeTime(session.lastAt)}</time>
          </>
        )}
      </p>
      <ul className="search-hits">
        {hits.map((hit) => (
          <li key={hit.partId}>
            <a className="search-hit" href={sessionHref(sessionId, hit.partId)} data-hit="" data-part={hit.partId} onClick={(event) => hitOpened(event, hit.partId)}>
              <span className="search-hit__who">
                {hitLabel(hit, session?.parentKind === 'subagent', session?.app ?? providerLabel(hit.provider))}
                {hit.ts !== null && <time dateTime={new Date(hit.ts).toISOString()}> · {formatDateTime(hit.ts)}</time>}
              </span>
              {hit.summary !== null && (
                <span className="search-hit__summary">
                  <Highlighted text={hit.summary} ranges={hit.summaryHighlights ?? []} />
                </span>
              )}
              <span className="search-hit__snippet">
                <Highlighted text={hit.snippet} ranges={hit.highlights} />
              </span>
              {hit.alike !== undefined && <span className="search-hit__alike">{moreLikeIt(hit.alike, formatCount)}</span>}
            </a>
          </li>
        ))}
      </ul>
    </li>
  );
}

