import type { ReactElement, ReactNode } from 'react';
import './place-header.css';

export interface PlaceHeaderProps {
  title: string;
  /** One sentence on what this place is for. */
  description: ReactNode;
  actions?: ReactNode;
}

/** Every place starts with this: the page's one h1 and a line of context. */
export function PlaceHeader({ title, description, actions }: PlaceHeaderProps): ReactElement {
  return (
    <header className="place-header">
      <div className="place-header__text">
        {/* Focusable from script only: a view that opens (a project) moves the focus to its heading. */}
        <h1 className="place-header__title" tabIndex={-1}>
          {title}
        </h1>
        <p className="place-header__description">{description}</p>
      </div>
      {actions !== undefined && <div className="place-header__actions">{actions}</div>}
    </header>
  );
}
