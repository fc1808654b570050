import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import { SweeperOutcome } from '../api/index.js';


/** sweep-state.json: the activity gate's watermark, the failure budget and what the panel shows. */
export const SweeperState = z.object({
  version: z.literal(1).default(1),
  /** Newest activity (UTC ms) a successful sweep covered; the gate compares against it. */
  watermark: z.number().int().nullable().default(null),
  scratch: z.boolean().default(false),
  lastSweepAt: z.number().int().nullable().default(null),
  lastOutcome: SweeperOutcome.nullable().default(null),
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
export type SweeperState = z.infer<typeof SweeperState>;

export function emptyState(): SweeperState {
  return SweeperState.parse({});
}

/** A missing or damaged file reads as a fresh state: the next sweep simply runs. */
export function readState(file: string): SweeperState {
  try {
    const parsed = SweeperState.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : emptyState();
  } catch {
    return emptyState();
  }
}

export function writeState(file: string, state: SweeperState): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileAtomic.sync(file, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
}
