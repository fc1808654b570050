import type { ReactElement } from 'react';
import type { SessionPart } from '../../../../core/api/index.js';
import { MarkdownText } from '../../components/index.js';
import { foldLine, isCompactionSummary, partFold } from '../../../../core/api/part-words.js';
import { cutSentence, type HarnessFold } from './reading.js';

function prettyJson(text: string | null): string {
  if (text === null) return '';
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** Tool calls, their results and thinking fold to one line; the hit opens its fold. `note`: a fact the body opens with. */
function Fold({ kind, label, summary, text, open, error, note }: { kind: string; label: string; summary: string | null; text: string; open: boolean; error?: boolean; note?: string }): ReactElement {
  return (
    <details className={`fold fold--${kind}${error ? ' fold--error' : ''}`} open={open}>
      <summary>
        <span className="fold__label">{label}</span> <span className="fold__summary">{summary}</span>
      </summary>
      {note !== undefined && <p className="fold__note">{note}</p>}
      <pre className="fold__body">{text}</pre>
    </details>
  );
}

/** A result reads as its output (a Codex wrapper's, not the JSON it came in), after its exit code when it has one. */
function ResultFold({ part, open }: { part: SessionPart; open: boolean }): ReactElement {
  const note = part.exitCode !== undefined ? `Exit code ${part.exitCode}` : undefined;
  // The label says it failed; a summary that opens with the same word ("failed: Error …") says it once.
  const summary = part.isError ? (part.summary?.replace(/^failed: /, '') ?? null) : part.summary;
  return <Fold kind="result" label={part.isError ? 'Failed' : partFold(part).label} summary={summary} text={part.output ?? part.text ?? ''} open={open} error={part.isError} note={note} />;
}

/**
 * One part of a message: text as written (Markdown from the assistant), the rest folded or as a
 * placeholder. `harness`: the text is not its author's words but the app's, and folds as what it is.
 */
export function PartView({ part, role, hit, harness }: { part: SessionPart; role: string | null; hit: boolean; harness: HarnessFold | undefined }): ReactElement {
  let body: ReactElement;
  // A compaction summary folds one way whichever agent stored it (Claude Code's user text, another's part).
  const kind = isCompactionSummary(part) ? 'summary' : part.kind;
  switch (kind) {
    case 'summary':
      body = <Fold kind="summary" {...partFold(part)} text={part.text ?? ''} open={hit} />;
      break;
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
      body = <Fold kind="thinking" {...partFold(part)} text={part.text ?? ''} open={hit} />;
      break;
    case 'tool_use':
      body = <Fold kind="tool" {...partFold(part)} text={prettyJson(part.text)} open={hit} />;
      break;
    case 'tool_result':
      body = <ResultFold part={part} open={hit} />;
      break;
    case 'image': {
      // Its type and size in part-words' words ("Image · PNG, 12 KB"), as the CLI and MCP say them.
      const fold = partFold(part);
      body = (
        <p className="part__image" role="img" aria-label={`${fold.label}, ${fold.summary}`}>
          {foldLine(fold)}
        </p>
      );
      break;
    }
    default:
      // Said in the reader's words (core/api/part-words.ts), never by the kind's name.
      body = <Fold kind="other" {...partFold(part)} text={part.text ?? ''} open={hit} />;
  }
  return (
    <div id={`part-${part.partId}`} className={`part part--${part.kind}${hit ? ' part--hit' : ''}`} data-part={part.partId} tabIndex={hit ? -1 : undefined}>
      {body}
      {part.truncatedFrom !== null && <p className="part__cut">{cutSentence(part.text?.length ?? 0, part.truncatedFrom)}</p>}
    </div>
  );
}
