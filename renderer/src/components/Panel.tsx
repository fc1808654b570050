import type { ReactElement, ReactNode } from 'react';
import './panel.css';

/**
 * A titled surface that groups related content within a place. `id`: a section an address can land on
 * (placeHref's `section`); its heading then takes the focus there (useSectionLanding).
 */
export function Panel({ title, children, actions, id }: { title: string; children: ReactNode; actions?: ReactNode; id?: string }): ReactElement {
  return (
    <section className="panel" aria-label={title} id={id}>
      <header className="panel__header">
        <h2 className="panel__title" tabIndex={id === undefined ? undefined : -1}>
          {title}
        </h2>
        {actions !== undefined && <div className="panel__actions">{actions}</div>}
      </header>
      <div className="panel__body">{children}</div>
    </section>
  );
}
