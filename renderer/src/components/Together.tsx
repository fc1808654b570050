import type { ReactElement, ReactNode } from 'react';

/** Words that must not be split across lines: a count and its noun ("2 messages"), a size and its unit ("69 KB"). */
export function Together({ children }: { children: ReactNode }): ReactElement {
  return <span className="together">{children}</span>;
}
