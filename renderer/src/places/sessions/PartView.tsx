import type { ReactElement } from 'react';
import type { SessionPart } from '../../../../core/api/index.js';
import { formatBytes, MarkdownText } from '../../components/index.js';
import { cutSentence, type HarnessFold } from './reading.js';

function prettyJson(text: string | null): string {
  if (text === null) return '';
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** Tool calls, their results and thinking fold to one line; the hit opens its fold. */
function Fold({ kind, label, summary, text, open, error }: { kind: string; label: string; summary: string | null; text: string; open: boolean; error?: boolean }): ReactElement {
  return (
    <details className={`fold fold--${kind}${error ? ' fold--error' : ''}`} open={open}>
      <summary>
        <span className="fold__label">{label}</span> <span className="fold__summary">{summary}</span>
      </summary>
      <pre className="fold__body">{text}</pre>
    </details>
  );
}

/**
 * One part of a message: text as written (Markdown from the assistant), the rest folded or as a
 * placeholder. `harness`: the text is not its author's words but the app's, and folds as what it is.
 */
export function PartView({ part, role, hit, harness }: { part: SessionPart; role: string | null; hit: boolean; harness: HarnessFold | undefined }): ReactElement {
  let body: ReactElement;
  switch (part.kind) {
    case 'text':
      body = harness ? (
        <Fold kind="harness" label={harness.label} summary={harness.summary} text={part.text ?? ''} open={hit} />
      ) : role === 'assistant' ? (
        <div className="part__markdown">
          <MarkdownText text={part.text ?? ''} />
        </div>
      ) : (
        <p className="part__text">{part.text}</p>
      );
      break;
    case 'thinking':
      body = <Fold kind="thinking" label="Thinking" summary={part.summary} text={part.text ?? ''} open={hit} />;
      break;
    case 'tool_use':
      body = <Fold kind="tool" label={`Tool call`} summary={part.summary} text={prettyJson(part.text)} open={hit} />;
      break;
    case 'tool_result':
      body = <Fold kind="result" label={part.isError ? 'Failed' : 'Result'} summary={part.summary} text={part.text ?? ''} open={hit} error={part.isError} />;
      break;
    case 'image':
      body = (
        <p className="part__image" role="img" aria-label={`Image${part.image?.mediaType ? `, ${part.image.mediaType}` : ''}, ${formatBytes(part.image?.bytes ?? 0)}`}>
          Image{part.image?.mediaType ? ` · ${part.image.mediaType}` : ''} · {formatBytes(part.image?.bytes ?? 0)}
        </p>
      );
      break;
    default:
      body = <Fold kind="other" label={part.kind} summary={part.summary} text={part.text ?? ''} open={hit} />;
  }
  return (
    <div id={`part-${part.partId}`} className={`part part--${part.kind}${hit ? ' part--hit' : ''}`} data-part={part.partId} tabIndex={hit ? -1 : undefined}>
      {body}
      {part.truncatedFrom !== null && <p className="part__cut">{cutSentence(part.text?.length ?? 0, part.truncatedFrom)}</p>}
    </div>
  );
}
