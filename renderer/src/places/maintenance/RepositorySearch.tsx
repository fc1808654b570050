import { useId, useState, type FormEvent, type ReactElement } from 'react';
import type { SearchDegraded } from '../../../../core/api/index.js';
import { Button, ErrorBanner, formatRelativeTime } from '../../components/index.js';
import { useAction } from '../../hooks.js';
import './repository-search.css';

/** Why a search used words only, in the panel's words (the contract types the list, so none is missed). */
const WORDS_ONLY: Record<SearchDegraded, string> = {
  no_embedder: 'This repository is searched by words only: its profile has no embedder.',
  not_indexed: 'Searching by words only: nothing is indexed by meaning yet.',
  profile_changed: 'Searching by words only: the embedding profile changed and the new one has not finished indexing.',
  not_covered: 'Searching by words only: new content has not been indexed by meaning yet. The next reconcile does it.',
  boundary_refused: "Searching by words only: this profile would send text beyond what this repository's policy allows.",
  embedder_unavailable: 'Searching by words only: the embedder did not answer.',
};

const COLLECTION_LABELS: Record<string, string> = {
  issues: 'Issue',
  'issue-comments': 'Comment',
  pulls: 'Pull request',
  'pr-comments': 'Review comment',
  wiki: 'Wiki',
  documents: 'Document',
};

/** A search box for one repository cache: ranked hits with snippets and links to the forge. */
export function RepositorySearch({ repo }: { repo: string }): ReactElement {
  const inputId = useId();
  const search = useAction('Repository.Search');
  const [query, setQuery] = useState('');
  // The query the shown answer is for (one search at a time: the button waits while one runs).
  const [asked, setAsked] = useState('');
  const busy = search.busy;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const q = query.trim();
    if (q === '' || busy) return;
    setAsked(q);
    void search.run({ repo, query: q, limit: 10 });
  };
  const answer = search.data ? { query: asked, result: search.data } : undefined;

  return (
    <section className="repo-search" aria-label={`Search ${repo}`}>
      <form className="repo-search__form" role="search" onSubmit={submit}>
        <label className="visually-hidden" htmlFor={inputId}>
          Search {repo}
        </label>
        <input
          id={inputId}
          className="input repo-search__input"
          type="search"
          value={query}
          maxLength={500}
          placeholder="Search issues, pull requests, comments and wiki"
          onChange={(e) => setQuery(e.currentTarget.value)}
        />
        <Button type="submit" disabled={busy || query.trim() === ''}>
          {busy ? 'Searching…' : 'Search'}
        </Button>
      </form>
      <ErrorBanner title="The search did not work." error={search.error} />
      {answer && (
        <div className="repo-search__results" aria-live="polite">
          {answer.result.degraded && (
            <p className="repo-search__note" role="status">
              {WORDS_ONLY[answer.result.degraded]}
            </p>
          )}
          {answer.result.hits.length === 0 ? (
            <p className="repo-search__empty">Nothing in {repo} matches &ldquo;{answer.query}&rdquo;.</p>
          ) : (
            <ol className="repo-search__hits" data-testid="search-hits">
              {answer.result.hits.map((h, i) => (
                <li key={`${h.collection}:${h.url ?? h.title}:${i}`} className="repo-search__hit">
                  <div className="repo-search__title">
                    {h.url ? (
                      <a href={h.url} target="_blank" rel="noreferrer noopener">
                        {h.title}
                      </a>
                    ) : (
                      <span>{h.title}</span>
                    )}
                  </div>
                  <div className="repo-search__meta">
                    {COLLECTION_LABELS[h.collection] ?? h.collection}
                    {h.number !== null && ` #${h.number}`}
                    {h.state && ` · ${h.state}`}
                    {h.author && ` · ${h.author}`}
                    {h.updatedAt !== null && ` · updated ${formatRelativeTime(h.updatedAt)}`}
                    {` · matched by ${h.matchedBy.map((m) => (m === 'words' ? 'words' : 'meaning')).join(' and ')}`}
                  </div>
                  {h.snippet && <p className="repo-search__snippet">{h.snippet}</p>}
                </li>
              ))}
            </ol>
          )}
        </div>
      )}
    </section>
  );
}
