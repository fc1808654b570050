import type { ReactElement } from 'react';
import type { SessionPart } from '../../../../core/api/index.js';
import { MarkdownText, SecretText } from '../../components/index.js';
import { CUT_GAP, foldLine, imagesWords, isCompactionSummary, partFold, resultImageLines, thoughtAfterLine } from '../../../../core/api/part-words.js';
import { EMPTY_MESSAGE_KIND } from '../../../../core/api/reading.js';
import { cutSentence, gapIn, gapWords, type HarnessFold } from './reading.js';
import { prettyJson } from './pretty-json.js';
import { secretsIn, type Range } from './secret-marks.js';

/**
 * Where the secrets are in a part's text, when they are shown as written: Sessions.Get's `secrets`;
 * null when it did not say (each text is then marked whole); undefined when read redacted.
 */
type Places = readonly Range[] | null | undefined;

/** Where the secrets of the part's text (at `places`) are in `shown`, the text itself or one derived from it. */
function marksIn(shown: string | null, part: SessionPart, places: Places): Range[] {
  if (places === undefined || !shown) return [];
  if (places === null) return [[0, shown.length]];
  return secretsIn(shown, part.text ?? '', places);
}

/** What a fold shows: its label, its one line and its body. */
interface Folded {
  label: string;
  summary: string | null;
  text: string;
  /** Where the body's secrets are, when it is printed from the text (a tool call's JSON) rather than a piece of it. */
  textMarks?: Range[];
}

/** How a part folds, with the fold the app's words get (`harness`) and where its text's secrets are (`places`). */
type FoldOf = (part: SessionPart, harness: HarnessFold | undefined, places: Places) => Folded;

/**
 * Tool calls, their results and thinking fold to one line; the hit opens its fold. `note`: a fact the
 * body opens with. Secrets shown as written are marked where Sessions.Get placed them (`places`).
 */
function Fold({ kind, fold, part, harness, places, open, error, note, images = [] }: { kind: string; fold: FoldOf; part: SessionPart; harness: HarnessFold | undefined; places: Places; open: boolean; error?: boolean; note?: string; images?: readonly string[] }): ReactElement {
  const { label, summary, text, textMarks } = fold(part, harness, places);
  // A result of only images (a screenshot) has no output to show above them.
  const body = text !== '' || images.length === 0;
  return (
    <details className={`fold fold--${kind}${error ? ' fold--error' : ''}`} open={open}>
      <summary>
        <span className="fold__label">{label}</span>{' '}
        <span className="fold__summary">{summary !== null && <SecretText text={summary} ranges={marksIn(summary, part, places)} />}</span>
        {/* Images beside an output are counted on the folded line too: a screenshot is not hidden behind its caption. */}
        {text !== '' && (part.images ?? 0) > 0 && <span className="fold__beside"> · {imagesWords(part.images ?? 0)}</span>}
      </summary>
      {note !== undefined && <p className="fold__note">{note}</p>}
      {body && (
        <pre className="fold__body">
          <CutText text={text} ranges={textMarks ?? marksIn(text, part, places)} part={part} />
        </pre>
      )}
      {images.length > 0 && (
        <div className="fold__images">
          {images.map((line, i) => (
            // A placeholder as an image part's is, in the same words ("Image · PNG, 34 KB").
            <ImageNote key={i} line={line} label={line.replace(' · ', ', ')} />
          ))}
        </div>
      )}
    </details>
  );
}

/**
 * A fold's body as written, with a divider where a result cut at both ends had its middle left out
 * (the gap line its text holds there, gapIn): the secrets on either side stay marked where they are.
 */
function CutText({ text, ranges, part }: { text: string; ranges: readonly Range[]; part: SessionPart }): ReactElement {
  const kept = part.truncatedKept;
  const at = kept && part.truncatedFrom !== null ? gapIn(text, kept) : null;
  if (at === null || !kept || part.truncatedFrom === null) return <SecretText text={text} ranges={ranges} />;
  const end = at + CUT_GAP.length;
  const before = ranges.filter(([start]) => start < at).map(([start, stop]): Range => [start, Math.min(stop, at)]);
  const after = ranges.filter(([, stop]) => stop > end).map(([start, stop]): Range => [Math.max(start, end) - end, stop - end]);
  const words = gapWords(part.truncatedFrom, kept);
  return (
    <>
      <SecretText text={text.slice(0, at)} ranges={before} />
      {/* A separator's own text is hidden from screen readers: its label says it to them too. */}
      <span className="fold__gap" role="separator" aria-label={words}>
        {words}
      </span>
      <SecretText text={text.slice(end)} ranges={after} />
    </>
  );
}

