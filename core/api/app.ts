import { z } from 'zod';

export const PROTOCOL_VERSION = 1;

/**
 * The maintenance protocol an owner speaks: 1 the spec's low-level methods (Enroll, List, Reconcile,
 * ReconcileRegistration, ResolveConfig, Disable), 2 adds the setup surface (Maintenance.Plan/Apply).
 * A terminal that starts or finds an owner applies a plan only through one that speaks 2.
 */
export const MAINTENANCE_PROTOCOL = 2;

/**
 * The owner's headline state, most urgent first: something failed, something needs the person,
 * something runs, the person paused the schedule, or all is current. The panel adds `disconnected`
 * on its side when it cannot hear the owner.
 */
export const STATUS_STATES = ['error', 'attention', 'working', 'paused', 'idle'] as const;
export type StatusState = (typeof STATUS_STATES)[number];

/** The panel's places a status item can send a person to. */
export const STATUS_PLACES = ['projects', 'maintenance', 'conflicts', 'telemetry', 'settings'] as const;
export type StatusPlace = (typeof STATUS_PLACES)[number];

/**
 * What a status item is about. Working: `import` (a transcript sweep or backfill), `curate` (a
 * project's notes), `sync` (a repository cache), `index` (the search index's walk: until it ends, some
 * matches may be missing), `forget` (a conversation or project being deleted). Needs the person: `conflict`, `curator-paused`,
 * `provider-failing`, `plan-waiting` (an agent's maintenance plan that only a person may confirm),
 * `files-unreadable` (transcript files whose own bytes could not be read: the file's trouble, not
 * Steward's, so it warns and names the count; which files is `Sweep.Unreadable`'s, never the status's).
 * Failed: `import-failed`, `curator-failed`, `sync-failed`.
 */
export const STATUS_KINDS = ['import', 'curate', 'sync', 'index', 'forget', 'conflict', 'curator-paused', 'provider-failing', 'plan-waiting', 'files-unreadable', 'import-failed', 'curator-failed', 'sync-failed'] as const;
export type StatusKind = (typeof STATUS_KINDS)[number];

export const StatusItem = z.strictObject({
  kind: z.enum(STATUS_KINDS),
  /** Which provider, project, curator, registration or conflict, stable across updates; never a path. */
  subject: z.string().nullable(),
  /** One sentence for people, complete on its own. */
  text: z.string().max(240),
  /** Where in the panel a person deals with it. */
  place: z.enum(STATUS_PLACES).nullable(),
});
export type StatusItem = z.infer<typeof StatusItem>;

/**
 * The one status every surface shows (status bar, tray, window title, `steward info`): the headline
 * `state` and `message`, plus each list in full so nothing hides behind the headline.
 */
export const AppStatus = z.strictObject({
  state: z.enum(STATUS_STATES),
  /** The headline in words; it names what, never just the state. */
  message: z.string(),
  /** The person paused scheduled work (imports and curation wait; asked-for work still runs). */
  paused: z.boolean(),
  working: z.array(StatusItem),
  attention: z.array(StatusItem),
  errors: z.array(StatusItem),
  /**
   * Every other fact, once, in words (errors, then what needs the person, then work in hand, then the
   * pause): what a tooltip, the status bar or `steward info` shows beside the headline.
   */
  details: z.array(z.string()),
});
export type AppStatus = z.infer<typeof AppStatus>;

export const PAUSED_TEXT = 'Paused — scheduled imports and note curation wait until you resume';

/** The headline, then every other fact once: so a paused or failing Steward never says "paused" twice or hides a second problem. */
export function statusLines(status: AppStatus): string[] {
  return [status.message, ...status.details];
}

export const appMethods = {
  'App.Info': {
    params: z.strictObject({}),
    result: z.strictObject({
      name: z.literal('Steward'),
      version: z.string(),
      /**
       * The contract's fingerprint (contractFingerprint): two builds of one version may differ in what
       * their methods take, and a client refused by an owner of another build says to restart it.
       */
      contract: z.string(),
      protocol: z.number().int(),
      maintenanceProtocol: z.number().int(),
      /** Where STEWARD_HOME came from; never the path itself. */
      homeKind: z.enum(['env', 'platform-default']),
      platform: z.string(),
      uptimeMs: z.number().int().nonnegative(),
      status: AppStatus,
    }),
  },
  /** Whether the person has been through the first-run view (kept in STEWARD_HOME, so every tab and the app agree). */
  'App.FirstRun': {
    params: z.strictObject({}),
    result: z.strictObject({ done: z.boolean(), doneAt: z.number().int().nullable() }),
  },
  'App.SetFirstRunDone': {
    params: z.strictObject({ done: z.boolean() }),
    result: z.strictObject({ done: z.boolean(), doneAt: z.number().int().nullable() }),
  },
  'App.SetPaused': {
    params: z.strictObject({ paused: z.boolean() }),
    result: z.strictObject({ status: AppStatus }),
  },
  /**
   * Replaces the per-install panel token: open tabs and clients holding the old one are refused from
   * now on. The new token is never in the reply; it is in STEWARD_HOME (and daemon.json) only.
   */
  'App.RotateToken': {
    params: z.strictObject({}),
    result: z.strictObject({ rotatedAt: z.number().int() }),
  },
  /**
   * Stops the running owner (`steward stop`): it answers first, then finishes what it is writing,
   * closes the stores and removes daemon.json. Only an owner can be stopped (`unsupported` otherwise).
   */
  'App.Stop': {
    params: z.strictObject({}),
    result: z.strictObject({ stopping: z.literal(true), pid: z.number().int() }),
  },
} as const;

export const appEvents = {
  'app.status': AppStatus,
} as const;
