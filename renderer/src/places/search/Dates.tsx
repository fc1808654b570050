import { useRef, useState, type FormEvent, type ReactElement } from 'react';
import { Button } from '../../components/index.js';
import { dayOf, withDates, type SearchFilters } from './filters.js';

/** The earliest day a search reaches (range.ts refuses one before it, typed or picked). */
const FIRST_DAY = '1970-01-01';

/**
 * Dates… folded once its dates are shown. The button that showed them goes with the form, and the focus
 * fell to the page's top (<body>): it waits on the fold's summary, where the person opens it again.
 */
export function foldAway(fold: Pick<HTMLDetailsElement, 'open' | 'querySelector'> | null): void {
  if (!fold) return;
  fold.open = false;
  fold.querySelector('summary')?.focus();
}

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
    foldAway(fold.current);
    go(chosen.filters);
  };
  return (
    <details className="search-dates" ref={fold}>
      <summary>Dates…</summary>
      {/* Keyed by the range shown: another address (a typed range, Back) puts its own days in the inputs. */}
      <form key={`${filters.from ?? ''}|${filters.to ?? ''}`} className="search-dates__form" onSubmit={apply} onChange={() => setProblem(undefined)}>
        <label>
          <span>From</span>
          <input className="input" type="date" name="from" min={FIRST_DAY} defaultValue={dayOf(filters.from)} aria-invalid={problem !== undefined} />
        </label>
        <label>
          <span>To</span>
          <input className="input" type="date" name="to" min={FIRST_DAY} defaultValue={dayOf(filters.to)} aria-invalid={problem !== undefined} />
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
