import { z } from 'zod';
import { CURATOR_KINDS, DATA_BOUNDARIES } from './lists.js';
import { ProjectKey } from './ids.js';

/** Spec 001: the per-project sweeper that curates a project's notes. */
const curator = z.enum(CURATOR_KINDS);
const ms = z.number().int().nullable();

export const SweeperOutcome = z.enum(['ok', 'nochange', 'failed', 'paused', 'skipped']);

/**
 * Set when sweep-state.json could not be read back: the damaged file was kept aside as `keptAs` (a
 * file name in the project's folder) or left in place (`state_unreadable`), and scratch was read back
 * from it (`recovered`) or held on until the user decides (`assumed`).
 */
export const SweeperStateDegraded = z.strictObject({
  code: z.enum(['state_corrupt', 'state_unreadable']),
  since: z.number().int(),
  keptAs: z.string().nullable(),
  scratch: z.enum(['recovered', 'assumed']),
});
export type SweeperStateDegraded = z.infer<typeof SweeperStateDegraded>;

export const SweeperStateView = z.strictObject({
  watermark: ms,
  scratch: z.boolean(),
  lastSweepAt: ms,
  lastOutcome: SweeperOutcome.nullable(),
  lastError: z.strictObject({ code: z.string(), message: z.string() }).nullable(),
  lastMode: z.string().nullable(),
  lastModel: z.string().nullable(),
  consecutiveFailures: z.number().int().nonnegative(),
  nextAttemptAt: ms,
  tokensIn: z.number().int().nonnegative(),
  tokensOut: z.number().int().nonnegative(),
  overviewPreserved: z.boolean(),
  /** A damaged sweep-state.json, kept aside (additive: absent means none). */
  degraded: SweeperStateDegraded.nullable().optional(),
  /** Since a conversation of the project was forgotten, its notes wait for a rebuild and are withheld (additive). */
  notesStaleSince: ms.optional(),
});
export type SweeperStateView = z.infer<typeof SweeperStateView>;

/** Why a curator stands still: the provider refused (spend limit, key), or today's model-call budget is spent. */
export const CuratorPause = z.strictObject({ curator, reason: z.enum(['spend_limit', 'auth', 'daily_budget', 'record_damaged']), message: z.string(), since: z.number().int() });

const count = z.number().int().nonnegative();
export const SweeperBudget = z.strictObject({ limit: count, usedToday: count });

export const SweeperRunResult = z.strictObject({
  projectKey: ProjectKey,
  outcome: z.enum(['ok', 'nochange', 'skipped']),
  /**
   * Why a sweep was skipped: no-activity, backoff, scratch, ignored, disabled, daily-budget. On a
   * forced sweep that ran with nothing newer than the last one, `nothing-new`: the overview was
   * redone if needed, the changelog left alone (`changelog: 'none'`). Also `nothing-new` for a rebuild
   * after a forget whose days the kept CHANGELOG.md already holds (`changelog: 'empty'`: no day added).
   */
  reason: z.string().nullable(),
  mode: curator,
  model: z.string().nullable(),
  calls: z.number().int().nonnegative(),
  tokensIn: z.number().int().nonnegative(),
  tokensOut: z.number().int().nonnegative(),
  durationMs: z.number().int().nonnegative(),
  overview: z.enum(['written', 'unchanged', 'preserved', 'empty', 'none']),
  changelog: z.enum(['appended', 'duplicate', 'empty', 'none']),
  factsAdded: z.number().int().nonnegative(),
  /** A plain sentence when the person's own edit of OVERVIEW.md was kept (see `overview: 'preserved'`). */
  note: z.string().optional(),
});
export type SweeperRunResult = z.infer<typeof SweeperRunResult>;

export const sweeperMethods = {
  'Sweeper.Run': {
    params: z.strictObject({ projectKey: ProjectKey, force: z.boolean().optional() }),
    result: SweeperRunResult,
  },
  /** What "Sweep all projects now" would do: how many projects, with which curator, where the text goes. */
  'Sweeper.PlanAll': {
    params: z.strictObject({}),
    result: z.strictObject({
      projects: count,
      curator,
      model: z.string().nullable(),
      dataBoundary: z.enum(DATA_BOUNDARIES),
      maxModelCalls: count,
      budget: SweeperBudget,
      /** Whether the sweeper is turned on (config.json's sweeper.enabled); when off, nothing is eligible (additive). */
      enabled: z.boolean().optional(),
    }),
  },
  /** Runs the plan the caller was shown; a changed count or curator is `stale_plan`. */
  'Sweeper.RunAll': {
    params: z.strictObject({ projects: count, curator }),
    result: z.strictObject({
      projects: count,
      ok: count,
      nochange: count,
      skipped: count,
      failed: count,
      paused: count,
      calls: count,
      /**
       * Each project swept, by name, with its outcome: a skip's `reason` code, or a failure's or a
       * pause's `message` in words (additive: absent from older owners).
       */
      results: z.array(z.strictObject({ projectKey: ProjectKey, name: z.string(), outcome: SweeperOutcome, reason: z.string().nullable(), message: z.string().nullable() })).optional(),
    }),
  },
} as const;

export const sweeperEvents = {
  'sweeper.started': z.strictObject({ projectKey: ProjectKey, mode: curator, model: z.string().nullable() }),
  'sweeper.finished': SweeperRunResult,
  'sweeper.failed': z.strictObject({ projectKey: ProjectKey, code: z.string(), message: z.string(), paused: z.boolean() }),
} as const;
