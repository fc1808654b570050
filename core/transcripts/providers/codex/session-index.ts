import { stat } from 'node:fs/promises';
import { PROVIDERS } from '../../../api/constants/index.js';
import { countMalformed, countSkip, readCompleteLines, resumeOffset, withoutBom } from '../../lines.js';
import { asString, parseLine, Projection } from '../../projection.js';
import { readSmallFile, refused } from '../../small-file.js';
import type { LineStats, ReadOptions, TranscriptBatch, TranscriptFile } from '../../types.js';

/** The `source` of the discovered index: its read gives titles, not parts. */
export const INDEX_SOURCE = 'codex-index';

/** Thread names are a few bytes a line; a larger index is not what this reader expects. */
const MAX_INDEX_BYTES = 8 * 1024 * 1024;

/**
 * `$CODEX_HOME/session_index.jsonl`: `{id, thread_name, updated_at}` per rename, the last one
 * winning. Read once per change of the file (size, mtime), not once per rollout.
 */
export class SessionIndex {
  #cached: { path: string; size: number; mtimeMs: number; names: Map<string, string> } | undefined;

  async title(path: string, sessionId: string): Promise<string | undefined> {
    return (await this.#names(path)).get(sessionId);
  }

  async #names(path: string): Promise<Map<string, string>> {
    try {
      const info = await stat(path);
      const cached = this.#cached;
      if (cached && cached.path === path && cached.size === info.size && cached.mtimeMs === info.mtimeMs) return cached.names;
      // An index too large, or no regular file (a FIFO would wait for a writer forever), names no thread.
      const read = await readSmallFile(path, MAX_INDEX_BYTES);
      const names = refused(read) ? new Map<string, string>() : parse(withoutBom(read.bytes.toString('utf8')));
      this.#cached = { path, size: info.size, mtimeMs: info.mtimeMs, names };
      return names;
    } catch {
      // No index (exec-only homes never write one): no titles.
      return new Map();
    }
  }
}

function parse(text: string): Map<string, string> {
  const names = new Map<string, string>();
  for (const raw of text.split('\n')) {
    const entry = parseLine(raw);
    const id = asString(entry?.id);
    const name = asString(entry?.thread_name);
    if (id && name) names.set(id, name.slice(0, 500));
  }
  return names;
}

/**
 * The index read as a file of its own (append-only, so from its checkpoint): each thread named in the
 * lines read gets that name as an update-only title, so a rename after its rollout was read reaches
 * the session without reading the rollout again (a conversation the cache does not hold is not made).
 */
export async function* readSessionIndex(file: TranscriptFile, options: ReadOptions, stats: LineStats): AsyncGenerator<TranscriptBatch> {
  const start = await resumeOffset(file.path, options.resume, file.size, stats);
  const projection = new Projection('codex', PROVIDERS.codex.roots.roots.source);
  const from = { maxLineBytes: options.maxLineBytes, start, end: file.size, ...(start > 0 && options.resume ? { headHash: options.resume.headHash } : {}) };
  for await (const chunk of readCompleteLines(file.path, from, stats)) {
    for (const text of chunk.lines) {
      if (text === null) continue;
      if (text.length === 0) {
        countSkip(stats, 'empty');
        continue;
      }
      const entry = parseLine(text);
      if (!entry) {
        countMalformed(stats);
        continue;
      }
      // A line names a thread; it holds no message.
      countSkip(stats, 'meta_only');
      const id = asString(entry.id);
      const name = asString(entry.thread_name);
      if (id && name) projection.title(projection.session(id), name, 'sidecar');
    }
  }
  yield projection.take(true);
}
