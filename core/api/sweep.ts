import { z } from 'zod';
import { SKIP_REASONS } from './lists.js';

/**
 * One provider's share of a sweep tick or backfill; counts files, never names them. Every listed file
 * lands in one bucket: read + unchanged + outsideWindow + vanished + failed + notReached = discovered,
 * except that entries which could not even be listed add to `failed` without being discovered.
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
  errors: z.array(z.strictObject({ code: z.string(), count: z.number().int().positive() })).optional(),
  /** Parts held back on purpose (present when any were): their conversation or project was forgotten, or its folder is excluded. */
  withheld: z.strictObject({ forgotten: z.number().int().nonnegative(), excluded: z.number().int().nonnegative() }).optional(),
});
export type ProviderSweepStats = z.infer<typeof ProviderSweepStats>;

export const SweepResult = z.strictObject({ providers: z.array(ProviderSweepStats) });
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
      lastTickAt: z.number().int().nullable(),
      nextTickAt: z.number().int().nullable(),
    }),
  },
} as const;

export const sweepEvents = {
  /** The per-provider stats of a settled tick (scheduled) or backfill (manual). */
  'sweep.tick': z.strictObject({ kind: z.enum(['scheduled', 'manual']), at: z.number().int(), providers: z.array(ProviderSweepStats) }),
} as const;
