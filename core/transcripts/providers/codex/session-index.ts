import { readFile, stat } from 'node:fs/promises';
import { asString, parseLine } from '../../projection.js';

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
      const names = info.size > MAX_INDEX_BYTES ? new Map<string, string>() : parse(await readFile(path, 'utf8'));
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
