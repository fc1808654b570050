import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from '../config/index.js';
import { z } from 'zod';

export const SweepOutcome = z.enum(['ok', 'nochange', 'failed', 'paused', 'skipped']);
export type SweepOutcome = z.infer<typeof SweepOutcome>;

/** sweep-state.json: the activity gate's watermark, the failure budget and what the panel shows. */
export const SweepState = z.object({
  version: z.literal(1).default(1),
  /** Newest activity (UTC ms) a successful sweep covered; the gate compares against it. */
  watermark: z.number().int().nullable().default(null),
  scratch: z.boolean().default(false),
  lastSweepAt: z.number().int().nullable().default(null),
  lastOutcome: SweepOutcome.nullable().default(null),
  lastError: z.object({ code: z.string(), message: z.string() }).nullable().default(null),
  lastMode: z.string().nullable().default(null),
  lastModel: z.string().nullable().default(null),
  consecutiveFailures: z.number().int().min(0).default(0),
  /** Until then, an un-forced sweep of this project backs off. */
  nextAttemptAt: z.number().int().nullable().default(null),
  tokensIn: z.number().int().min(0).default(0),
  tokensOut: z.number().int().min(0).default(0),
  /** Set when the last write left OVERVIEW.md alone because the user had edited it. */
  overviewPreserved: z.boolean().default(false),
});
export type SweepState = z.infer<typeof SweepState>;

export function emptyState(): SweepState {
  return SweepState.parse({});
}

/** A missing or damaged file reads as a fresh state: the next sweep simply runs. */
export function readState(file: string): SweepState {
  try {
    const parsed = SweepState.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : emptyState();
  } catch {
    return emptyState();
  }
}

export function writeState(file: string, state: SweepState): void {
  ensurePrivateDir(dirname(file));
  writeFileAtomic.sync(file, `${JSON.stringify(state, null, 2)}\n`, { mode: PRIVATE_FILE_MODE });
}
