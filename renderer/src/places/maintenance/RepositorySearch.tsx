import { useId, useState, type FormEvent, type ReactElement } from 'react';
import { Button, ErrorBanner, formatRelativeTime } from '../../components/index.js';
import { useAction } from '../../hooks.js';
import { CLOSEST_IN_MEANING } from '../../../../core/api/maintenance-words.js';
import { hitKindWords, wordsOnlyWords } from './repository-hit-words.js';
import './repository-search.css';

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
              {wordsOnlyWords(answer.result)}
            </p>
          )}
          {answer.result.hits.length > 0 && answer.result.wordMatches === 0 && (
            <p className="repo-search__note" role="status">
              {CLOSEST_IN_MEANING}
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
                    {hitKindWords(h)}
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