/** What Steward keeps of an image, said where its placeholder stands (the image itself is never stored). */
const IMAGE_KEPT = 'Steward keeps only the image’s type and size, not the image itself.';

/**
 * An image's placeholder ("Image · PNG, 34 KB"): a note, not a thumbnail (nothing to open or click),
 * its tooltip and description saying why there is no image to show.
 */
function ImageNote({ line, label }: { line: string; label: string }): ReactElement {
  return (
    <p className="part__image" role="img" aria-label={label} title={IMAGE_KEPT} aria-description={IMAGE_KEPT}>
      {line}
    </p>
  );
}

const asText: FoldOf = (part) => ({ ...partFold(part), text: part.text ?? '' });
/** A thought that opens with its subject (Gemini CLI's), which the folded line says: the body goes on after it. */
const asTitledThought: FoldOf = (part) => ({ ...partFold(part), text: thoughtAfterLine(part) });
/** A call's input pretty-printed, its secrets carried to where the print shows them. */
const asToolCall: FoldOf = (part, _harness, places) => {
  const pretty = prettyJson(part.text, places ?? []);
  return { ...partFold(part), text: pretty.text, ...(places ? { textMarks: pretty.secrets } : {}) };
};
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
 * `asWritten`: secrets are shown as written, each marked where Sessions.Get placed it (the part's
 * `secrets`); a part it did not place them in is marked whole, so a secret is never shown unmarked.
 * `titledThoughts`: its agent's thoughts open with their subject (Gemini CLI's), said once, on the folded line.
 */
export function PartView({
  part,
  role,
  hit,
  harness,
  asWritten = false,
  titledThoughts = false,
}: {
  part: SessionPart;
  role: string | null;
  hit: boolean;
  harness: HarnessFold | undefined;
  asWritten?: boolean;
  titledThoughts?: boolean;
}): ReactElement {
  let body: ReactElement;
  const places: Places = asWritten ? (part.secrets ?? null) : undefined;
  const folds = { part, harness, places, open: hit };
  const textSecrets = () => marksIn(part.text, part, places);
  // A compaction summary folds one way whichever agent stored it (Claude Code's user text, another's part).
  const kind = isCompactionSummary(part) ? 'summary' : part.kind;
  switch (kind) {
    case 'summary':
      body = <Fold kind={kind} fold={asText} {...folds} />;
      break;
    case 'thinking':
      body = <Fold kind={kind} fold={titledThoughts ? asTitledThought : asText} {...folds} />;
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
      // After its exit code when it has one; its images (a screenshot) under its output, folded with it.
      body = <Fold kind="result" fold={asResult} {...folds} error={part.isError} note={part.exitCode !== undefined ? `Exit code ${part.exitCode}` : undefined} images={resultImageLines(part.images ?? 0, part.resultImages)} />;
      break;
    case 'image': {
      // Its type and size in part-words' words ("Image · PNG, 12 KB"), as the CLI and MCP say them.
      const fold = partFold(part);
      body = <ImageNote line={foldLine(fold)} label={`${fold.label}, ${fold.summary}`} />;
      break;
    }
    case EMPTY_MESSAGE_KIND:
      // A message of texts with no words (reading.ts's joinedContext): said in one line, nothing to unfold.
      body = <p className="part__empty">{foldLine(partFold(part))}</p>;
      break;
    default:
      // Said in the reader's words (core/api/part-words.ts), never by the kind's name.
      body = <Fold kind="other" fold={asText} {...folds} />;
  }
  return (
    <div id={`part-${part.partId}`} className={`part part--${part.kind}${hit ? ' part--hit' : ''}`} data-part={part.partId} tabIndex={hit ? -1 : undefined}>
      {body}
      {part.truncatedFrom !== null && <p className="part__cut">{cutSentence(part.text?.length ?? 0, part.truncatedFrom, part.truncatedKept)}</p>}
    </div>
  );
}
