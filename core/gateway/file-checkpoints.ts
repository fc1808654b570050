import type { Statement } from 'better-sqlite3';
import type { ForgetKind } from '../api/index.js';
import { inTransaction, type Db } from '../store/index.js';
import { ownSessionOf } from './own-file.js';
import { inPieces, turn, type PieceGate } from './pace.js';
import type { LineSpan } from './sessions.js';

const DAY_MS = 86_400_000;
/**
 * Rows a load of a provider's checkpoints takes, or a removal deletes, between turns of the event loop:
 * a few milliseconds' worth. Loaded whole, 20,000 files' identities held the loop 40–70 ms, and their
 * counts 30–37 ms more; removed in one step, 20,000 vanished files' checkpoints held it 75–380 ms.
 */
export const CHECKPOINT_PAGE_ROWS = 2_000;

/**
 * A durable per-file checkpoint: what the file was when it was read through (device, inode, size,
 * mtime, ctime), how far its complete lines were consumed, hashes to recognise those bytes again, the parser
 * version and retention window that read them, and the provider's parser state at the offset.
 */
export interface FileCheckpoint {
  path: string;
  dev: bigint;
  ino: bigint;
  size: number;
  mtimeMs: number;
  /**
   * The file's ctime then (TranscriptFile.ctimeMs). One that moved alone has the stored hashes verified, not
   * the file read whole. Null (or absent): not known, on a checkpoint written before it was kept (gateway
   * step 31); nothing is weighed until the next read of the file stores it.
   */
  ctimeMs?: number | null;
  offset: number;
  headHash: string;
  tailHash: string;
  parserVersion: number;
  /** The start of the window the lines before `offset` were read with; null for an open window. */
  windowStartMs: number | null;
  /** Opaque to the gateway: the provider's own state, as JSON text (parsed only when a read resumes). */
  state: string | null;
  /**
   * Lines before `offset` that the reads which reached it left out as older than their window (each
   * one message; one copied into several files counts in each): set by a read from the file's start,
   * added to by one that went on from the checkpoint before. Null: not known, on a checkpoint written
   * before the count was kept (gateway step 16) and one read on from such; a whole read counts it.
   */
  olderLeftOut: number | null;
  /**
   * Some line before `offset` was held back by the folder exclusion in force (capture.exclude): the
   * checkpoint vouches for those lines only while that exclusion stands (see releaseLifted).
   */
  heldBack?: boolean;
  /**
   * Not stored: the read that wrote it went through the whole file from its start and left no line out
   * (none older than its window, failed, held back, or of a store read on per session), so the
   * conversations it did not meet are no longer in the file (FileCheckpoints.put marks their holds gone).
   */
  readWhole?: boolean;
  /**
   * Not stored: every conversation the file holds, as its reader listed them (ReadCheckpoint.holds: a
   * store read on per session meets only those that changed). The file's holds of others are marked
   * gone, and those listed are cleared of the mark (FileCheckpoints.put).
   */
  holds?: readonly string[];
  /**
   * Not stored: of `holds`, the conversations whose lines another file keeps, by its path
   * (ReadCheckpoint.heldIn: an OpenClaw cold archive the store only names). Their holds here say where
   * their lines are (`lines_at`), the file whose deletion loses them (FileCheckpoints.put).
   */
  heldIn?: Readonly<Record<string, string>>;
}

/**
 * A file whose own bytes could not be read (caught mid-write, damaged, or not a transcript: the causes
 * and remedies are core/api/import-words.ts's), as it was when it failed: while it stays so (the same
 * inode, size and mtime, the same parser), a scheduled run does not read it again. Its path is the
 * person's own file, named to them; it never goes to status, telemetry or logs.
 */
export interface FileFailure {
  path: string;
  dev: bigint;
  ino: bigint;
  size: number;
  mtimeMs: number;
  parserVersion: number;
  code: string;
  failedAt: number;
}

/**
 * A file that holds what a forget record covers (see FileCheckpoints.held), with the mtime its checkpoint
 * saw (null: it has none now). The person's own path: it stays in capture, never in logs or answers.
 */
export interface HoldingFile {
  provider: string;
  path: string;
  mtimeMs: number | null;
}

/**
 * Whether a listed file's mtime is the one a checkpoint or failure stored. Listings keep microseconds
 * (a rewrite inside one millisecond is a change); a row written before kept whole milliseconds
 * (truncated, as a stat's own mtimeMs), and vouches for any time in that millisecond: an upgrade does
 * not read every file again. The next read of the file stores the finer time.
 */
