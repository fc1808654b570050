import type { ReactElement, ReactNode } from 'react';
import './panel.css';

/** A titled surface that groups related content within a place. */
export function Panel({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }): ReactElement {
  return (
    <section className="panel" aria-label={title}>
      <header className="panel__header">
        <h2 className="panel__title">{title}</h2>
        {actions !== undefined && <div className="panel__actions">{actions}</div>}
      </header>
      <div className="panel__body">{children}</div>
    </section>
  );
}
