import type { ReactElement, ReactNode } from 'react';
import './detail-list.css';

export interface Detail {
  term: string;
  value: ReactNode;
}

/** Label/value pairs (a description list) for facts such as versions and settings. */
export function DetailList({ items, label }: { items: readonly Detail[]; label?: string }): ReactElement {
  return (
    <dl className="detail-list" aria-label={label}>
      {items.map((item) => (
        <div className="detail-list__row" key={item.term}>
          <dt>{item.term}</dt>
          <dd>{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}
