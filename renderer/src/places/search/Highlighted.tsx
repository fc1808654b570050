import { Fragment, type ReactElement } from 'react';

/** A snippet with its matches marked; the ranges are [start, end) offsets into the text. */
export function Highlighted({ text, ranges }: { text: string; ranges: ReadonlyArray<readonly [number, number]> }): ReactElement {
  const pieces: ReactElement[] = [];
  let at = 0;
  for (const [start, end] of [...ranges].sort((a, b) => a[0] - b[0])) {
    if (start < at || end > text.length) continue;
    if (start > at) pieces.push(<Fragment key={`t${at}`}>{text.slice(at, start)}</Fragment>);
    pieces.push(<mark key={`m${start}`}>{text.slice(start, end)}</mark>);
    at = end;
  }
  if (at < text.length) pieces.push(<Fragment key={`t${at}`}>{text.slice(at)}</Fragment>);
  return <>{pieces}</>;
}
