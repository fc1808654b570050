import { z } from 'zod';
import { ProjectKey, SessionId } from './ids.js';
import { FORGET_KINDS } from './lists.js';

const count = z.number().int().nonnegative();

/** A tombstone: what was forgotten stays out of the cache while its transcripts still exist on disk. */
export const Tombstone = z.strictObject({
  kind: z.enum(FORGET_KINDS),
  id: z.string(),
  /** What it was called when it was forgotten (a title, a project name), so the list can be read. */
  label: z.string().nullable(),
  createdAt: z.number().int(),
});
export type Tombstone = z.infer<typeof Tombstone>;

/**
 * How a forget record covers a conversation id: it is the record's own, its parent's (a subagent
 * erased with it), or its project's (a conversation, or a subagent of one, erased with the project).
 */
export const FORGET_VIA = ['self', 'parent', 'project'] as const;

/** The forget record that covers an id (`Forget.Of`): the tombstone, and whether it is the id's own, its parent's or its project's. */
export type ForgetVia = (typeof FORGET_VIA)[number];
export const ForgetCover = Tombstone.extend({ via: z.enum(FORGET_VIA) });
export type ForgetCover = z.infer<typeof ForgetCover>;

export const ForgetResult = z.strictObject({
  kind: z.enum(FORGET_KINDS),
  id: z.string(),
  removedParts: count,
  removedSessions: count,
  /** A project's notes folder (OVERVIEW.md, CHANGELOG.md …) was removed with it. */
  notesRemoved: z.boolean(),
  /**
   * Asked with `scrub`: true once what was deleted is gone from gateway.db and its WAL too; false when
   * a stop cut the wipe short or it failed (it stays owed, and the owner's next start finishes it;
   * `Forget.ScrubStatus` says which). What was forgotten is deleted either way.
   */
  scrubbed: z.boolean().optional(),
});
export type ForgetResult = z.infer<typeof ForgetResult>;

/** What a wipe is doing: rewriting the search index, overwriting free pages, emptying the WAL. */
export const SCRUB_PHASES = ['index', 'free', 'journal'] as const;

/**
 * A wipe of the disk (see `Forget.Scrub`): whether one is owed or running and how far it has come,
 * when the last one ran to its end, whether the last one failed, and about how long one takes now.
 */
export const ScrubStatus = z.strictObject({
  /** Asked for (by a forget with `scrub`) and not yet run to its end: the owner's next start runs it. */
  pending: z.boolean(),
  running: z.boolean(),
  /**
   * While running, once its first piece was written: its phase, and about how much of the whole wipe
   * is done (0–100, by the bytes it writes). Null before that (waiting for the disk) and when not running.
   */
  progress: z.strictObject({ phase: z.enum(SCRUB_PHASES), percent: z.number().int().min(0).max(100) }).nullable(),
  /** When a wipe last ran to its end (epoch ms), stored with the cache; null when none has here. */
  lastWipedAt: z.number().int().nullable(),
  /**
   * The last wipe this owner ran stopped on an error (its stable code; SQLITE_BUSY: a reader kept the WAL
   * from being emptied) and none has finished since: it stays owed, and the owner's next start tries
   * again. Null otherwise (a stop by the owner is no failure).
   */
  failed: z.strictObject({ at: z.number().int(), code: z.string() }).nullable(),
  /** About how long a wipe of this cache takes, from the size of its index and free space. */
  estimatedMs: count,
});
export type ScrubStatus = z.infer<typeof ScrubStatus>;

export const ScrubResult = z.strictObject({
  /** False when a stop cut it short: it stays owed, and the owner's next start finishes it. */
  complete: z.boolean(),
  durationMs: count,
});
export type ScrubResult = z.infer<typeof ScrubResult>;

/**
 * `scrub`: also wipe what was deleted from the disk before answering (see `Forget.Scrub`): a forget
 * deletes rows, and their bytes stay in the file's free pages, the search index and the WAL until then.
 */
const scrub = z.boolean().optional();

