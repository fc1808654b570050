import { z } from 'zod';
import { CURATOR_KINDS, DATA_BOUNDARIES, LOG_LEVELS, REMOTE_CURATORS } from './lists.js';
import { PROVIDER_IDS, PROVIDERS } from './registry.js';
import { CuratorPause, SweeperBudget } from './sweeper.js';

/** The settings a person changes from the panel: today the sweeper's curator and its API keys. */
const curator = z.enum(CURATOR_KINDS);
const remoteCurator = z.enum(REMOTE_CURATORS);
const keySource = z.enum(['keychain', 'environment', 'none']);
/** A pasted API key. The messages never echo the value, so a rejected key cannot leak through an error. */
const apiKey = z
  .string()
  .trim()
  .min(8, 'an API key has at least 8 characters')
  .max(512, 'an API key has at most 512 characters')
  .regex(/^[\x21-\x7e]+$/, 'an API key is printable ASCII without spaces');

/**
 * An endpoint Steward asks over HTTP (a model, an embedding server). `z.url()` alone takes any scheme,
 * so `ftp://x` was saved and then tried as a model endpoint: one rule for every endpoint setting.
 */
export const HttpUrl = z.url({ protocol: /^https?$/ });

/** Whether a remote curator has a key, and where it comes from; never the key itself. */
export const ApiKeyPresence = z.strictObject({ present: z.boolean(), source: keySource, envVar: z.string() });

export const SweeperSettingsView = z.strictObject({
  /** Whether notes are curated at all (config.json's sweeper.enabled); optional for older owners. */
  enabled: z.boolean().optional(),
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
  /** Where the chosen curator sends transcript text. */
  dataBoundary: z.enum(DATA_BOUNDARIES),
  /** Model calls a day across every project, and today's spend. */
  budget: SweeperBudget,
});
export type SweeperSettingsView = z.infer<typeof SweeperSettingsView>;

/** Whether Steward starts when the person logs in, and how this Steward would do it. Off by default. */
export const StartAtLoginView = z.strictObject({
  enabled: z.boolean(),
  /** Whether this Steward can change it here (the app can everywhere; headless mode on Linux only). */
  supported: z.boolean(),
  /** A login item (macOS, Windows), an XDG autostart entry (Linux), or none. */
  mechanism: z.enum(['login-item', 'xdg-autostart', 'none']),
  /** What starts at login: the desktop app, or headless `steward serve`. */
  launches: z.enum(['app', 'headless']).nullable(),
  /** A sentence for people when there is something to say (approval pending, not possible here). */
  message: z.string().nullable(),
});
export type StartAtLoginView = z.infer<typeof StartAtLoginView>;

/**
 * The settings of config.json a person changes in the panel, by their dotted names. Everything else
 * in the file stays as written; `Settings.Update` refuses any other key.
 */
export const EDITABLE_SETTINGS = [
  'query.cache.retention.default_days',
  'sweep.interval_ms',
  'capture.exclude',
  'sweeper.ignore',
  'sweeper.daily_model_calls',
  'log.level',
  ...PROVIDER_IDS.flatMap((id) => [`providers.${id}.enabled`, ...Object.keys(PROVIDERS[id].roots).map((key) => `providers.${id}.${key}`)]),
] as const;

/** Settings that take effect as soon as they are saved; every other one at Steward's next start. */
export const SETTINGS_APPLIED_NOW: readonly string[] = ['sweep.interval_ms', 'sweeper.ignore', 'sweeper.daily_model_calls', 'log.level'];

export function isEditableSetting(key: string): boolean {
  return (EDITABLE_SETTINGS as readonly string[]).includes(key);
}

/**
 * Each key of a change that is not an editable setting, said as its own issue at that key. A refined
 * record key would not do: zod wraps a key's refusal in an `invalid_key` issue of its own
 * ("Invalid key in record"), and the words below would be lost to the generic ones.
 */
function unknownSettings(changes: Record<string, unknown>, ctx: z.RefinementCtx): void {
  for (const key of Object.keys(changes).filter((k) => !isEditableSetting(k))) {
    ctx.addIssue({ code: 'custom', path: [key], input: key, message: `${key} is not a setting the panel changes` });
  }
}

/** One side of the settings a person changes: as config.json holds them (defaults filled in), or as the running owner uses them. */
export const SettingsValues = z.strictObject({
  retentionDays: z.number().int().nonnegative(),
  sweepIntervalMs: z.number().int().nonnegative(),
  captureExclude: z.array(z.string()),
  sweeperIgnore: z.array(z.string()),
  dailyModelCalls: z.number().int().nonnegative(),
  logLevel: z.enum(LOG_LEVELS),
  providers: z.record(z.enum(PROVIDER_IDS), z.strictObject({ enabled: z.boolean() })),
});
export type SettingsValues = z.infer<typeof SettingsValues>;

