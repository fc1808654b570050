import { stat } from 'node:fs/promises';
import type { ForgetKind } from '../api/index.js';
import type { Db } from '../store/index.js';

/** Files stat'ed at once: a project of thousands of conversations is checked a few at a time, never all together. */
const STATS_AT_ONCE = 16;
/** Ids per query (json_each): a project's conversations are asked in pieces. */
const IDS_PER_QUERY = 500;

/** Whether a file is there: only "no such file" says it is gone; any other failure (EACCES) leaves it there. */
async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code !== 'ENOENT' && code !== 'ENOTDIR';
  }
}

/**
 * Where a conversation's transcript is, as the files its reads met say: `onDisk` (one of them is there),
 * `gone` (every one is gone: the agent deleted it, and Steward's rows are its only copy), or `unknown`
 * (no read recorded a file of it: imported before Steward kept file_holds, from a file unchanged since).
 */
export type TranscriptState = 'onDisk' | 'gone' | 'unknown';

/**
 * How many of some conversations are in each state: `gone`, those whose own transcript is gone;
 * `onlySubagentsGone`, those whose own is not known gone but some subagent's is (a forget deletes that
 * subagent's only copy), with `subagentsGone`, how many subagents' transcripts that is; `unknown`, those
 * not known to be on disk or not, nothing of them known gone.
 */
export type TranscriptCounts = { conversations: number; gone: number; onlySubagentsGone: number; subagentsGone: number; unknown: number };

/**
 * Whether the transcript files that held a conversation are still on disk, as file_holds records them
 * (written with each file's checkpoint; see FileCheckpoints.holding). A file a complete walk found gone
 * keeps its holds, marked gone (migration 26), and is stat'ed all the same (it may be back, and one
 * deleted since the last walk is not marked yet). The person's own paths: stat'ed here, never handed on.
 */
export class TranscriptFiles {
  readonly #held;
  readonly #withheld;
  readonly #conversations;
  readonly #subagents;

  constructor(db: Db) {
    // Rides the primary key (kind, id, …). The conversation's own files only: a file holding a copy of some
    // of its lines (a fork's) does not hold what came after. A hold marked gone on a file that kept its
    // checkpoint was read whole without meeting it (emptied, rewritten): the file is there, the
    // conversation is not (`unmet`). A vanished file's checkpoint went with it: it is stat'ed, it may be back.
    // A conversation whose lines the file keeps apart (`lines_at`: an OpenClaw store's cold archive file) is where they are.
    this.#held = db
      .prepare(
        `SELECT h.id, IFNULL(h.lines_at, h.path), h.gone_at IS NOT NULL AND c.path IS NOT NULL AS unmet FROM file_holds h LEFT JOIN file_checkpoints c ON c.provider = h.provider AND c.path = h.path
         WHERE h.kind = 'session' AND h.id IN (SELECT value FROM json_each(?))`,
      )
      .raw();
    // A forget deletes a conversation's subagents with it (SessionEraser's children, both forms): their
    // transcripts count as its. CROSS JOIN keeps the ids outside, so each form rides its own index (the
    // planner's own order scanned the table: 17 s for 5,000 conversations).
    this.#subagents = db
      .prepare(
        `SELECT s.session_id, j.value FROM json_each(?) j CROSS JOIN sessions s ON s.parent_session_id = j.value AND s.parent_kind IS NOT 'branch'
         UNION ALL SELECT s.session_id, j.value FROM json_each(?) j CROSS JOIN sessions s ON s.session_id >= j.value || ':agent-' AND s.session_id < j.value || ':agent.'`,
      )
      .raw();
    // What a forget record kept out of a file, as #held: a hold marked gone on a file that kept its
    // checkpoint (read whole without it, or a store that no longer lists what it kept out) is not stat'ed.
    this.#withheld = db
      .prepare('SELECT IFNULL(h.lines_at, h.path) FROM file_holds h WHERE h.kind = ? AND h.id = ? AND NOT (h.gone_at IS NOT NULL AND EXISTS (SELECT 1 FROM file_checkpoints c WHERE c.provider = h.provider AND c.path = h.path))')
      .pluck();
    // A project's conversations (subagents apart, as its list counts them), a page at a time by id.
    this.#conversations = db
      .prepare("SELECT session_id FROM sessions WHERE project_key = ? AND (parent_session_id IS NULL OR parent_kind = 'branch') AND session_id > ? ORDER BY session_id LIMIT ?")
      .pluck();
  }