export function mtimeVouches(stored: number, listed: number): boolean {
  return stored === listed || (Number.isInteger(stored) && Math.trunc(listed) === stored);
}

/** The file as a listing saw it: what a failure is recognised by. */
type Listed = Pick<FileFailure, 'path' | 'dev' | 'ino' | 'size' | 'mtimeMs'>;

/** What tells whether a file is as its checkpoint left it: loaded for every file of a run at once. */
export type CheckpointIdentity = Pick<FileCheckpoint, 'dev' | 'ino' | 'size' | 'mtimeMs' | 'ctimeMs' | 'parserVersion' | 'windowStartMs'>;

/**
 * What the survey weighs a listed file against: whether a read with no window went through it as it
 * is now (size, mtime), and the lines its reads left out as older than the window they started at.
 */
export type SurveyedCheckpoint = Pick<FileCheckpoint, 'size' | 'mtimeMs' | 'windowStartMs' | 'olderLeftOut'>;

interface Row {
  path: string;
  dev: string;
  ino: string;
  size: number;
  mtime_ms: number;
  ctime_ms: number | null;
  byte_offset: number;
  head_hash: string;
  tail_hash: string;
  parser_version: number;
  window_start_ms: number | null;
  state: string | null;
  exclusion: string | null;
  older_left_out: number | null;
}

/** A stored exclusion's globs; one that does not read as a list (written otherwise) holds none that still stands. */
function globsOf(stored: string): string[] {
  try {
    const value: unknown = JSON.parse(stored);
    return Array.isArray(value) && value.every((g) => typeof g === 'string') ? (value as string[]) : ['\u0000'];
  } catch {
    return ['\u0000'];
  }
}

/**
 * Runs `page` (provider, after path, limit) until a page comes back short, giving the event loop a
 * turn between pages; `each` sees every row, in path order.
 */
async function inPages<R extends [string, ...unknown[]]>(page: Statement, provider: string, each: (row: R) => void): Promise<void> {
  let after = '';
  for (;;) {
    const rows = page.all(provider, after, CHECKPOINT_PAGE_ROWS) as R[];
    for (const row of rows) each(row);
    if (rows.length < CHECKPOINT_PAGE_ROWS) return;
    after = rows[rows.length - 1]![0];
    await turn();
  }
}

/**
 * The file_checkpoints table. A checkpoint is written inside the commit window that holds the rows it
 * covers (the caller's open transaction), so after a crash it never runs ahead of them; a lost window
 * only makes the next run read that file again from an earlier offset, which idempotent part ids absorb.
 */
export class FileCheckpoints {
  readonly #db: Db;
  /** The exclusion in force, as stored on a checkpoint that passed over lines it held back. */
  readonly #exclusion: string;
  readonly #globs: ReadonlySet<string>;
  readonly #gate: PieceGate | undefined;
  readonly #identities;
  readonly #get;
  readonly #put;
  readonly #ctime;
  readonly #remove;
  readonly #narrow;
  readonly #move;
  readonly #surveyed;
  readonly #recount;
  readonly #hold;
  readonly #heldElsewhere;
  readonly #demote;
  readonly #holding;
  readonly #unhold;
  readonly #unmet;
  readonly #relist;
  readonly #moveHolds;
  readonly #narrowSpan;
  readonly #linesAt;
  readonly #linesHere;
  readonly #withholds;
  readonly #tracked;
  readonly #keptOutListed;
  readonly #keptOutGone;
  /**
   * What the file being read holds, told by the materializer as its batches go by (`held`): written with
   * the file's checkpoint, in the same commit window, by `put` (or `recountOlder`). Runs take turns and
   * read one file at a time, each read beginning with `fileBegins`, so a file that leaves no checkpoint
   * (failed, vanished, cut short) hands its holds to no other.
   */
  readonly #pending = new Map<string, { kind: ForgetKind | 'copy'; id: string; own: boolean; span: LineSpan | undefined; withheld: Set<string> | undefined }>();
  /**
   * Remembered failures by provider and path: loaded with one query the first time a run asks, then
   * kept in step with file_failures (the owner is its only writer), so a tick asks SQLite nothing.
   */
  #failures: Map<string, Map<string, FileFailure>> | undefined;

