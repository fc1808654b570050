import type { ReactElement, ReactNode } from 'react';
import './glossary.css';

/**
 * One line that explains a word from the specs where the panel must use it ("retention window",
 * "scratch project"): the word set as a definition, then what it means in plain words.
 */
export function Glossary({ term, children }: { term: string; children: ReactNode }): ReactElement {
  return (
    <p className="glossary">
      <dfn>{term}</dfn>: {children}
    </p>
  );
}
