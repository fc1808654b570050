import { z } from 'zod';

/** Spec 001: the per-project sweeper, its notes, and the curator settings. */
const projectKey = z.string().regex(/^p_[0-9a-f]{16}$/, 'expected a projectKey like p_0123456789abcdef');
const curator = z.enum(['offline', 'anthropic', 'openai-compatible']);
const ms = z.number().int().nullable();
const remoteCurator = z.enum(['anthropic', 'openai-compatible']);
const keySource = z.enum(['keychain', 'environment', 'none']);
/** A pasted API key. The messages never echo the value, so a rejected key cannot leak through an error. */
const apiKey = z
  .string()
  .trim()
  .min(8, 'an API key has at least 8 characters')
  .max(512, 'an API key has at most 512 characters')
  .regex(/^[\x21-\x7e]+$/, 'an API key is printable ASCII without spaces');

/** Whether a remote curator has a key, and where it comes from; never the key itself. */
export const ApiKeyPresence = z.strictObject({ present: z.boolean(), source: keySource, envVar: z.string() });

/**
 * Set when sweep-state.json could not be read back: the damaged file was kept aside as `keptAs` (a
 * file name in the project's folder) or left in place (`state_unreadable`), and scratch was read back
 * from it (`recovered`) or held on until the user decides (`assumed`).
 */
export const SweepStateDegraded = z.strictObject({
  code: z.enum(['state_corrupt', 'state_unreadable']),
  since: z.number().int(),
  keptAs: z.string().nullable(),
  scratch: z.enum(['recovered', 'assumed']),
});
export type SweepStateDegraded = z.infer<typeof SweepStateDegraded>;

export const SweepStateView = z.strictObject({
  watermark: ms,
  scratch: z.boolean(),
  lastSweepAt: ms,
  lastOutcome: z.enum(['ok', 'nochange', 'failed', 'paused', 'skipped']).nullable(),
  lastError: z.strictObject({ code: z.string(), message: z.string() }).nullable(),
  lastMode: z.string().nullable(),
  lastModel: z.string().nullable(),
  consecutiveFailures: z.number().int().nonnegative(),
  nextAttemptAt: ms,
  tokensIn: z.number().int().nonnegative(),
  tokensOut: z.number().int().nonnegative(),
  overviewPreserved: z.boolean(),
  /** A damaged sweep-state.json, kept aside (additive: absent means none). */
  degraded: SweepStateDegraded.nullable().optional(),
});
export type SweepStateView = z.infer<typeof SweepStateView>;

export const CuratorPause = z.strictObject({ curator, reason: z.enum(['spend_limit', 'auth']), message: z.string(), since: z.number().int() });

export const SweeperRunResult = z.strictObject({
  projectKey,
  outcome: z.enum(['ok', 'nochange', 'skipped']),
  /** Why a sweep was skipped: no-activity, backoff, scratch, ignored, disabled. */
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
});
export type SweeperRunResult = z.infer<typeof SweeperRunResult>;

export const SweeperSettingsView = z.strictObject({
  curator,
  model: z.string(),
  baseUrl: z.string().nullable(),
  anthropicBaseUrl: z.string().nullable(),
  minIntervalMs: z.number().int().nonnegative(),
  inputTokenBudget: z.number().int().positive(),
  timeoutMs: z.number().int().positive(),
  /** Whether a key is available to the owner (never the key itself). */
  keys: z.strictObject({ anthropic: z.boolean(), openai: z.boolean() }),
  apiKeys: z.strictObject({ anthropic: ApiKeyPresence, 'openai-compatible': ApiKeyPresence }),
  /** Whether Settings.SetApiKey can keep a key here (the app's keychain), and if not, why. */
  keyStore: z.strictObject({ kind: z.enum(['keychain', 'environment']), writable: z.boolean(), message: z.string().nullable() }),
  paused: z.array(CuratorPause),
});
export type SweeperSettingsView = z.infer<typeof SweeperSettingsView>;

export const sweeperMethods = {
  'Projects.Get': {
    params: z.strictObject({ projectKey }),
    result: z.strictObject({
      projectKey,
      name: z.string(),
      cwd: z.string(),
      repoBacked: z.boolean(),
      slug: z.string(),
      overview: z.string().nullable(),
      changelog: z.string().nullable(),
      /** Steward's CLAUDE.md for a non-repo project; null for repo-backed ones or when none exists yet. */
      claudeMd: z.string().nullable(),
      ignored: z.boolean(),
      state: SweepStateView,
      paused: CuratorPause.nullable(),
    }),
  },
  'Sweeper.Run': {
    params: z.strictObject({ projectKey, force: z.boolean().optional() }),
    result: SweeperRunResult,
  },
  'Projects.SetScratch': {
    params: z.strictObject({ projectKey, scratch: z.boolean() }),
    result: z.strictObject({ projectKey, scratch: z.boolean() }),
  },
  'Settings.Get': {
    params: z.strictObject({}),
    result: z.strictObject({ sweeper: SweeperSettingsView }),
  },
  'Settings.SetCurator': {
    params: z.strictObject({
      curator,
      model: z.string().min(1).max(200).optional(),
      baseUrl: z.url().nullable().optional(),
      anthropicBaseUrl: z.url().nullable().optional(),
    }),
    result: z.strictObject({ sweeper: SweeperSettingsView }),
  },
  /** Keeps (or with null, forgets) a remote curator's key in the app's keychain; headless mode refuses. */
  'Settings.SetApiKey': {
    params: z.strictObject({ curator: remoteCurator, key: apiKey.nullable() }),
    result: z.strictObject({ stored: z.boolean(), source: keySource }),
  },
} as const;

export const sweeperEvents = {
  'sweeper.started': z.strictObject({ projectKey, mode: curator, model: z.string().nullable() }),
  'sweeper.finished': SweeperRunResult,
  'sweeper.failed': z.strictObject({ projectKey, code: z.string(), message: z.string(), paused: z.boolean() }),
} as const;