  /**
   * `exclusion`: the globs of the folder exclusion in force (capture.exclude), each once. `gate`: the
   * connection's WAL checkpoint thread and disk gate (capture's Checkpointer), which a removal's
   * pieces commit through; without it, a piece's commit could run SQLite's own checkpoint in-thread.
   */
  constructor(db: Db, exclusion: readonly string[] = [], gate?: PieceGate) {
    this.#db = db;
    this.#exclusion = JSON.stringify(exclusion);
    this.#globs = new Set(exclusion);
    this.#gate = gate;
    // Rows as arrays, and only what an unchanged file is recognised by: a restart loads every file's,
    // and full rows as objects took 10 ms of a 2,000-file restart tick against 3.6 ms.
    // In pages by path (the primary key's order), each page going on after the last path of the one before.
    this.#identities = db.prepare('SELECT path, dev, ino, size, mtime_ms, ctime_ms, parser_version, window_start_ms FROM file_checkpoints WHERE provider = ? AND path > ? ORDER BY path LIMIT ?').raw();
    this.#get = db.prepare(
      'SELECT path, dev, ino, size, mtime_ms, ctime_ms, byte_offset, head_hash, tail_hash, parser_version, window_start_ms, state, exclusion, older_left_out FROM file_checkpoints WHERE provider = ? AND path = ?',
    );
    this.#put = db.prepare(`
      INSERT INTO file_checkpoints (provider, path, dev, ino, size, mtime_ms, ctime_ms, byte_offset, head_hash, tail_hash, parser_version, window_start_ms, state, exclusion, older_left_out, updated_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT(provider, path) DO UPDATE SET dev = excluded.dev, ino = excluded.ino, size = excluded.size, mtime_ms = excluded.mtime_ms, ctime_ms = excluded.ctime_ms,
        byte_offset = excluded.byte_offset, head_hash = excluded.head_hash, tail_hash = excluded.tail_hash, parser_version = excluded.parser_version,
        window_start_ms = excluded.window_start_ms, state = excluded.state, exclusion = excluded.exclusion, older_left_out = excluded.older_left_out, updated_at = excluded.updated_at`);
    this.#ctime = db.prepare('UPDATE file_checkpoints SET ctime_ms = ? WHERE provider = ? AND path = ?');
    this.#remove = db.prepare('DELETE FROM file_checkpoints WHERE provider = ? AND path = ?');
    // updated_at moves with the window: a window is weighed in the days it reached back from then.
    this.#narrow = db.prepare('UPDATE file_checkpoints SET window_start_ms = ?, older_left_out = NULL, updated_at = ? WHERE provider = ? AND (window_start_ms IS NULL OR window_start_ms < ?)');
    this.#move = db.prepare('UPDATE file_checkpoints SET path = ? WHERE provider = ? AND path = ?');
    // The survey's one load: both what it asks of the files read whole and the older lines' counts, from
    // one pass over the rows (two loads read 20,000 files' rows twice); without dev and inode, which the
    // tick's planning load (#identities) needs and the survey does not.
    this.#surveyed = db.prepare('SELECT path, size, mtime_ms, window_start_ms, older_left_out FROM file_checkpoints WHERE provider = ? AND path > ? ORDER BY path LIMIT ?').raw();
    // A window is kept as the moment it starts, taken when its run started: a run on request of the
    // same days as the scheduled run that wrote the checkpoint starts its window later, yet reaches as
    // far back. So the windows are weighed in the whole days each reached back from when it ran (the
    // checkpoint's from when it was written: a read takes minutes, a window is whole days).
    this.#recount = db.prepare(`
      UPDATE file_checkpoints SET older_left_out = ?, state = IFNULL(?, state)
      WHERE provider = ? AND path = ? AND older_left_out IS NULL
        AND (? IS NULL OR (window_start_ms IS NOT NULL AND ROUND((updated_at - window_start_ms) / ${DAY_MS}.0) <= ROUND((? - ?) / ${DAY_MS}.0)))`);
    // A gone file's holds stay, marked (step 26): that it held them is how Forget.Lost tells "gone" from "never recorded".
    this.#unhold = db.prepare('UPDATE file_holds SET gone_at = ? WHERE provider = ? AND path = ? AND gone_at IS NULL');
    // A whole read that did not meet what the file held: the file is there, the conversation no longer in
    // it (emptied, rewritten, replaced). Marked gone as a vanished file's are; its checkpoint, which stays,
    // tells the two apart (TranscriptFiles). Keys are `kind\nid`, as #pending's.
    this.#unmet = db.prepare(
      "UPDATE file_holds SET gone_at = ? WHERE provider = ? AND path = ? AND gone_at IS NULL AND kind || char(10) || id NOT IN (SELECT value FROM json_each(?))",
    );
    // What a store lists (FileCheckpoint.holds) against its holds' marks: one it no longer lists (its rows
    // and session went, the file stays) is marked gone; one it lists again (restored) is cleared, met by
    // this read or not (unchanged since, its rows older than the window). Only the holds whose mark
    // changes are written, in one pass over the file's holds (two passes took twice as long). Only
    // conversations' holds: a forget record's (a project's) is none of the store's sessions.
    this.#relist = db.prepare(`
      UPDATE file_holds SET gone_at = IIF(gone_at IS NULL, @now, NULL)
      WHERE provider = @provider AND path = @path AND kind IN ('session', 'copy') AND (gone_at IS NULL) = (id NOT IN (SELECT value FROM json_each(@listed)))`);
    // A move changes where the file is, not what it holds: a conversation a whole read found missing
    // from it stays missing (gone_at kept). Only a read that meets a conversation clears its mark (#hold).
    this.#moveHolds = db.prepare('UPDATE OR REPLACE file_holds SET path = ? WHERE provider = ? AND path = ?');
    this.#hold = db.prepare('INSERT INTO file_holds (kind, id, provider, path) VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET gone_at = NULL WHERE gone_at IS NOT NULL');
    this.#demote = db.prepare("UPDATE OR REPLACE file_holds SET kind = 'copy' WHERE kind = 'session' AND id = ? AND provider = ? AND path <> ?");
    // A forget record's hold on a file that lists what it holds (a store) names the conversations it kept
    // out there (step 28): those this read met join them; those the listing no longer has leave them, and a
    // hold left naming none is marked gone (the store is there, nothing the record keeps out is in it).
    this.#withholds = db.prepare(`
      UPDATE file_holds SET withheld = (SELECT json_group_array(value) FROM (SELECT value FROM json_each(IFNULL(withheld, '[]')) UNION SELECT value FROM json_each(@met)))
      WHERE kind = @kind AND id = @id AND provider = @provider AND path = @path`);
    // A hold written before step 28 names none: what it kept out before is not known, so no listing marks it gone.
    this.#tracked = db.prepare('SELECT withheld IS NOT NULL FROM file_holds WHERE kind = ? AND id = ? AND provider = ? AND path = ?').pluck();
    this.#keptOutListed = db.prepare(`
      UPDATE file_holds SET withheld = (SELECT json_group_array(value) FROM json_each(withheld) WHERE value IN (SELECT value FROM json_each(@listed)))
      WHERE provider = @provider AND path = @path AND withheld IS NOT NULL`);
    this.#keptOutGone = db.prepare("UPDATE file_holds SET gone_at = @now WHERE provider = @provider AND path = @path AND gone_at IS NULL AND withheld = '[]'");
    // A conversation the file lists whose lines another file keeps (step 28): its hold here names that file,
    // listed or met by this read; one whose lines are back in this file names none. Only the holds reads
    // wrote are told (#hold, #demote, #relist chose their kind and mark): a copy stays a copy (heldElsewhere),
    // and a conversation only a forget record's hold keeps out gains no hold of its own.
    this.#linesAt = db.prepare('UPDATE file_holds SET lines_at = @at WHERE id = @id AND provider = @provider AND path = @path AND lines_at IS NOT @at');
    this.#linesHere = db.prepare('UPDATE file_holds SET lines_at = NULL WHERE provider = @provider AND path = @path AND lines_at IS NOT NULL AND id NOT IN (SELECT key FROM json_each(@heldIn))');
    // Both sides ride the primary key (kind, id, ...); the checkpoint's mtime says whether a tick's window reaches the file.
    // Files a walk found gone hold nothing a read could bring back: neither query counts them.
    this.#holding = db.prepare(`
      SELECT DISTINCT h.provider, h.path, c.mtime_ms FROM file_holds h LEFT JOIN file_checkpoints c ON c.provider = h.provider AND c.path = h.path
      WHERE ((h.kind = ? AND h.id = ?) OR (h.kind IN ('session', 'copy') AND h.id IN (SELECT value FROM json_each(?)))) AND h.gone_at IS NULL`);
    // A file that held it as its own and is gone since (gone_at) still counts: a copy of its lines read
    // after its own file went is a copy all the same, and must not say the conversation is on disk.
    // A session's span is what its lines say (mergeSession widens it as reads come): a whole read of the
    // one file known to hold it (no other file, gone or not, holds it or a copy of its lines) says all
    // of them, so its span is that read's, narrower when the file was rewritten shorter.
    this.#narrowSpan = db.prepare(`
      UPDATE sessions SET first_ts = @firstTs, last_ts = @lastTs, updated_at = @now
      WHERE session_id = @id AND provider = @provider AND (first_ts IS NOT @firstTs OR last_ts IS NOT @lastTs)
        AND NOT EXISTS (SELECT 1 FROM file_holds WHERE kind IN ('session', 'copy') AND id = @id AND (provider <> @provider OR path <> @path))`);
    this.#heldElsewhere = db.prepare(`SELECT COUNT(*) > 0 AND IFNULL(MAX(provider = ? AND path = ?), 0) = 0 FROM file_holds WHERE kind = 'session' AND id = ?`).pluck();
  }

  /**
   * Whether files other than this one are known to hold the conversation, and this one does not: a
   * copy of its lines here (a resumed conversation's) does not speak for what those files stored, on
   * its first read or any later one (its hold is kept as kind 'copy', which Unforget still finds), nor
   * after those files are gone (their holds, marked gone, still count). A conversation no read recorded
   * (stored before this version) is no file's, so nothing is elsewhere.
   */
  heldElsewhere(sessionId: string, provider: string, path: string): boolean {
    return this.#heldElsewhere.get(provider, path, sessionId) === 1;
  }

  /** A file moved (Codex archiving a rollout, OpenClaw renaming a reset session): its checkpoint goes with it, and what it holds. */
  move(provider: string, from: string, to: string): void {
    this.#move.run(to, provider, from);
    this.#moveHolds.run(to, provider, from);
  }

  /** A file's read begins: what an earlier read that left no checkpoint (failed, vanished, cut short) was told is no one's. */
  fileBegins(): void {
    this.#pending.clear();
  }

  /**
   * The file being read holds this conversation, or some of what this forget record withheld (see
   * #pending): `withheld`, the conversation of the file the record keeps out.
   */
  held(kind: ForgetKind | 'copy', id: string, own = false, span?: LineSpan, withheld?: string): void {
    const key = `${kind}\n${id}`;
    const before = this.#pending.get(key);
    // A later batch's row only describing the session (no line of it) keeps what the read met before.
    const kept = withheld === undefined ? before?.withheld : new Set([...(before?.withheld ?? []), withheld]);
    this.#pending.set(key, { kind, id, own, span: span ?? before?.span, withheld: kept });
  }

  /**
   * The files known to hold what a forget record covers: those read while it withheld some of them, and
   * those that held the conversations it erased (`sessionIds`, the ids it kept), as their reads found them.
   */
  holding(kind: ForgetKind, id: string, sessionIds: readonly string[]): HoldingFile[] {
    const rows = this.#holding.all(kind, id, JSON.stringify(sessionIds)) as Array<{ provider: string; path: string; mtime_ms: number | null }>;
    return rows.map((r) => ({ provider: r.provider, path: r.path, mtimeMs: r.mtime_ms }));
  }

  /**
   * Has the next scheduled tick read these files again from their start (their checkpoints dropped), and
   * forgets what the lifted record withheld in them. Part ids are idempotent: a read again stores only
   * what is missing. Returns how many checkpoints were dropped.
   */
  reread(kind: ForgetKind, id: string, files: readonly HoldingFile[]): number {
    return inTransaction(this.#db, () => {
      this.#db.prepare('DELETE FROM file_holds WHERE kind = ? AND id = ?').run(kind, id);
      return files.reduce((n, f) => n + this.#remove.run(f.provider, f.path).changes, 0);
    });
  }

  /**
   * Writes what the file just read holds (see #pending), in the caller's commit window. `whole`: the read
   * went through the whole file and left nothing out (see FileCheckpoint.readWhole), so what it did not
   * meet the file no longer holds. `holds`: what the file holds, met or not (see FileCheckpoint.holds).
   */
  #settleHolds(provider: string, path: string, { readWhole: whole = false, holds, heldIn = {} }: Pick<FileCheckpoint, 'readWhole' | 'holds' | 'heldIn'>, state: string | null = null): void {
    const now = Date.now();
    if (whole) this.#unmet.run(now, provider, path, JSON.stringify([...this.#pending.keys()]));
    if (holds) this.#relistAll(provider, path, holds, now);
    // The file the provider's identity names as a conversation's own holds it as its own at any path:
    // one moved while no walk saw the move whole (its checkpoint went with its old path, its holds marked
    // gone) is read anew as a copy of the files known to hold it, and would leave it reading as gone.
    // Other holds stay as they are: another file of it (OpenClaw's live file beside a .reset) may stay too.
    const ownId = ownSessionOf(provider, path, state);
    for (const { kind, id, own, withheld } of this.#pending.values()) {
      const track = holds !== undefined && withheld !== undefined && this.#tracked.get(kind, id, provider, path) !== 0;
      this.#hold.run(kind === 'copy' && id === ownId ? 'session' : kind, id, provider, path);
      if (track) this.#withholds.run({ kind, id, provider, path, met: JSON.stringify([...withheld]) });
      // The conversation's own file: another that held it first (read before it) holds only a copy.
      if (own && kind === 'session') this.#demote.run(id, provider, path);
    }
    if (holds) this.#listedApart(provider, path, heldIn, now);
    // Once every hold of this file is written: a conversation this file alone holds gets this read's span.
    if (whole) for (const { kind, id, span } of this.#pending.values()) if (kind === 'session' && span?.firstTs != null && span.lastTs != null) this.#narrowSpan.run({ id, provider, path, firstTs: span.firstTs, lastTs: span.lastTs, now });
    this.#pending.clear();
  }

  /**
   * Before this read's holds are written, what a file that lists what it holds (a store) no longer lists:
   * its conversations' holds (#relist), and the conversations its forget records' holds kept out there.
   */
  #relistAll(provider: string, path: string, holds: readonly string[], now: number): void {
    const listed = JSON.stringify(holds);
    this.#relist.run({ now, provider, path, listed });
    this.#keptOutListed.run({ provider, path, listed });
  }

  /**
   * Once they are written: where the lines of the conversations the file lists are kept apart (an OpenClaw
   * cold archive, which the store only names: that file deleted, Steward's rows are their only copy,
   * whatever the store still lists; this file stays the one read again for them), and its forget records'
   * holds that keep out nothing it still lists, marked gone.
   */
  #listedApart(provider: string, path: string, heldIn: Readonly<Record<string, string>>, now: number): void {
    this.#linesHere.run({ provider, path, heldIn: JSON.stringify(heldIn) });
    for (const [id, at] of Object.entries(heldIn)) this.#linesAt.run({ id, provider, path, at });
    this.#keptOutGone.run({ now, provider, path });
  }

  /**
   * Every checkpoint's identity of a provider, by path: once per run, in pages with a turn of the event
   * loop between them. Only a run writes checkpoints, and runs take turns, so a run's own load sees
   * one state; a survey's load may straddle a run's commit (the survey after that tick sees it whole).
   */
  async identities(provider: string): Promise<Map<string, CheckpointIdentity>> {
    const out = new Map<string, CheckpointIdentity>();
    // A provider's files sit on one device or a few: its number is parsed once per run of rows that share it.
    let devText = '';
    let device = 0n;
    await inPages<[string, string, string, number, number, number | null, number, number | null]>(this.#identities, provider, ([path, dev, ino, size, mtimeMs, ctimeMs, parserVersion, windowStartMs]) => {
      if (dev !== devText) {
        devText = dev;
        device = BigInt(dev);
      }
      out.set(path, { dev: device, ino: BigInt(ino), size, mtimeMs, ctimeMs, parserVersion, windowStartMs });
    });
    return out;
  }

  /** One file's whole checkpoint: for a file read on from its offset. */
  get(provider: string, path: string): FileCheckpoint | undefined {
    const r = this.#get.get(provider, path) as Row | undefined;
    if (!r) return undefined;
    return {
      path: r.path,
      dev: BigInt(r.dev),
      ino: BigInt(r.ino),
      size: r.size,
      mtimeMs: r.mtime_ms,
      ctimeMs: r.ctime_ms,
      offset: r.byte_offset,
      headHash: r.head_hash,
      tailHash: r.tail_hash,
      parserVersion: r.parser_version,
      windowStartMs: r.window_start_ms,
      state: r.state,
      olderLeftOut: r.older_left_out,
      heldBack: r.exclusion !== null,
    };
  }

  put(provider: string, checkpoint: FileCheckpoint, now = Date.now()): void {
    const c = checkpoint;
    this.#put.run(provider, c.path, String(c.dev), String(c.ino), c.size, c.mtimeMs, c.ctimeMs ?? null, c.offset, c.headHash, c.tailHash, c.parserVersion, c.windowStartMs, c.state, c.heldBack ? this.#exclusion : null, c.olderLeftOut, now);
    this.#settleHolds(provider, c.path, c, c.state);
  }

  /**
   * The file's ctime moved alone and the checkpoint still vouches for it as it is (nothing could tell its
   * bytes apart without reading them whole, see run.ts's `verifiable`): the new ctime is kept, so it is
   * weighed once, not on every tick after a restart.
   */
  keepCtime(provider: string, path: string, ctimeMs: number): void {
    this.#ctime.run(ctimeMs, provider, path);
  }

  /**
   * Every checkpoint of a provider as the survey weighs it, by path, in one load (in pages, like
   * `identities`): what a file was when read through, the window start it was read with (the survey
   * weighs it against the window now), and how many lines its reads left out as older (null: not known).
   */
  async surveyed(provider: string): Promise<Map<string, SurveyedCheckpoint>> {
    const out = new Map<string, SurveyedCheckpoint>();
    await inPages<[string, number, number, number | null, number | null]>(this.#surveyed, provider, ([path, size, mtimeMs, windowStartMs, olderLeftOut]) => {
      out.set(path, { size, mtimeMs, windowStartMs, olderLeftOut });
    });
    return out;
  }

  /**
   * A whole read on request of a file this checkpoint vouches for (unchanged, read with a window at
   * least as wide) gives the count of older lines the checkpoint does not know: it is written there
   * when that read reached back at least as many days as the checkpoint's (`windowStartMs`, the
   * read's; null: no window). Only the count changes (and `state`, when the provider keeps its count
   * in it); a count already known is left as it is (the fresh one, taken with a window that starts
   * later, would count lines the checkpoint's own read imported). Returns whether it was written.
   */
  recountOlder(provider: string, path: string, lines: number, state: string | null, windowStartMs: number | null, now = Date.now(), read: Pick<FileCheckpoint, 'readWhole' | 'holds' | 'heldIn'> = {}): boolean {
    // A file read again whose checkpoint stays: what this read found it holds is written all the same.
    this.#settleHolds(provider, path, read, state);
    return this.#recount.run(lines, state, provider, path, windowStartMs, now, windowStartMs).changes > 0;
  }

  /**
   * Drops the checkpoints that passed over lines held back by an exclusion one of whose globs is no longer in force,
   * so the next tick reads those files from their start: a folder no longer excluded is imported then,
   * not left behind "already up to date" until a backfill. A file whose lines the exclusion in force
   * holds back keeps its checkpoint and is read on from it. Returns how many were dropped.
   */
  releaseLifted(): number {
    const held = this.#db.prepare('SELECT DISTINCT exclusion FROM file_checkpoints WHERE exclusion IS NOT NULL').pluck().all() as string[];
    // Folders added to the list hold back more, never less: only a checkpoint some of whose globs went is released.
    const lifted = held.filter((old) => !globsOf(old).every((glob) => this.#globs.has(glob)));
    const release = this.#db.prepare('DELETE FROM file_checkpoints WHERE exclusion = ?');
    return inTransaction(this.#db, () => lifted.reduce((n, old) => n + release.run(old).changes, 0));
  }

  /**
   * After a removal by hand (no clean-up window saved) took a provider's rows older than `cutoffMs`: its checkpoints no longer vouch
   * for anything older. One that said a wider read went through its file (no window, or an earlier
   * start) now starts at the cutoff, so the survey stops calling the file imported and Home offers
   * its history again, and its count of older lines left out is no longer known (null). A scheduled
   * tick's window starts at or after the cutoff, so it still finds the file unchanged; an import of
   * more days reads it again. Returns how many checkpoints changed.
   */
  narrowTo(provider: string, cutoffMs: number, now = Date.now()): number {
    return this.#narrow.run(cutoffMs, now, provider, cutoffMs).changes;
  }

  /**
   * Forgets checkpoints of files that are gone, and marks what they held gone (the walk was complete and did not find them), in
   * pieces of at most CHECKPOINT_PAGE_ROWS with a turn of the event loop between them. Each piece
   * commits on its own (or with the caller's open transaction): a crash between pieces leaves some
   * gone files' checkpoints behind, as if those files had gone while Steward was not running, and the
   * next complete walk that loads the checkpoints forgets them (after a restart the fingerprint map
   * is empty: the first tick with a file inside its window loads them). Returns how many were removed.
   */
  async remove(provider: string, paths: readonly string[]): Promise<number> {
    if (paths.length === 0) return 0;
    let removed = 0;
    let from = 0;
    // A removal is cheap per row (2–5 ms for 2,000): its pieces start large.
    await inPieces({ limits: { maxRows: CHECKPOINT_PAGE_ROWS, startRows: CHECKPOINT_PAGE_ROWS / 2 }, gate: this.#gate }, (rows) => {
      const piece = paths.slice(from, from + rows);
      from += piece.length;
      removed += inTransaction(this.#db, () => piece.reduce((n, path) => n + this.#forgetFile(provider, path), 0));
      return from < paths.length;
    });
    return removed;
  }

  /** A gone file's checkpoint, and marks what it was known to hold gone; 1 when it had a checkpoint. */
  #forgetFile(provider: string, path: string): number {
    this.#unhold.run(Date.now(), provider, path);
    return this.#remove.run(provider, path).changes;
  }

  #failuresOf(provider: string): Map<string, FileFailure> {
    if (!this.#failures) {
      this.#failures = new Map();
      const rows = this.#db.prepare('SELECT provider, path, dev, ino, size, mtime_ms, parser_version, code, failed_at FROM file_failures').raw().all() as [string, string, string, string, number, number, number, string, number][];
      for (const [p, path, dev, ino, size, mtimeMs, parserVersion, code, failedAt] of rows) {
        this.#failuresOf(p).set(path, { path, dev: BigInt(dev), ino: BigInt(ino), size, mtimeMs, parserVersion, code, failedAt });
      }
    }
    let held = this.#failures.get(provider);
    if (!held) this.#failures.set(provider, (held = new Map()));
    return held;
  }

  /** The failure remembered for `file` while it is as it was then (read by the same parser version); otherwise none. */
  failedAsIs(provider: string, file: Listed, parserVersion: number): FileFailure | undefined {
    const f = this.#failuresOf(provider).get(file.path);
    const same = f && f.parserVersion === parserVersion && f.dev === file.dev && f.ino === file.ino && f.size === file.size && mtimeVouches(f.mtimeMs, file.mtimeMs);
    return same ? f : undefined;
  }

  /** Remembers that `file`, as listed, could not be read; the last failure of a path replaces the one before. */
  recordFailure(provider: string, file: Listed, parserVersion: number, code: string, now = Date.now()): void {
    const { mtimeMs } = file;
    this.#db
      .prepare(
        `INSERT INTO file_failures (provider, path, dev, ino, size, mtime_ms, parser_version, code, failed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(provider, path) DO UPDATE SET dev = excluded.dev, ino = excluded.ino, size = excluded.size, mtime_ms = excluded.mtime_ms,
           parser_version = excluded.parser_version, code = excluded.code, failed_at = excluded.failed_at`,
      )
      .run(provider, file.path, String(file.dev), String(file.ino), file.size, mtimeMs, parserVersion, code, now);
    this.#failuresOf(provider).set(file.path, { path: file.path, dev: file.dev, ino: file.ino, size: file.size, mtimeMs, parserVersion, code, failedAt: now });
  }

  /**
   * Forgets the failures of these paths (read through now, or gone); a path with none costs no
   * statement, so reading a healthy file never touches the table.
   */
  clearFailures(provider: string, paths: Iterable<string>): void {
    const held = this.#failuresOf(provider);
    const gone = [...paths].filter((path) => held.has(path));
    if (gone.length === 0) return;
    const remove = this.#db.prepare('DELETE FROM file_failures WHERE provider = ? AND path = ?');
    inTransaction(this.#db, () => gone.forEach((path) => remove.run(provider, path)));
    for (const path of gone) held.delete(path);
  }

  /** Whether any file of the provider is remembered unreadable: a walk weighs its paths against them only then. */
  hasFailures(provider: string): boolean {
    return this.#failuresOf(provider).size > 0;
  }

  /** The remembered failures of files a complete walk no longer finds. */
  failuresGone(provider: string, present: ReadonlySet<string>): string[] {
    return [...this.#failuresOf(provider).keys()].filter((path) => !present.has(path));
  }

  /** Every remembered failure of these providers, the newest first. */
  failures<P extends string>(providers: readonly P[]): Array<FileFailure & { provider: P }> {
    return providers.flatMap((provider) => [...this.#failuresOf(provider).values()].map((f) => ({ ...f, provider }))).sort((a, b) => b.failedAt - a.failedAt || a.path.localeCompare(b.path));
  }
}
