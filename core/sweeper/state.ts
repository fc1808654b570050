import { readFileSync, renameSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import { SweeperOutcome, SweeperStateDegraded } from '../api/index.js';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from '../config/index.js';
import { errorCode, type Logger } from '../log/index.js';

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
  /**
   * A damaged file kept aside: the project started afresh except for its scratch flag, which is never
   * dropped silently. Cleared by the next successful sweep or by the user setting scratch.
   */
  degraded: SweeperStateDegraded.nullable().default(null),
});
export type SweeperState = z.infer<typeof SweeperState>;

export function emptyState(): SweeperState {
  return SweeperState.parse({});
}

/** `"scratch": true|false` as far as the damaged text still says it; undefined when it does not. */
function scratchIn(text: string): boolean | undefined {
  const said = [...text.matchAll(/"scratch"\s*:\s*(true|false)\b/g)].map((m) => m[1] === 'true');
  // Two different answers are no answer.
  return said.length > 0 && said.every((v) => v === said[0]) ? said[0] : undefined;
}

/** `sweep-state.json.corrupt-2026-12-01T10-20-30-456Z`: sortable, and a valid name on every platform. */
function asideName(file: string, now: number): string {
  return `${file}.corrupt-${new Date(now).toISOString().replace(/[:.]/g, '-')}`;
}

/** Moves a damaged file aside under a `.corrupt-<time>` name; returns that name, or null when it could not. */
export function keepAside(file: string, logger: Logger | undefined, now = Date.now()): string | null {
  const aside = asideName(file, now);
  try {
    renameSync(file, aside);
    return basename(aside);
  } catch (error) {
    logger?.warn('damaged file could not be kept aside', { code: errorCode(error) });
    return null;
  }
}

/**
 * A missing file reads as a fresh state: the next sweep simply runs. A damaged one is moved aside,
 * logged by its code and replaced by a fresh state that carries the scratch flag and says it is
 * degraded; an unreadable one is left in place and reads as degraded and scratch.
 */
export function readState(file: string, logger?: Logger, now = Date.now()): SweeperState {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT') return emptyState();
    logger?.warn('sweep state unreadable; the project is held as scratch', { code });
    return { ...emptyState(), scratch: true, degraded: { code: 'state_unreadable', since: now, keptAs: null, scratch: 'assumed' } };
  }
  const parsed = SweeperState.safeParse(parseJson(text));
  if (parsed.success) return parsed.data;
  return recoverCorrupt(file, text, logger, now);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function recoverCorrupt(file: string, text: string, logger: Logger | undefined, now: number): SweeperState {
  const scratch = scratchIn(text);
  const keptAs = keepAside(file, logger, now);
  const state: SweeperState = { ...emptyState(), scratch: scratch ?? true, degraded: { code: 'state_corrupt', since: now, keptAs, scratch: scratch === undefined ? 'assumed' : 'recovered' } };
  logger?.warn('sweep state damaged; kept aside and started afresh', { code: 'state_corrupt', scratch: state.degraded!.scratch, keptAside: keptAs !== null });
  // Only once the damaged file is safe: otherwise the next read tries again.
  if (keptAs !== null) {
    try {
      writeState(file, state);
    } catch (error) {
      logger?.warn('fresh sweep state could not be written', { code: errorCode(error) });
    }
  }
  return state;
}

export function writeState(file: string, state: SweeperState): void {
  ensurePrivateDir(dirname(file));
  writeFileAtomic.sync(file, `${JSON.stringify(state, null, 2)}\n`, { mode: PRIVATE_FILE_MODE });
}
