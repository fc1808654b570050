import type { ReactElement, ReactNode } from 'react';

/** What a screen reader says before a secret shown as written, so a person sharing their screen hears it too. */
export const SECRET_LABEL = 'secret, shown because you asked';

/**
 * A secret the person asked to see, marked as one: a highlight the eye catches on a shared screen,
 * and words said before it. The words are not selectable, so copying the secret copies it alone.
 */
export function SecretMark({ children }: { children: ReactNode }): ReactElement {
  return (
    <mark className="secret-mark">
      <span className="visually-hidden secret-mark__label">{SECRET_LABEL}: </span>
      {children}
    </mark>
  );
}

/** `text` with its secrets marked; `ranges` are sorted, non-overlapping [start, end) offsets into it. */
export function SecretText({ text, ranges }: { text: string; ranges: ReadonlyArray<readonly [number, number]> }): ReactElement {
  const pieces: ReactNode[] = [];
  let at = 0;
  for (const [start, end] of ranges) {
    if (start > at) pieces.push(text.slice(at, start));
    pieces.push(<SecretMark key={start}>{text.slice(start, end)}</SecretMark>);
    at = end;
  }
  if (at < text.length) pieces.push(text.slice(at));
  return <>{pieces}</>;
}
