/**
 * Chinese and Japanese are written without spaces between words: unicode61 keeps a whole run from
 * punctuation to punctuation as one token (`日本語のテスト`), which no word a person types would match.
 * The index (steward_search_text_v2) also holds, for each token with such characters, the token's
 * characters one by one, its other letters and digits as they stand (`React入門` → `React 入 門`),
 * so a phrase of characters finds any stretch of a run. Korean needs none of this: it puts spaces
 * between words, and unicode61 splits there.
 */

/**
 * Han ideographs (with 々 〆 〇 and the Hangzhou numerals), Hiragana and Katakana (the prolonged sound
 * mark ー and the iteration marks among them, halfwidth Katakana too): letters and numbers unicode61
 * keeps in tokens, never its separators (、。・「」, which split tokens already).
 */
const CJK_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x4e00, 0x9fff],
  [0x3041, 0x3096],
  [0x30a1, 0x30fa],
  [0x30fc, 0x30ff],
  [0x3400, 0x4dbf],
  [0x3005, 0x3007],
  [0x3021, 0x3029],
  [0x3031, 0x3035],
  [0x303b, 0x303c],
  [0x309d, 0x309f],
  [0x31f0, 0x31ff],
  [0xf900, 0xfaff],
  [0xff66, 0xff9f],
  // Ideographs beyond the BMP: extensions B to H and the compatibility supplement.
  [0x20000, 0x323af],
];
const hex = (code: number) => `\\u${code.toString(16).padStart(4, '0')}`;
const CJK_BMP = CJK_RANGES.filter(([, to]) => to <= 0xffff)
  .map(([from, to]) => `${hex(from)}-${hex(to)}`)
  .join('');

/** A quick look for any of them, without the u flag (V8 scans far faster): a lead surrogate of U+20000–U+323AF counts. */
const ANY_CJK = new RegExp(`[${CJK_BMP}\\ud840-\\ud888]`);
/** Runs of them, without the u flag (a pair of surrogates for the ideographs beyond the BMP). */
const CJK_RUNS = new RegExp(`(?:[${CJK_BMP}]|[\\ud840-\\ud888][\\udc00-\\udfff])+`, 'g');
/** The rest of a token from an offset on. */
const TOKEN_REST = /[\p{L}\p{N}\p{Co}]*/uy;
/** unicode61's tokens (its default token characters L* N* Co). */
const TOKENS = /[\p{L}\p{N}\p{Co}]+/gu;
const TOKEN_CHAR_AT = /[\p{L}\p{N}\p{Co}]/uy;

/**
 * Stands between the characters of two tokens in the index, so a phrase never runs from one run
 * into the next (`東京。大阪` holds no `京大`), nor from the text into them. A private-use character:
 * a token unicode61 keeps, which nobody types.
 */
const CJK_GAP = '\ue000';

/** Whether the text holds anything the index could find: a token character (a query of `"*"`, `(` or `-` holds none). */
export function holdsToken(text: string): boolean {
  return TOKEN_CHAR.test(text);
}
const TOKEN_CHAR = /[\p{L}\p{N}\p{Co}]/u;

/** Whether the text holds a Chinese or Japanese character (a quick look: see isCjkAt for one character). */
export function hasCjk(text: string): boolean {
  return ANY_CJK.test(text);
}

/** Whether a Chinese or Japanese character starts at this offset. */
export function isCjkAt(text: string, at: number): boolean {
  const code = text.codePointAt(at);
  return code !== undefined && isCjkCode(code);
}

function isCjkCode(code: number): boolean {
  if (code < 0x3005) return false;
  if (code >= 0x4e00 && code <= 0x9fff) return true;
  for (let i = 1; i < CJK_RANGES.length; i += 1) if (code >= CJK_RANGES[i]![0] && code <= CJK_RANGES[i]![1]) return true;
  return false;
}

