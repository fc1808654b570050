import type { ReactElement } from 'react';
import Markdown from 'react-markdown';
import remarkGfm from 'remark-gfm';
import './markdown-text.css';

/** GitHub's flavour, as agents and notes write it: tables, task lists, strikethrough, bare links. */
const PLUGINS = [remarkGfm];

/** Markdown as written, never raw HTML: any HTML in the text is dropped, never run. */
export function MarkdownText({ text }: { text: string }): ReactElement {
  return (
    <div className="markdown-text">
      <Markdown skipHtml remarkPlugins={PLUGINS}>
        {text}
      </Markdown>
    </div>
  );
}
