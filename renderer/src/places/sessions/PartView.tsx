import type { ReactElement } from 'react';
import type { SessionPart } from '../../../../core/api/index.js';
import { MarkdownText, SecretText } from '../../components/index.js';
import { foldLine, isCompactionSummary, partFold } from '../../../../core/api/part-words.js';
import { cutSentence, type HarnessFold } from './reading.js';
import { secretRanges, type Range } from './secret-ranges.js';

/**
 * The same part as the secrets module redacted it, with its fold, when secrets are shown: it tells
 * where they are. null: shown as written without it (it could not be loaded); undefined: read redacted.
 */
export type Twin = { part: SessionPart; harness: HarnessFold | undefined } | null | undefined;

/** Where the secrets are in `shown`, the text `of` gives for the part, by the twin's (see Twin). */
function secretsIn(shown: string | null, twin: Twin, of: (part: SessionPart, harness: HarnessFold | undefined) => string | null): Range[] {
  if (twin === undefined || !shown) return [];
  if (twin === null) return [[0, shown.length]];
  return secretRanges(shown, of(twin.part, twin.harness) ?? '');
}

/** What a fold shows: its label, its one line and its body. */
interface Folded {
  label: string;
  summary: string | null;
  text: string;
}

/** How a part (the shown one or its redacted twin) folds, with the fold the app's words get (`harness`). */
type FoldOf = (part: SessionPart, harness: HarnessFold | undefined) => Folded;

/**
 * Tool calls, their results and thinking fold to one line; the hit opens its fold. `note`: a fact the
 * body opens with. Secrets shown as written are marked where the twin's fold has them redacted.
 */
function Fold({ kind, fold, part, harness, twin, open, error, note }: { kind: string; fold: FoldOf; part: SessionPart; harness: HarnessFold | undefined; twin: Twin; open: boolean; error?: boolean; note?: string }): ReactElement {
  const { label, summary, text } = fold(part, harness);
  return (
    <details className={`fold fold--${kind}${error ? ' fold--error' : ''}`} open={open}>
      <summary>
        <span className="fold__label">{label}</span>{' '}
        <span className="fold__summary">{summary !== null && <SecretText text={summary} ranges={secretsIn(summary, twin, (p, h) => fold(p, h).summary)} />}</span>
      </summary>
      {note !== undefined && <p className="fold__note">{note}</p>}
      <pre className="fold__body">
        <SecretText text={text} ranges={secretsIn(text, twin, (p, h) => fold(p, h).text)} />
      </pre>
    </details>
  );
}

function prettyJson(text: string | null): string {
  if (text === null) return '';
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

const asText: FoldOf = (part) => ({ ...partFold(part), text: part.text ?? '' });
const asToolCall: FoldOf = (part) => ({ ...partFold(part), text: prettyJson(part.text) });
const asHarness: FoldOf = (part, harness) => ({ label: harness?.label ?? '', summary: harness?.summary ?? null, text: part.text ?? '' });
/** A result reads as its output (a Codex wrapper's, not the JSON it came in). */
const asResult: FoldOf = (part) => ({
  label: part.isError ? 'Failed' : partFold(part).label,
  // The label says it failed; a summary that opens with the same word ("failed: Error …") says it once.
  summary: part.isError ? (part.summary?.replace(/^failed: /, '') ?? null) : part.summary,
  text: part.output ?? part.text ?? '',
});

/**
 * One part of a message: text as written (Markdown from the assistant), the rest folded or as a
 * placeholder. `harness`: the text is not its author's words but the app's, and folds as what it is.
 * `twin`: secrets are shown as written, and each is marked where the twin has it redacted (see Twin).
 */
export function PartView({ part, role, hit, harness, twin }: { part: SessionPart; role: string | null; hit: boolean; harness: HarnessFold | undefined; twin?: Twin }): ReactElement {
  let body: ReactElement;
  const folds = { part, harness, twin, open: hit };
  const textSecrets = () => secretsIn(part.text, twin, (p) => p.text);
  // A compaction summary folds one way whichever agent stored it (Claude Code's user text, another's part).
  const kind = isCompactionSummary(part) ? 'summary' : part.kind;
  switch (kind) {
    case 'summary':
    case 'thinking':
      body = <Fold kind={kind} fold={asText} {...folds} />;
      break;
    case 'text':
      body = harness ? (
        <Fold kind="harness" fold={asHarness} {...folds} />
      ) : role === 'assistant' ? (
        <div className="part__markdown">
          <MarkdownText text={part.text ?? ''} secrets={textSecrets()} />
        </div>
      ) : (
        <p className="part__text">
          <SecretText text={part.text ?? ''} ranges={textSecrets()} />
        </p>
      );
      break;
    case 'tool_use':
      body = <Fold kind="tool" fold={asToolCall} {...folds} />;
      break;
    case 'tool_result':
      // After its exit code when it has one.
      body = <Fold kind="result" fold={asResult} {...folds} error={part.isError} note={part.exitCode !== undefined ? `Exit code ${part.exitCode}` : undefined} />;
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
      body = <Fold kind="other" fold={asText} {...folds} />;
  }
  return (
    <div id={`part-${part.partId}`} className={`part part--${part.kind}${hit ? ' part--hit' : ''}`} data-part={part.partId} tabIndex={hit ? -1 : undefined}>
      {body}
      {part.truncatedFrom !== null && <p className="part__cut">{cutSentence(part.text?.length ?? 0, part.truncatedFrom)}</p>}
    </div>
  );
}
