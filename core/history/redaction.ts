import type { SessionMessage } from '../api/index.js';
import { turn, type OrderedPart } from '../gateway/index.js';
import type { Redactor } from '../secrets/index.js';
import { oneLine } from './messages.js';

/**
 * Characters of text per secretlint pass: one pass over many texts costs a fraction of a pass per
 * text (0.18 ms a part instead of 0.47, measured), and 32 KiB keeps a pass near 10 ms.
 */
const REDACT_BATCH_CHARS = 32 * 1024;
/** A first request as lists show it. */
export const FIRST_REQUEST_CHARS = 300;

/**
 * `run` over texts many to a secretlint pass (see REDACT_BATCH_CHARS), with a turn of the event loop
 * after each pass: a long conversation never holds the loop, and is not linted a text at a time.
 * Empty and absent texts are not run: they keep `none`.
 */
async function inBatches<T>(texts: ReadonlyArray<string | null>, run: (batch: string[]) => Promise<T[]>, none: (text: string | null) => T): Promise<T[]> {
  const out = texts.map(none);
  let batch: number[] = [];
  let chars = 0;
  const flush = async () => {
    const done = await run(batch.map((i) => texts[i]!));
    batch.forEach((at, i) => (out[at] = done[i] ?? none('')));
    batch = [];
    chars = 0;
    await turn();
  };
  for (const [i, text] of texts.entries()) {
    if (text === null || text === '') continue;
    batch.push(i);
    chars += text.length;
    if (chars >= REDACT_BATCH_CHARS) await flush();
  }
  if (batch.length > 0) await flush();
  return out;
}

/** Texts redacted many to a secretlint pass (see inBatches). */
export function redactAll(texts: ReadonlyArray<string | null>, redactor: Redactor): Promise<Array<string | null>> {
  return inBatches(texts, (batch) => redactor.redactMany(batch), (text) => (text === null ? null : ''));
}

/**
 * Parts as written, each with where redaction finds its secrets (`secrets`, offsets into its text),
 * by the secrets module's own rule: the panel marks them without reading the page twice.
 */
export async function markSecrets(messages: readonly SessionMessage[], redactor: Redactor): Promise<SessionMessage[]> {
  const parts = messages.flatMap((m) => m.parts);
  const spans = await inBatches(
    parts.map((p) => p.text),
    (batch) => redactor.secretsMany(batch),
    (): Array<[number, number]> => [],
  );
  const of = new Map(parts.map((part, i) => [part, spans[i] ?? []]));
  return messages.map((m) => ({ ...m, parts: m.parts.map((part) => ({ ...part, secrets: of.get(part) ?? [] })) }));
}

/** Parts with their text redacted: what is derived and cut from a text (summaries) is cut from this. */
export async function redactParts(parts: readonly OrderedPart[], redactor: Redactor): Promise<OrderedPart[]> {
  const texts = await redactAll(
    parts.map((p) => p.text),
    redactor,
  );
  return parts.map((part, i) => ({ ...part, text: texts[i] ?? null }));
}

/** A conversation's labels as an outside reader gets them. */
export interface Labels {
  title: string | null;
  firstRequest: string | null;
}

/**
 * Titles and first requests redacted, each request before it is cut to one line: redacting the cut
 * line would miss a key the cut shortened, which no longer looks like one.
 */
export async function redactLabels(labels: ReadonlyArray<{ title: string | null; firstText: string | null }>, redactor: Redactor): Promise<Labels[]> {
  const texts = await redactAll(
    labels.flatMap((l) => [l.title, l.firstText]),
    redactor,
  );
  return labels.map((_, i) => {
    const first = texts[2 * i + 1] ?? null;
    return { title: texts[2 * i] ?? null, firstRequest: first === null || first.trim() === '' ? null : oneLine(first, FIRST_REQUEST_CHARS) };
  });
}
