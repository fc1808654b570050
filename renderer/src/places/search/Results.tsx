import type { ReactElement } from 'react';
import type { SearchHit, SearchSession } from '../../../../core/api/index.js';
import { conversationName, formatCount, formatDateTime, formatRelativeTime, parentKindWords, providerLabel } from '../../components/index.js';
import { sessionHref } from '../../navigation.js';
import { moreLikeIt } from '../../../../core/api/reading.js';
import { Highlighted } from './Highlighted.js';
import { hitLabel } from './sentences.js';

/** The part opened last: Back returns to the results with it focused again. */
let lastOpened: string | undefined;

/** The part opened last, once: the results focus it after Back, then forget it. */
export function takeLastOpened(): string | undefined {
  const part = lastOpened;
  lastOpened = undefined;
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
            <a className="search-hit" href={sessionHref(sessionId, hit.partId)} data-hit="" data-part={hit.partId} onClick={() => (lastOpened = hit.partId)}>
              <span className="search-hit__who">
                {hitLabel(hit, session?.parentKind === 'subagent', session?.app ?? providerLabel(hit.provider))}
                {hit.ts !== null && <time dateTime={new Date(hit.ts).toISOString()}> · {formatDateTime(hit.ts)}</time>}
              </span>
              {hit.summary !== null && <span className="search-hit__summary">{hit.summary}</span>}
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

