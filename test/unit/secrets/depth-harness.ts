import { createRedactor, redactSecrets } from '../../../core/secrets/index.js';

/**
 * The depth harness the attack-followups files share: a text checked as written and inside JSON strings
 * levels deep, through every public way a text is redacted, read back level by level to the innermost text.
 */

/** A text placed inside JSON strings `levels` deep (1: `{"output":"…"}`). */
export function nested(text: string, levels: number): string {
  let out = text;
  for (let i = 0; i < levels; i += 1) out = JSON.stringify({ output: out });
  return out;
}

/** The text's JSON strings as read, level by level down to the innermost: throws if a level no longer parses. */
export function innermost(text: string, levels: number): string {
  let t = text;
  for (let i = 0; i < levels; i += 1) t = (JSON.parse(t) as { output: string }).output;
  return t;
}

/** Every public way a whole text is redacted: redactSecrets, redactSync, redact, redactMany (alone and among others). */
export async function allWays(text: string): Promise<string[]> {
  const r = createRedactor();
  return [redactSecrets(text), r.redactSync(text), await r.redact(text), ...(await r.redactMany([text])), (await r.redactMany(['nothing here', text]))[1]!];
}

/** Only the asynchronous ways, which run secretlint after the table. */
export async function linted(text: string): Promise<string[]> {
  const r = createRedactor();
  return [await r.redact(text), ...(await r.redactMany([text])), (await r.redactMany(['nothing here', text]))[1]!];
}

/**
 * For `written` (the text with its secrets) at each depth, every way whose redaction is not, read back to the
 * innermost text, `expected`: with what came back, marked by its depth (`(no JSON)` when a level no longer parses).
 */
export async function wrongAtDepths(
  written: string,
  expected: string,
  depths: readonly number[],
  ways: (text: string) => Promise<string[]> = allWays,
): Promise<string[]> {
  const out: string[] = [];
  for (const level of depths)
    for (const res of await ways(nested(written, level))) {
      let read: string;
      try {
        read = innermost(res, level);
      } catch {
        read = `(no JSON) ${res}`;
      }
      if (read !== expected) out.push(`[L${level}] ${read}`);
    }
  return [...new Set(out)];
}
