import { join } from 'node:path';
import { PROVIDER_IDS, rootKinds, SETTINGS_APPLIED_NOW, type Handlers, type SettingsValues } from '../api/index.js';
import { HOME_FILES, parseConfig, readConfigFile, writeConfig, type Config, type StewardHome } from '../config/index.js';

export interface SettingsDeps {
  home: StewardHome;
  env: NodeJS.ProcessEnv;
  /** The configuration the owner started with. */
  started: Config;
  /** The values that follow a save at once (the check interval's, the sweeper's and the log's), as they are now. */
  live: () => Pick<SettingsValues, 'sweepIntervalMs' | 'sweeperIgnore' | 'dailyModelCalls' | 'logLevel'>;
  /** Hands a saved configuration to the rooms that take it at once. */
  applyNow: (config: Config) => void;
}

function valuesOf(config: Config): SettingsValues {
  return {
    retentionDays: config.query.cache.retention.default_days,
    sweepIntervalMs: config.sweep.interval_ms,
    captureExclude: config.capture.exclude,
    sweeperIgnore: config.sweeper.ignore,
    dailyModelCalls: config.sweeper.daily_model_calls,
    logLevel: config.log.level,
    providers: Object.fromEntries(PROVIDER_IDS.map((id) => [id, { enabled: config.providers[id].enabled }])) as SettingsValues['providers'],
  };
}

/** The editable settings an environment variable decides, whatever config.json says. */
function fromEnvironment(env: NodeJS.ProcessEnv): Array<{ key: string; env: string }> {
  const set = (name: string) => env[name] !== undefined && (name.endsWith('_ROOTS') || env[name]!.trim() !== '');
  const interval = set('STEWARD_SWEEP_INTERVAL_MS') ? [{ key: 'sweep.interval_ms', env: 'STEWARD_SWEEP_INTERVAL_MS' }] : [];
  const roots = rootKinds().filter(({ kind }) => set(kind.env)).map(({ provider, key, kind }) => ({ key: `providers.${provider}.${key}`, env: kind.env }));
  return [...interval, ...roots];
}

/**
 * The settings a person changes in the panel: read from config.json as saved and from the owner as
 * running, written through config's one writer. Saved values that rooms take at once are handed to
 * them; the rest wait for the next start, and the reply says which is which.
 */
export function settingsHandlers(deps: SettingsDeps): Pick<Handlers, 'Settings.Config' | 'Settings.Update'> {
  const dir = deps.home.dir;
  const view = () => ({
    paths: { home: dir, config: join(dir, HOME_FILES.config), logs: join(dir, HOME_FILES.logs), notes: join(dir, HOME_FILES.projects) },
    homeKind: deps.home.kind,
    saved: valuesOf(parseConfig(readConfigFile(dir))),
    running: { ...valuesOf(deps.started), ...deps.live() },
    environment: fromEnvironment(deps.env),
  });
  return {
    'Settings.Config': view,
    'Settings.Update': ({ changes }) => {
      const config = writeConfig(dir, deps.env, changes);
      const saved = Object.keys(changes);
      const appliedNow = saved.filter((key) => SETTINGS_APPLIED_NOW.includes(key));
      if (appliedNow.length > 0) deps.applyNow(config);
      return { saved, appliedNow, atNextStart: saved.filter((key) => !appliedNow.includes(key)), config: view() };
    },
  };
}
