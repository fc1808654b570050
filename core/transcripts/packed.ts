import type { PartRow, TranscriptBatch } from './types.js';

/**
 * A batch as the read worker posts it: its parts in columns. Structured clone copies an object
 * property by property, with every property's name; a million parts cost the owner's thread about
 * 3 µs each to receive. In columns, the repeated names (session, provider, role, kind) travel once
 * per batch, numbers as typed arrays, and each part's text and meta as a length in a few joined
 * strings, which the owner cuts with `substring` (V8 slices all but short strings rather than copy
 * them). Receiving then costs about 1 µs a part. A slice keeps its joined string alive, which is
 * fine: a part's text lives only until its batch is written.
 */
export interface PackedBatch {
  sessions: TranscriptBatch['sessions'];
  titleClaims: TranscriptBatch['titleClaims'];
  /** The distinct session ids, providers, roles and kinds of this batch's parts. */
  names: string[];
  /** Per part: indexes into `names` of its session, provider, role (-1: none) and kind. */
  codes: Int32Array;
  partIds: string[];
  /** UTC ms; NaN stands for none. */
  ts: Float64Array;
  /** PART_FLAGS bits (four of them). */
  flags: Uint8Array;
  contentKeys: (string | null)[];
  text: JoinedColumn;
  meta: JoinedColumn;
}

/**
 * Strings or nulls, one after another: `lengths[i]` is -1 for null. A value lies whole in one piece,
 * and the next piece starts where a value would overflow this one.
 */
interface JoinedColumn {
  pieces: string[];
  lengths: Int32Array;
}

const CODES = 4;
const NONE = -1;
/**
 * Characters in a joined piece (a value longer than this is a piece of its own). V8 puts a string
 * of 128 KB or more in its large-object space, fresh pages from the kernel each time: on the 2-core
 * VM here decoding or joining such strings cost 20–30× more per byte than strings under 64 KiB, and
 * one joined string per batch (megabytes) took 2.8 s of the read worker's 10 s in a 1 GB import.
 * 32 Ki characters stay under that size even at two bytes a character.
 */
const PIECE_CHARS = 32 * 1024;

function join(values: (string | null)[]): JoinedColumn {
  const lengths = new Int32Array(values.length);
  const pieces: string[] = [];
  let piece: string[] = [];
  let chars = 0;
  const close = (): void => {
    if (piece.length > 0) pieces.push(piece.length === 1 ? piece[0]! : piece.join(''));
    piece = [];
    chars = 0;
  };
  values.forEach((value, i) => {
    lengths[i] = value === null ? NONE : value.length;
    if (value === null) return;
    if (chars > 0 && chars + value.length > PIECE_CHARS) close();
    piece.push(value);
    chars += value.length;
  });
  close();
  return { pieces, lengths };
}

/** Cuts a joined column back into its values, in order (the rule `join` placed them by). */
function cut({ pieces, lengths }: JoinedColumn): (string | null)[] {
  const values = new Array<string | null>(lengths.length);
  let p = 0;
  let at = 0;
  for (let i = 0; i < lengths.length; i += 1) {
    const length = lengths[i]!;
    if (length === NONE) {
      values[i] = null;
      continue;
    }
    if (at + length > pieces[p]!.length) {
      p += 1;
      at = 0;
    }
    values[i] = pieces[p]!.substring(at, at + length);
    at += length;
  }
  return values;
}

export function packBatch(batch: TranscriptBatch): PackedBatch {
  const { parts } = batch;
  const index = new Map<string, number>();
  const names: string[] = [];
  const code = (name: string | null): number => {
    if (name === null) return NONE;
    let found = index.get(name);
    if (found === undefined) {
      found = names.length;
      index.set(name, found);
      names.push(name);
    }
    return found;
  };
  const codes = new Int32Array(parts.length * CODES);
  const ts = new Float64Array(parts.length);
  const flags = new Uint8Array(parts.length);
  parts.forEach((part, i) => {
    const at = i * CODES;
    codes[at] = code(part.sessionId);
    codes[at + 1] = code(part.provider);
    codes[at + 2] = code(part.role);
    codes[at + 3] = code(part.kind);
    ts[i] = part.ts ?? Number.NaN;
    flags[i] = part.flags;
  });
  return {
    sessions: batch.sessions,
    titleClaims: batch.titleClaims,
    names,
    codes,
    partIds: parts.map((part) => part.partId),
    ts,
    flags,
    contentKeys: parts.map((part) => part.contentKey),
    text: join(parts.map((part) => part.text)),
    meta: join(parts.map((part) => part.meta)),
  };
}

export function unpackBatch(packed: PackedBatch): TranscriptBatch {
  const { names, codes, partIds, ts, flags, contentKeys } = packed;
  const text = cut(packed.text);
  const meta = cut(packed.meta);
  const parts = new Array<PartRow>(partIds.length);
  for (let i = 0; i < partIds.length; i += 1) {
    const at = i * CODES;
    const role = codes[at + 2]!;
    const time = ts[i]!;
    parts[i] = {
      partId: partIds[i]!,
      sessionId: names[codes[at]!]!,
      provider: names[codes[at + 1]!] as PartRow['provider'],
      role: role === NONE ? null : names[role]!,
      kind: names[codes[at + 3]!]!,
      ts: Number.isNaN(time) ? null : time,
      text: text[i] ?? null,
      meta: meta[i] ?? null,
      flags: flags[i]!,
      contentKey: contentKeys[i] ?? null,
    };
  }
  return packed.titleClaims === undefined ? { parts, sessions: packed.sessions } : { parts, sessions: packed.sessions, titleClaims: packed.titleClaims };
}
