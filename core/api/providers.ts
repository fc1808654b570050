import { z } from 'zod';
// The registry itself (PROVIDERS and what derives from it) is registry.ts, which the panel imports too.
import { PROVIDER_IDS } from './registry.js';
// Why a root config.json or a STEWARD_*_ROOTS variable names is not read (see `leftOut`), with its words.
import { ROOT_LEFT_OUT_REASONS } from './root-words.js';

/** A folder and whether it is one there (a missing path or a file is not). */
const RootPath = z.strictObject({ path: z.string(), exists: z.boolean() });

/** One kind of root of one provider: what is read now, what config.json says, what was found by default. */
export const ProviderRootsView = z.strictObject({
  /** The config key under `providers.<id>`. */
  key: z.string(),
  label: z.string(),
  holds: z.string(),
  env: z.string(),
  /** The folders the running owner reads, each with whether it exists. */
  watched: z.array(RootPath),
  /** Where `watched` came from: the environment variable, config.json, or the default locations. */
  source: z.enum(['environment', 'config', 'default']),
  /** As saved in config.json (null: not set, the defaults apply); takes effect at the next start. */
  configured: z.array(z.string()).nullable(),
  /** The default locations on this computer, each with whether it exists. */
  detected: z.array(RootPath),
  /**
   * Folders the running owner left out, as written where they are read from (the environment's
   * variable when set, else config.json), and why: `not_full_path`, a relative folder (it would be read
   * under whichever folder Steward started in); `home_not_full_path`, one written from `~` while HOME is
   * not a full path (so `~` names no folder). Absent when none was.
   */
  leftOut: z.array(z.strictObject({ path: z.string(), reason: z.enum(ROOT_LEFT_OUT_REASONS) })).optional(),
});

export const ProviderSurvey = z.strictObject({
  provider: z.enum(PROVIDER_IDS),
  /** Transcript files found by listing the folders (nothing is read). */
  files: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
  /**
   * Oldest and newest last change of those files; null without files. The files' dates, not their
   * messages': a history copied from another computer is dated the day it was copied (see `stored`).
   */
  oldestAt: z.number().int().nullable(),
  newestAt: z.number().int().nullable(),
  /**
   * When the messages imported from this agent so far were written: its stored conversations' (and
   * subagents') first and last lines, whatever their files' dates. Present once any is stored.
   */
  stored: z.strictObject({ oldestAt: z.number().int(), newestAt: z.number().int() }).optional(),
  /**
   * The scheduled sweep's window in days (0: everything), and the files entirely older than it;
   * `imported`: those of them already read whole (an import of everything) and unchanged since, so
   * there is nothing in them left to import (though the clean-up of `cleanUpDays` may have removed
   * their messages since: the checkpoint stays).
   */
  windowDays: z.number().int().nonnegative(),
  /**
   * Where `windowDays` comes from: the agent's own `providers.<id>.backfill.window_days`, the cache
   * retention written in config.json (`query.cache.retention.default_days`, which the panel saves),
   * or the default year. A saved cache retention moves only the last two.
   */
  windowFrom: z.enum(['agent', 'retention', 'default']),
  /**
   * The window of the automatic clean-up in days (0: it removes nothing): a window written in
   * config.json, the agent's own or the cache retention. What an import of everything brings in that
   * is older than it is removed again, so none of `older.imported` stays imported.
   */
  cleanUpDays: z.number().int().nonnegative(),
  older: z.strictObject({
    files: z.number().int().nonnegative(),
    bytes: z.number().int().nonnegative(),
    imported: z.strictObject({ files: z.number().int().nonnegative(), bytes: z.number().int().nonnegative() }),
  }),
  /**
   * Up to this many messages the imports left out as older than the window, from files changed within
   * it: the window applies to a line's own time, and a copied or restored file carries old lines under
   * a new date, which `older` (file times) cannot show. Counted as the transcript lines (records) left
   * out, each one message, per file as its checkpoint holds it: a message copied into several files (a
   * resumed session carries the session it resumed, a fork, an archive) counts in each, so importing
   * everything may write fewer. The files of `olderUncounted` count none; 0 with no window.
   */
  olderMessages: z.number().int().nonnegative(),
  /**
   * Files changed within the window whose older messages `olderMessages` does not count: files imported
   * before Steward kept that count (and not read whole since: an import on request of the scheduled
   * window or wider counts them), or read last with a narrower window than the scheduled one (until
   * the next tick reads them again). While there are any, not all there is may have been imported.
   */
  olderUncounted: z.number().int().nonnegative(),
  /** Entries that could not be listed. */
  failed: z.number().int().nonnegative(),
});

export const providersMethods = {
  /** Every provider's kinds of root, resolved as the owner reads them, with whether each folder exists. */
  'Providers.Roots': {
    params: z.strictObject({}),
    result: z.strictObject({
      providers: z.array(z.strictObject({ provider: z.enum(PROVIDER_IDS), label: z.string(), enabled: z.boolean(), roots: z.array(ProviderRootsView) })),
    }),
  },
  /**
   * What the watched folders hold, from listing them alone (no transcript is opened): files, size,
   * dates, and how much lies before the scheduled window. Enabled providers, registry order.
   */
  'Providers.Survey': {
    params: z.strictObject({}),
    result: z.strictObject({ providers: z.array(ProviderSurvey), durationMs: z.number().int().nonnegative() }),
  },
} as const;
