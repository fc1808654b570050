import { Fragment, type ReactElement } from 'react';
import './path-text.css';

/**
 * A file system path that wraps at its separators rather than overflowing or breaking inside a name:
 * a word-break opportunity follows every `/` and `\\`.
 */
export function PathText({ path }: { path: string }): ReactElement {
  const pieces = path.split(/(?<=[/\\])/);
  return (
    <code className="path-text" data-path="">
      {pieces.map((piece, i) => (
        <Fragment key={i}>
          {piece}
          {i < pieces.length - 1 && <wbr />}
        </Fragment>
      ))}
    </code>
  );
}
