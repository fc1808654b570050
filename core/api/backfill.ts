import { z } from 'zod';
import { PROVIDER_IDS } from './registry.js';
import { SweepResult } from './sweep.js';

/** Manual and onboarding imports of transcript history; they share the sweep's queue and result shape. */
export const backfillMethods = {
  'Backfill.Run': {
    params: z
      .strictObject({
        provider: z.enum([...PROVIDER_IDS, 'all']).optional(),
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

export const backfillEvents = {
  'backfill.progress': z.strictObject({
    provider: z.string(),
    filesDone: z.number().int().nonnegative(),
    filesTotal: z.number().int().nonnegative(),
    partsWritten: z.number().int().nonnegative(),
  }),
} as const;
