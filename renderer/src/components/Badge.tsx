import type { ReactElement, ReactNode } from 'react';
import './badge.css';

export type BadgeTone = 'neutral' | 'accent' | 'good' | 'warn' | 'danger';

/** A short state word (Synced, Stale, Conflict…). The word carries the meaning; colour only echoes it. */
export function Badge({ tone = 'neutral', children }: { tone?: BadgeTone; children: ReactNode }): ReactElement {
  return <span className={`badge badge--${tone}`}>{children}</span>;
}