/** The words the index holds for one token that has such characters: each of them, and the runs of other letters and digits between. */
export function cjkSegments(token: string): string[] {
  const segments: string[] = [];
  let from = 0;
  for (let at = 0; at < token.length; ) {
    const size = token.codePointAt(at)! > 0xffff ? 2 : 1;
    if (isCjkAt(token, at)) {
      if (from < at) segments.push(token.slice(from, at));
      segments.push(token.slice(at, at + size));
      from = at + size;
    }
    at += size;
  }
  if (from < token.length) segments.push(token.slice(from));
  return segments;
}

/**
 * The phrases a piece of typed text is searched as, one per token, in order: a token with Chinese or
 * Japanese characters as its segments, any other as itself. Null when it has none of them.
 */
export function cjkPhrases(text: string): string[][] | null {
  if (!hasCjk(text)) return null;
  return (text.match(TOKENS) ?? []).map((token) => (hasCjk(token) ? cjkSegments(token) : [token]));
}

/**
 * What steward_search_text_v2 adds to a text: the segments of each distinct token that has Chinese or
 * Japanese characters, each token's after a gap; null when there is none.
 */
export function cjkAppendix(text: string): string | null {
  if (!hasCjk(text)) return null;
  const seen = new Set<string>();
  let out = '';
  CJK_RUNS.lastIndex = 0;
  // Each run of such characters, widened to the token it lies in; only those tokens are read twice (most of a text is not in them).
  for (let run = CJK_RUNS.exec(text); run !== null; run = CJK_RUNS.exec(text)) {
    const from = tokenStart(text, run.index);
    TOKEN_REST.lastIndex = run.index + run[0].length;
    TOKEN_REST.test(text);
    const to = TOKEN_REST.lastIndex;
    CJK_RUNS.lastIndex = to;
    const token = text.slice(from, to);
    if (seen.has(token)) continue;
    seen.add(token);
    out += `${CJK_GAP} ${spacedOut(token)} `;
  }
  return out === '' ? null : out;
}

/** Kept between calls: most tokens fit. */
let spaced = new Uint16Array(4096);

/**
 * The token with a space on either side of each Chinese or Japanese character: its segments
 * (cjkSegments) apart. Written as code units and made a string once: a regex replace, or a string
 * of each character joined, took more than twice as long over a Japanese corpus.
 */
function spacedOut(token: string): string {
  const codes = token.length * 3 <= spaced.length ? spaced : new Uint16Array(token.length * 3);
  if (codes.length <= 65_536) spaced = codes;
  let n = 0;
  for (let i = 0; i < token.length; i += 1) {
    const unit = token.charCodeAt(i);
    const pair = unit >= 0xd800 && unit <= 0xdbff && i + 1 < token.length;
    const code = pair ? token.codePointAt(i)! : unit;
    if (!isCjkCode(code)) codes[n++] = unit;
    else if (pair) {
      codes.set([32, unit, token.charCodeAt(i + 1), 32], n);
      n += 4;
      i += 1;
    } else {
      codes[n++] = 32;
      codes[n++] = unit;
      codes[n++] = 32;
    }
  }
  let out = '';
  // apply reads a typed array as it is; a spread would go through its iterator, many times slower.
  for (let at = 0; at < n; at += 8192) out += String.fromCharCode.apply(null, codes.subarray(at, Math.min(n, at + 8192)) as unknown as number[]);
  return out;
}

function isAsciiAlnum(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/** Whether a token character (unicode61's) starts at `at`. */
function tokenCharAt(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  if (code < 0x80) return isAsciiAlnum(code);
  if (isCjkAt(text, at)) return true;
  TOKEN_CHAR_AT.lastIndex = at;
  return TOKEN_CHAR_AT.test(text);
}

/** Where the token holding offset `at` starts (`at` itself when the character before is no token character). */
function tokenStart(text: string, at: number): number {
  let from = at;
  for (;;) {
    const low = text.charCodeAt(from - 1);
    const size = low >= 0xdc00 && low <= 0xdfff && from > 1 ? 2 : 1;
    if (from === 0 || !tokenCharAt(text, from - size)) return from;
    from -= size;
  }
}