  /** A project's conversations, and how many of them are gone from disk or not known to be (see `states`), a page at a time. */
  async ofProject(projectKey: string): Promise<TranscriptCounts> {
    const counts = { conversations: 0, gone: 0, onlySubagentsGone: 0, subagentsGone: 0, unknown: 0 };
    let after = '';
    for (;;) {
      const ids = this.#conversations.all(projectKey, after, IDS_PER_QUERY) as string[];
      add(counts, await this.count(ids));
      if (ids.length < IDS_PER_QUERY) return counts;
      after = ids[ids.length - 1]!;
    }
  }

  /**
   * How many of these conversations are gone from disk, how many only lose subagents' transcripts (the
   * forget deletes a subagent's only copy with its conversation, though the conversation's own is on
   * disk), and how many are not known to be on it or not (see TranscriptCounts).
   */
  async count(sessionIds: readonly string[]): Promise<TranscriptCounts> {
    const rootOf = this.#withSubagents(sessionIds);
    const states = await this.states([...rootOf.keys()]);
    const gone = new Set(sessionIds.filter((id) => states.get(id) === 'gone'));
    // Subagents' gone transcripts, by the conversation they are under, for those whose own is not gone.
    const subagentsGone = new Map<string, number>();
    for (const [id, root] of rootOf) if (id !== root && !gone.has(root) && states.get(id) === 'gone') subagentsGone.set(root, (subagentsGone.get(root) ?? 0) + 1);
    const unknown = sessionIds.filter((id) => !subagentsGone.has(id) && states.get(id) === 'unknown').length;
    const lostSubagents = [...subagentsGone.values()].reduce((n, m) => n + m, 0);
    return { conversations: sessionIds.length, gone: gone.size, onlySubagentsGone: subagentsGone.size, subagentsGone: lostSubagents, unknown };
  }

  /** Each of these conversations and every subagent under them, mapped to the conversation it is under. */
  #withSubagents(sessionIds: readonly string[]): Map<string, string> {
    const rootOf = new Map(sessionIds.map((id) => [id, id]));
    for (let level = [...rootOf.keys()]; level.length > 0; ) {
      const next: string[] = [];
      for (let i = 0; i < level.length; i += IDS_PER_QUERY) {
        const piece = JSON.stringify(level.slice(i, i + IDS_PER_QUERY));
        for (const [child, parent] of this.#subagents.all(piece, piece) as Array<[string, string]>) {
          if (rootOf.has(child)) continue;
          rootOf.set(child, rootOf.get(parent)!);
          next.push(child);
        }
      }
      level = next;
    }
    return rootOf;
  }

  /** Where each of these conversations' transcript is (see TranscriptState). */
  async states(sessionIds: readonly string[]): Promise<Map<string, TranscriptState>> {
    const pathsOf = new Map<string, string[]>(sessionIds.map((id) => [id, []]));
    const held = new Set<string>();
    for (let i = 0; i < sessionIds.length; i += IDS_PER_QUERY) {
      const rows = this.#held.all(JSON.stringify(sessionIds.slice(i, i + IDS_PER_QUERY))) as Array<[string, string, number]>;
      for (const [id, path, unmet] of rows) {
        held.add(id);
        // A file read whole without it no longer holds it, there or not: not stat'ed.
        if (unmet === 0) pathsOf.get(id)?.push(path);
      }
    }
    const present = await this.#present([...new Set([...pathsOf.values()].flat())]);
    const stateOf = (id: string, paths: string[]): TranscriptState => (!held.has(id) ? 'unknown' : paths.some((path) => present.has(path)) ? 'onDisk' : 'gone');
    return new Map([...pathsOf].map(([id, paths]) => [id, stateOf(id, paths)]));
  }

  /**
   * Where what a forget record covers is: on disk when a file that held the conversations it erased, or
   * what it withheld from a read, is there; gone only when every one of them is known gone; else unknown.
   */
  async coveredBy(kind: ForgetKind, id: string, sessionIds: readonly string[]): Promise<TranscriptState> {
    if ((await this.#present(this.#withheld.all(kind, id) as string[])).size > 0) return 'onDisk';
    const states = new Set((await this.states(sessionIds)).values());
    if (states.has('onDisk')) return 'onDisk';
    return states.has('gone') && !states.has('unknown') ? 'gone' : 'unknown';
  }

  async #present(paths: readonly string[]): Promise<Set<string>> {
    const present = new Set<string>();
    for (let i = 0; i < paths.length; i += STATS_AT_ONCE) {
      const piece = paths.slice(i, i + STATS_AT_ONCE);
      const found = await Promise.all(piece.map(exists));
      piece.forEach((path, j) => found[j] && present.add(path));
    }
    return present;
  }
}

function add(into: TranscriptCounts, more: TranscriptCounts): void {
  into.conversations += more.conversations;
  into.gone += more.gone;
  into.onlySubagentsGone += more.onlySubagentsGone;
  into.subagentsGone += more.subagentsGone;
  into.unknown += more.unknown;
}