/** Where this Steward keeps its files, for the local panel to show and copy (never logged). */
export const HomePaths = z.strictObject({ home: z.string(), config: z.string(), logs: z.string(), notes: z.string() });

export const SettingsConfigView = z.strictObject({
  paths: HomePaths,
  /** Where STEWARD_HOME came from. */
  homeKind: z.enum(['env', 'platform-default']),
  /** As saved in config.json, defaults filled in. */
  saved: SettingsValues,
  /** As the running owner uses them (environment overrides included); differs from `saved` until a restart. */
  running: SettingsValues,
  /** Settings an environment variable decides whatever config.json says: the dotted key and the variable. */
  environment: z.array(z.strictObject({ key: z.string(), env: z.string() })),
});
export type SettingsConfigView = z.infer<typeof SettingsConfigView>;

export const settingsMethods = {
  /** The settings a person changes here, saved and running, and where the files are. */
  'Settings.Config': {
    params: z.strictObject({}),
    result: SettingsConfigView,
  },
  /**
   * Changes settings by dotted name (`null` returns one to its default) through the one writer of
   * config.json: validated by the config schema as a whole, written atomically, or refused with
   * `config_invalid` and `details.fields` naming each wrong key. Says which apply now and which at
   * the next start.
   */
  'Settings.Update': {
    params: z.strictObject({
      changes: z
        .record(z.string(), z.json())
        .superRefine(unknownSettings)
        .refine((changes) => Object.keys(changes).length > 0, { message: 'name at least one setting' }),
    }),
    result: z.strictObject({
      saved: z.array(z.string()),
      appliedNow: z.array(z.string()),
      atNextStart: z.array(z.string()),
      config: SettingsConfigView,
    }),
  },
  /**
   * Tries a curator before it is saved: one small request to the endpoint it would use (listing
   * models), naming the host it tried. Offline needs nothing and always passes.
   */
  'Settings.TestCurator': {
    params: z.strictObject({
      curator,
      model: z.string().min(1).max(200).optional(),
      baseUrl: HttpUrl.nullable().optional(),
      anthropicBaseUrl: HttpUrl.nullable().optional(),
    }),
    result: z.strictObject({
      ok: z.boolean(),
      /** The host (and port) that was asked; null for offline. */
      host: z.string().nullable(),
      message: z.string(),
      /** Whether the endpoint lists the model (null when it does not say). */
      modelListed: z.boolean().nullable(),
    }),
  },
  'Settings.Get': {
    params: z.strictObject({}),
    result: z.strictObject({ sweeper: SweeperSettingsView }),
  },
  'Settings.SetCurator': {
    params: z.strictObject({
      curator,
      model: z.string().min(1).max(200).optional(),
      baseUrl: HttpUrl.nullable().optional(),
      anthropicBaseUrl: HttpUrl.nullable().optional(),
    }),
    result: z.strictObject({ sweeper: SweeperSettingsView }),
  },
  /** The daily budget of model calls across projects (remote curators only); written to config.json. */
  'Settings.SetBudget': {
    params: z.strictObject({ dailyModelCalls: z.number().int().min(0).max(100_000) }),
    result: z.strictObject({ sweeper: SweeperSettingsView }),
  },
  /**
   * Asks a local Ollama server (127.0.0.1:11434 unless configured) which models it has, to offer them
   * as an OpenAI-compatible curator. It chooses nothing: the user does, with Settings.SetCurator.
   */
  'Settings.LocalModels': {
    params: z.strictObject({}),
    result: z.strictObject({
      available: z.boolean(),
      /** The OpenAI-compatible endpoint to choose (`…/v1`). */
      baseUrl: z.string(),
      models: z.array(z.string()),
      dataBoundary: z.enum(DATA_BOUNDARIES),
      message: z.string(),
    }),
  },
  /** Keeps (or with null, forgets) a remote curator's key in the app's keychain; headless mode refuses. */
  'Settings.SetApiKey': {
    params: z.strictObject({ curator: remoteCurator, key: apiKey.nullable() }),
    result: z.strictObject({ stored: z.boolean(), source: keySource }),
  },
  'Settings.GetStartAtLogin': {
    params: z.strictObject({}),
    result: StartAtLoginView,
  },
  /** Adds or removes the start-at-login entry; the reply is what is now true. */
  'Settings.SetStartAtLogin': {
    params: z.strictObject({ enabled: z.boolean() }),
    result: StartAtLoginView,
  },
} as const;