/**
 * `notStored`: forget an id Steward holds nothing under (one not imported yet), to keep it out of
 * future imports: the CLI's `--not-stored`. Without it such an id is refused (not_found) and nothing
 * changes, so a mistyped one never sits in the forget list; one forgotten already is not refused.
 */
const notStored = z.boolean().optional();

/** Forgetting conversations and projects (history); a tombstone keeps them from being imported again. */
export const forgetMethods = {
  /**
   * Deletes a conversation (its parts, index rows and subagents; a conversation branched from it is its
   * own and stays) and tombstones its id. An id nothing is held under is refused unless `notStored`.
   */
  'Forget.Session': {
    params: z.strictObject({ sessionId: SessionId, scrub, notStored }),
    result: ForgetResult,
  },
  /** Deletes every conversation of a project, its row and its notes, and tombstones its key. A key nothing is held under is refused unless `notStored`. */
  'Forget.Project': {
    params: z.strictObject({
      projectKey: ProjectKey,
      scrub,
      notStored,
      /** What to call a project no stored row names (one never imported, forgotten by its folder): the folder's own name. */
      name: z.string().min(1).max(200).optional(),
      /**
       * A project no stored row names, forgotten by its folder: the folder's hash (sha256 of its compared
       * form, never the path), which its record keeps so every spelling of the folder stays out. A row's
       * folder is taken first; forgotten by a key alone, the folder is not known and the record keeps none.
       */
      folderHash: z.string().regex(/^[0-9a-f]{64}$/).optional(),
      /**
       * With `folderHash`: the names of the Gemini CLI hash folders (`~/.gemini/tmp/<sha256>`) of the folder's
       * spellings, never a path, which its record keeps so Gemini chats there stay out (the row's are taken first).
       */
      geminiFolders: z.array(z.string().regex(/^[0-9a-f]{64}$/)).max(8).optional(),
    }),
    result: ForgetResult,
  },
  /**
   * Wipes from the disk what earlier forgets deleted: folds the search index into one segment (it
   * keeps a removed part's words until then), overwrites gateway.db's free pages with zeros and empties
   * its WAL. Long work in pieces, queued behind any forget, reporting `forget.scrub`; it rewrites the
   * whole index (ScrubStatus says about how long that takes).
   */
  'Forget.Scrub': {
    params: z.strictObject({}),
    result: ScrubResult,
  },
  'Forget.ScrubStatus': {
    params: z.strictObject({}),
    result: ScrubStatus,
  },
  'Forget.List': {
    params: z.strictObject({}),
    result: z.strictObject({ tombstones: z.array(Tombstone) }),
  },
  /**
   * Which forget record covers a conversation id, for one not found: its own (`self`), that of the
   * conversation it is a subagent of (`parent`), known by the `{parent}:agent-` form of a Claude
   * subagent's id or by the subagent ids that conversation's forget kept (a Gemini subagent's id does not
   * name its parent), or that of the project it was erased with (`project`), by the conversation ids
   * (subagents' too) that project's forget kept. Null when none does.
   */
  'Forget.Of': {
    params: z.strictObject({ sessionId: SessionId }),
    result: z.strictObject({ record: ForgetCover.nullable() }),
  },
  /**
   * What forgetting a conversation or project (`id`: its session id or project key) would lose for good,
   * asked before it: `conversations` stored under it (1 or 0 for a conversation; a project's, subagents
   * apart), and how many of them `lost`: something of it the forget deletes is gone from disk, so Steward
   * holds the only copy and no Unforget or backfill brings it back: its own transcript (every file known
   * to hold it is gone: the agent deleted it, as Claude Code does after 30 days), or a subagent's (a
   * forget deletes a conversation's subagents with it). `onlySubagentsLost`: how many of `lost` keep their
   * own transcript on disk (or not known gone) and lose only subagents', and `subagentsLost` how many
   * subagents' transcripts that is; `lost - onlySubagentsLost` lose their own. A file is known to hold a
   * conversation from the reads that met it, and stays known once a check finds it gone. `unknown`: how
   * many no read recorded a file of (imported before Steward kept track, from files unchanged since),
   * whose transcripts may or may not be on disk, and nothing of them known gone: never counted lost.
   */
  'Forget.Lost': {
    params: z.strictObject({ kind: z.enum(FORGET_KINDS), id: z.string().min(1).max(300) }),
    result: z.strictObject({ conversations: count, lost: count, onlySubagentsLost: count, subagentsLost: count, unknown: count }),
  },
  /** Lifts a tombstone; the next check (`nextCheck`) or backfill imports the conversation or project again, unless `stillOut` or `nothingLeft`. */
  'Forget.Lift': {
    params: z.strictObject({ kind: z.enum(FORGET_KINDS), id: z.string().min(1).max(300) }),
    result: z.strictObject({
      lifted: z.boolean(),
      /**
       * A conversation another record still keeps out of imports once its own is lifted (as `Forget.Of`
       * names it): its project's, forgotten after it (capture withholds a conversation by its folder's
       * project), or the conversation it is a subagent of. Absent when none does.
       */
      stillOut: ForgetCover.optional(),
      /**
       * True when the lift cut short a project's forget still erasing: its notes (OVERVIEW.md, CHANGELOG.md)
       * went as that forget began and do not come back with the rows; the project's next sweep writes
       * them again. Absent otherwise.
       */
      notesRemoved: z.literal(true).optional(),
      /**
       * A project's: how many forgets of other spellings of its folder (`C:\\Users\\Ana\\x`, `c:\\users\\ana\\x`)
       * were lifted with it. A store from before one folder was one project may hold one forgotten project
       * per spelling, any of which keeps the folder out; one folder is one project now, so lifting one lifts
       * them all. Absent when there were none.
       */
      otherSpellings: count.positive().optional(),
      /**
       * The next scheduled check brings it back: the files that held it are read again from their start.
       * 'all': every one Steward knows of is inside the schedule's window; 'part': some are older, and
       * Import earlier history (reaching back far enough) brings back what they hold. Absent when no
       * such file is known or all are older (Import earlier history), and with `stillOut`.
       */
      nextCheck: z.enum(['all', 'part']).optional(),
      /**
       * Nothing is left to import: the forget deleted its rows, and no transcript file that held it is on
       * disk any more (see `Forget.Lost`), so no check or backfill brings it back. Absent otherwise.
       */
      nothingLeft: z.literal(true).optional(),
      /**
       * What the forget deleted was stored before Steward recorded which files held it, and none is known
       * on disk: a check or backfill brings it back only if its transcript is still there. Absent otherwise.
       */
      ifOnDisk: z.literal(true).optional(),
      /**
       * It was forgotten before anything of it was stored (`notStored`), and no read met a transcript file
       * of it while it was forgotten (none was withheld): nothing was stored and nothing met. Its transcripts
       * may still be on disk (not checked yet, or older than the window): the next check imports those
       * inside the regular checks' window, a backfill older ones. Absent otherwise.
       */
      neverStored: z.literal(true).optional(),
    }),
  },
} as const;

export const forgetEvents = {
  /** Something was forgotten or a tombstone lifted: lists that show it should reload. */
  'history.changed': z.strictObject({ kind: z.enum(FORGET_KINDS), id: z.string(), change: z.enum(['forgotten', 'lifted']) }),
  /**
   * How far a forget has come: sessions of the conversations (subagents included) whose rows are gone,
   * and parts deleted; sent every half second while it runs, and once with `complete` when it is over:
   * done, or `failed` (its counts say how far it came; its record holds and the next start finishes it).
   */
  'forget.progress': z.strictObject({
    kind: z.enum(FORGET_KINDS),
    id: z.string(),
    sessionsDone: count,
    sessionsTotal: count,
    removedParts: count,
    complete: z.boolean(),
    failed: z.boolean().optional(),
  }),
  /** How far a wipe of the disk has come (pages of its phase), sent every half second and once when it ends. */
  'forget.scrub': z.strictObject({
    phase: z.enum(SCRUB_PHASES),
    done: count,
    total: count,
    complete: z.boolean(),
  }),
} as const;
