import { createHash } from 'node:crypto';

/**
 * The chunker's own version. It is part of every chunk policy id, so a change to how text is cut
 * makes a new namespace instead of mixing chunks cut two ways.
 */
export const CHUNKER_VERSION = 'md1';

export interface ChunkPolicy {
  /** `md1:2000:200`: chunker version, maximum characters, overlap characters. */
  id: string;
  maxChars: number;
  overlap: number;
}

export function chunkPolicyOf(chunk: { max_chars: number; overlap: number }): ChunkPolicy {
  // An overlap as large as a chunk would never advance; it is held below half a chunk.
  const overlap = Math.min(chunk.overlap, Math.floor(chunk.max_chars / 2));
  return { id: `${CHUNKER_VERSION}:${chunk.max_chars}:${overlap}`, maxChars: chunk.max_chars, overlap };
}

export interface Chunk {
  ordinal: number;
  text: string;
  contentHash: string;
}

/** What a chunk is cut from: the body and the words that locate it (title, parent item). */
export interface ChunkSource {
  title: string;
  body: string;
  /** Prefixed to the context line of every chunk, e.g. "Comment on #12". */
  context?: string;
}

interface Block {
  /** The heading path the block sits under ("Install › Linux"). */
  section: string;
  text: string;
  /** A fenced code block: cut only at line boundaries, and re-fenced in each part. */
  fence: string | null;
}

const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/**
 * Markdown-aware blocks: headings open sections, fenced code stays whole, HTML comments (issue
 * templates' `<!-- … -->` prompts) are boundaries and carry no text, blank lines end paragraphs.
 */
function blocksOf(body: string): Block[] {
  const blocks: Block[] = [];
  const path: string[] = [];
  let paragraph: string[] = [];
  const section = () => path.filter(Boolean).join(' › ');
  const flush = () => {
    const text = paragraph.join('\n').trim();
    if (text) blocks.push({ section: section(), text, fence: null });
    paragraph = [];
  };
  const lines = body.replace(/\r\n?/g, '\n').replace(/<!--[\s\S]*?(-->|$)/g, '\n\n').split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!;
    const fence = FENCE.exec(line);
    if (fence) {
      flush();
      const marker = fence[1]!;
      const closing = new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}\\s*$`);
      const code = [line];
      for (i += 1; i < lines.length; i += 1) {
        code.push(lines[i]!);
        if (closing.test(lines[i]!)) break;
      }
      blocks.push({ section: section(), text: code.join('\n'), fence: line.trim() });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      const level = heading[1]!.length;
      path.length = level - 1;
      path[level - 1] = heading[2]!.trim();
      continue;
    }
    if (line.trim() === '') flush();
    else paragraph.push(line);
  }
  flush();
  return blocks;
}

/** Cuts text longer than `max` at the last line, sentence or word boundary before it. */
function cut(text: string, max: number): string[] {
  const parts: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const window = rest.slice(0, max);
    const at = Math.max(window.lastIndexOf('\n'), window.lastIndexOf('. '), window.lastIndexOf('? '), window.lastIndexOf('! '));
    const end = at > max / 3 ? at + 1 : window.lastIndexOf(' ') > max / 3 ? window.lastIndexOf(' ') : max;
    parts.push(rest.slice(0, end).trim());
    rest = rest.slice(end).trim();
  }
  if (rest) parts.push(rest);
  return parts.filter(Boolean);
}

/** An oversized fence is cut at line boundaries and each part is fenced again, so none reads as prose. */
function cutFence(block: Block, max: number): string[] {
  const lines = block.text.split('\n');
  const open = lines[0]!;
  const close = open.replace(/^(\s*[`~]+).*$/, '$1');
  const inner = lines.slice(1, lines.at(-1)?.trim().startsWith(close.trim()) ? -1 : undefined);
  const room = Math.max(40, max - open.length - close.length - 2);
  const parts: string[] = [];
  let current: string[] = [];
  let size = 0;
  for (const line of inner.flatMap((l) => (l.length > room ? cut(l, room) : [l]))) {
    if (size + line.length + 1 > room && current.length > 0) {
      parts.push([open, ...current, close].join('\n'));
      current = [];
      size = 0;
    }
    current.push(line);
    size += line.length + 1;
  }
  if (current.length > 0) parts.push([open, ...current, close].join('\n'));
  return parts;
}

/** The last `overlap` characters of a chunk, starting at a word boundary. */
function tail(text: string, overlap: number): string {
  if (overlap <= 0 || text.length <= overlap) return '';
  const slice = text.slice(-overlap);
  const space = slice.indexOf(' ');
  return space >= 0 ? slice.slice(space + 1) : slice;
}

export function chunkHash(policy: ChunkPolicy, text: string): string {
  return createHash('sha256').update(policy.id).update('\0').update(text).digest('hex');
}

/**
 * Cuts one source into chunks of at most `maxChars` body characters under the chunk policy. Each
 * chunk starts with a context line (title, section) so it reads — and embeds — on its own. A new
 * section starts a new chunk once the current one holds something; prose cut mid-run repeats the
 * last `overlap` characters; code is never overlapped or cut mid-line.
 */
export function chunkDocument(source: ChunkSource, policy: ChunkPolicy): Chunk[] {
  const title = source.title.trim().replace(/\s+/g, ' ');
  const head = (section: string) => [source.context, title, section].filter(Boolean).join(' › ');
  const bodies: Array<{ section: string; text: string }> = [];
  let section = '';
  let current = '';
  let prose = '';
  const push = () => {
    if (current.trim()) bodies.push({ section, text: current.trim() });
    current = '';
  };
  for (const block of blocksOf(source.body)) {
    if (block.section !== section && current.trim().length > 0) {
      push();
      prose = '';
    }
    section = block.section;
    // Prose is cut short enough that the overlap carried into the next chunk still fits.
    const pieces = block.fence ? (block.text.length > policy.maxChars ? cutFence(block, policy.maxChars) : [block.text]) : cut(block.text, policy.maxChars - policy.overlap - 2);
    for (const piece of pieces) {
      if (current && current.length + piece.length + 2 > policy.maxChars) {
        push();
        // Overlap carries prose context into the next chunk; after code it would only repeat code.
        const carry = block.fence ? '' : tail(prose, policy.overlap);
        if (carry && carry.length + piece.length + 2 <= policy.maxChars) current = carry;
      }
      current = current ? `${current}\n\n${piece}` : piece;
      prose = block.fence ? '' : piece;
    }
  }
  push();
  if (bodies.length === 0) bodies.push({ section: '', text: '' });
  return bodies.map((b, ordinal) => {
    const text = b.text ? `${head(b.section)}\n\n${b.text}` : head(b.section);
    return { ordinal, text, contentHash: chunkHash(policy, text) };
  });
}
