import type { ReactElement } from 'react';
import Markdown from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { markSecrets } from './markdown-secrets.js';
import './markdown-text.css';

/** GitHub's flavour, as agents and notes write it: tables, task lists, strikethrough, bare links. */
const PLUGINS = [remarkGfm];

/**
 * Markdown as written, never raw HTML: any HTML in the text is dropped, never run. `secrets`: where in
 * `text` the secrets the person asked to see are ([start, end) offsets), each marked as one.
 */
export function MarkdownText({ text, secrets = [] }: { text: string; secrets?: ReadonlyArray<readonly [number, number]> }): ReactElement {
  return (
    <div className="markdown-text">
      <Markdown skipHtml remarkPlugins={secrets.length > 0 ? [...PLUGINS, markSecrets(text, secrets)] : PLUGINS}>
        {text}
      </Markdown>
    </div>
  );
}
