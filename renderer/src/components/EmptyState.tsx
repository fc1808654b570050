import { useId, type ReactElement, type ReactNode } from 'react';
import { Icon, type IconName } from './Icon.js';
import './empty-state.css';

export interface EmptyStateProps {
  icon: IconName;
  title: string;
  /** What will appear here, and why there is nothing yet. */
  children: ReactNode;
  /** A next step, usually a command: rendered as a code line the user can copy. */
  command?: string;
  commandLabel?: string;
  /** `good` says the emptiness itself is the healthy state (e.g. no conflicts). */
  tone?: 'neutral' | 'good';
  /** `compact` sits beside other content in a place; `full` (default) is the place's main message. */
  size?: 'full' | 'compact';
  action?: ReactNode;
}

export function EmptyState({ icon, title, children, command, commandLabel, tone = 'neutral', size = 'full', action }: EmptyStateProps): ReactElement {
  const titleId = useId();
  return (
    <section className={`empty-state empty-state--${tone} empty-state--${size}`} aria-labelledby={titleId} data-testid="empty-state">
      <div className="empty-state__icon">
        <Icon name={icon} />
      </div>
      <h2 id={titleId} className="empty-state__title">{title}</h2>
      <div className="empty-state__body">{children}</div>
      {command !== undefined && (
        <div className="empty-state__command">
          {commandLabel !== undefined && <span className="empty-state__command-label">{commandLabel}</span>}
          <code>{command}</code>
        </div>
      )}
      {action !== undefined && <div className="empty-state__action">{action}</div>}
    </section>
  );
}
