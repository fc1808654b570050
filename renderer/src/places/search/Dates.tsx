import { useRef, useState, type FormEvent, type ReactElement } from 'react';
import { Button } from '../../components/index.js';
import { withDates, type SearchFilters } from './filters.js';

/** A typed end the date input can show (a whole day); a month, a time or a span shows as empty there. */
const dayOf = (text: string | undefined) => (text !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(text) ? text : '');

/**
 * Dates…: the range as two date inputs, for whoever would rather pick than type since:/until:. `go`
 * shows the search with it (Chips' go); a range that ends before it starts is said here and changes nothing.
 */
export function Dates({ filters, go }: { filters: SearchFilters; go: (to: SearchFilters) => void }): ReactElement {
  const fold = useRef<HTMLDetailsElement>(null);
  const [problem, setProblem] = useState<string>();
  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const chosen = withDates(filters, String(data.get('from') ?? ''), String(data.get('to') ?? ''));
    if ('problem' in chosen) {
      setProblem(chosen.problem);
      return;
    }
    setProblem(undefined);
    if (fold.current) fold.current.open = false;
    go(chosen.filters);
  };
  return (
    <details className="search-dates" ref={fold}>
      <summary>Dates…</summary>
      {/* Keyed by the range shown: another address (a typed range, Back) puts its own days in the inputs. */}
      <form key={`${filters.from ?? ''}|${filters.to ?? ''}`} className="search-dates__form" onSubmit={apply} onChange={() => setProblem(undefined)}>
        <label>
          <span>From</span>
          <input className="input" type="date" name="from" defaultValue={dayOf(filters.from)} aria-invalid={problem !== undefined} />
        </label>
        <label>
          <span>To</span>
          <input className="input" type="date" name="to" defaultValue={dayOf(filters.to)} aria-invalid={problem !== undefined} />
        </label>
        <Button type="submit">Show these dates</Button>
        {problem !== undefined && (
          <p className="search-form__problem search-dates__problem" role="alert">
            {problem}
          </p>
        )}
      </form>
    </details>
  );
}
