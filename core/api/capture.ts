import { z } from 'zod';

/** One provider's share of a sweep tick or backfill; counts files, never names them. */
export const ProviderSweepStats = z.strictObject({
  provider: z.string(),
  discovered: z.number().int().nonnegative(),
  /** Files read (not bytes, not lines). */
  read: z.number().int().nonnegative(),
  unchanged: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  partsWritten: z.number().int().nonnegative(),
  durationMs: z.number().int().nonnegative(),
  /** Complete lines skipped as malformed or above the line cap. */
  failedLines: z.number().int().nonnegative().optional(),
  /** Files listed but gone before they were read (deleted or rotated meanwhile): not failures. */
  vanished: z.number().int().nonnegative().optional(),
  /** Why files or folders failed, by error code (an errno or SQLite code; never a path or text). */
  errors: z.array(z.strictObject({ code: z.string(), count: z.number().int().positive() })).optional(),
});
export type ProviderSweepStats = z.infer<typeof ProviderSweepStats>;

export const SweepResult = z.strictObject({ providers: z.array(ProviderSweepStats) });
export type SweepResult = z.infer<typeof SweepResult>;

export const CAPTURE_PROVIDERS = ['claude', 'openclaw'] as const;

export const captureMethods = {
  'Sweep.Tick': {
    params: z.strictObject({}),
    result: SweepResult,
  },
  'Backfill.Run': {
    params: z
      .strictObject({
        provider: z.enum([...CAPTURE_PROVIDERS, 'all']).optional(),
        /** The window in days back from now; 0 means everything. */
        days: z.number().int().min(0).max(36_500).optional(),
        /** Everything, whatever its age. */
        all: z.boolean().optional(),
      })
      .refine((p) => !(p.days !== undefined && p.all === true), { message: 'days and all cannot be combined' }),
    result: SweepResult,
  },
  /** Stops every manual or onboarding backfill: queued ones never start, the running one stops between batches. */
  'Backfill.Cancel': {
    params: z.strictObject({}),
    result: z.strictObject({ cancelled: z.number().int().nonnegative() }),
  },
} as const;

export const captureEvents = {
  /** The per-provider stats of a settled tick (scheduled) or backfill (manual). */
  'sweep.tick': z.strictObject({ kind: z.enum(['scheduled', 'manual']), at: z.number().int(), providers: z.array(ProviderSweepStats) }),
  'backfill.progress': z.strictObject({
    provider: z.string(),
    filesDone: z.number().int().nonnegative(),
    filesTotal: z.number().int().nonnegative(),
    partsWritten: z.number().int().nonnegative(),
  }),
} as const;
