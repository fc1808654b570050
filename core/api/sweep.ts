import { z } from 'zod';
import { SKIP_REASONS } from './lists.js';
import { PROVIDER_IDS } from './registry.js';

const CodeCount = z.strictObject({ code: z.string(), count: z.number().int().positive() });

/**
 * One provider's share of a sweep tick or backfill; counts files, never names them. Every listed file
 * lands in one bucket: read + unchanged + outsideWindow + vanished + failed + notReached = discovered,
 * except that entries which could not even be listed add to `failed` without being discovered
 * (`foldersFailed` says how many, so `failed` less them is the files that failed).
 */
export const ProviderSweepStats = z.strictObject({
  provider: z.string(),
  discovered: z.number().int().nonnegative(),
  /** Files read (not bytes, not lines). */
  read: z.number().int().nonnegative(),
  unchanged: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  partsWritten: z.number().int().nonnegative(),
  /** The messages those parts make up (a message is one or more parts: its text, tool calls, results). */
  messagesWritten: z.number().int().nonnegative().optional(),
  durationMs: z.number().int().nonnegative(),
  /** Complete lines skipped as malformed or above the line cap. */
  failedLines: z.number().int().nonnegative(),
  /** Complete lines that yielded no part, by reason (malformed and too large ones included). */
  skipped: z.partialRecord(z.enum(SKIP_REASONS), z.number().int().nonnegative()).optional(),
  /** Transcript bytes read (checkpoint checks included); an unchanged or restarted tick reads none. */
  bytesRead: z.number().int().nonnegative().optional(),
  /** Files listed but gone before they were read (deleted or rotated meanwhile): not failures. */
  vanished: z.number().int().nonnegative().optional(),
  /** Files listed but never opened: their newest byte is older than the run's window. Never counted as `unchanged`. */
  outsideWindow: z.number().int().nonnegative().optional(),
  /**
   * Present (true) when the run was cancelled before its end: a backfill cancelled while running or
   * queued, or the owner stopping. A cancelled queued run listed nothing (`discovered` 0).
   */
  cancelled: z.boolean().optional(),
  /** With `cancelled`: files listed but not read through (the one the run stopped in included; what it committed stays). */
  notReached: z.number().int().nonnegative().optional(),
  /** Why files or folders failed, by error code (an errno or SQLite code; never a path or text). */
  errors: z.array(CodeCount).optional(),
  /**
   * Of `failed` (and counted in `errors` too): what the walk could not open, by code: a folder it may
   * not list, an entry in one it may not look into. No transcript file, so none of `discovered`.
   */
  foldersFailed: z.array(CodeCount).optional(),
  /**
   * Of `failed` (and counted in `errors` too): files whose own bytes could not be read (caught mid-write, damaged, or not
   * a transcript), by code. Each is remembered as it was, and read again only once it changes or a
   * backfill asks; which files they are is `Sweep.Unreadable`'s to say, never a count's.
   */
  unreadable: z.array(CodeCount).optional(),
  /** Of those, files unchanged since they failed: a sweep did not open them; a backfill read them again and they failed as before. */
  unreadableUnchanged: z.number().int().nonnegative().optional(),
  /** Parts held back on purpose (present when any were): their conversation or project was forgotten, or its folder is excluded. */
  withheld: z.strictObject({ forgotten: z.number().int().nonnegative(), excluded: z.number().int().nonnegative() }).optional(),
});
export type ProviderSweepStats = z.infer<typeof ProviderSweepStats>;

/**
 * A transcript file the last attempt could not read, named for the person: its path is theirs (their
 * agent's file), shown where they look (the CLI's output, the panel's Telemetry and Home), and never
 * in status, telemetry or logs, which keep counts.
 */
export const UnreadableFile = z.strictObject({
  provider: z.enum(PROVIDER_IDS),
  path: z.string(),
  /** Why, as an error code (`read_failed`: the reader could not make sense of its bytes). */
  code: z.string(),
  /** When it was last tried and failed. */
  failedAt: z.number().int(),
  /** Its size and last change when it failed: a change to either has it read again. */
  size: z.number().int().nonnegative(),
  mtimeMs: z.number().int(),
});
export type UnreadableFile = z.infer<typeof UnreadableFile>;

export const SweepResult = z.strictObject({
  providers: z.array(ProviderSweepStats),
  /** The files of this run's `unreadable` counts, named (present when there are any); never recorded in telemetry. */
  unreadable: z.array(UnreadableFile).optional(),
});
export type SweepResult = z.infer<typeof SweepResult>;

/** Spec 000's scheduled transcript sweep. */
export const sweepMethods = {
  'Sweep.Tick': {
    params: z.strictObject({}),
    result: SweepResult,
  },
  /** When the transcript folders were last checked and will be next (null: not scheduled, or paused). */
  'Sweep.Status': {
    params: z.strictObject({}),
    result: z.strictObject({
      scheduled: z.boolean(),
      intervalMs: z.number().int().nonnegative(),
      /** The schedule's own: when this process last ran a scheduled tick (or Sweep.Tick); null before its first. */
      lastTickAt: z.number().int().nullable(),
      /**
       * The last check, as every surface says it ("Last check", "folders last checked"): when Steward
       * last looked at every enabled agent's folders and that run ended, whether a tick or an import that
       * covered all of them (Backfill.Run with no provider, or "all"). An import of one agent is not a check
       * of the others; a cancelled run is not one either. Kept across restarts (from the runs'
       * telemetry); null when there has been none.
       */
      lastCheckAt: z.number().int().nullable(),
      nextTickAt: z.number().int().nullable(),
    }),
  },
  /**
   * The transcript files of enabled providers that could not be read when last tried (the next tick
   * after one changes tries it again), newest failure first, at most `limit`; `total` counts them all.
   */
  'Sweep.Unreadable': {
    params: z.strictObject({ limit: z.number().int().min(1).max(1_000).optional() }),
    result: z.strictObject({ files: z.array(UnreadableFile), total: z.number().int().nonnegative() }),
  },
} as const;

export const sweepEvents = {
  /** The per-provider stats of a settled tick (scheduled) or backfill (manual). */
  'sweep.tick': z.strictObject({ kind: z.enum(['scheduled', 'manual']), at: z.number().int(), providers: z.array(ProviderSweepStats) }),
} as const;
