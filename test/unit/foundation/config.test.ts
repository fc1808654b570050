import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StewardError } from '../../../core/api/index.js';
import { applyEnvOverrides, explicitKeys, loadConfig, parseConfig, resolveHome } from '../../../core/config/index.js';
import { platformDataDir } from '../../../core/config/home.js';
import { saveCuratorChoice } from '../../../core/sweeper/settings.js';
import { tempHome, type TempHome } from '../../support/home.js';

function errorOf(fn: () => unknown): StewardError {
  try {
    fn();
  } catch (error) {
    if (error instanceof StewardError) return error;
    throw error;
  }
  throw new Error('expected a StewardError');
}

describe('config', () => {
  let home: TempHome;
  afterEach(() => home?.cleanup());

  it('fills every documented default from an empty object', () => {
    const config = parseConfig({});
    expect(config.query.cache.retention.default_days).toBe(365);
    expect(config.providers.claude.backfill.window_days).toBe(0);
    expect(config.sweep.interval_ms).toBe(300_000);
    expect(config.sweep.handoff_timeout_ms).toBe(600_000);
    expect(config.sweeper.min_interval_ms).toBe(300_000);
    expect(config.sweeper.model).toBeUndefined();
    expect(config.sweeper.curator).toBe('offline');
    expect(config.server.port).toBe(47_470);
  });

  it('keeps nested values that are given and defaults their siblings', () => {
    const config = parseConfig({ query: { cache: { retention: { default_days: 0 } } }, providers: { openclaw: { backfill: { window_days: 30 } } } });
    expect(config.query.cache.retention.default_days).toBe(0);
    expect(config.providers.openclaw.backfill.window_days).toBe(30);
    expect(config.providers.claude.enabled).toBe(true);
  });

  it('remembers which keys the file set explicitly, even when a value equals its default', () => {
    home = tempHome();
    expect(explicitKeys(loadConfig(home.dir, home.env)).size).toBe(0);
    writeFileSync(join(home.dir, 'config.json'), JSON.stringify({ query: { cache: { retention: { default_days: 365 } } }, providers: { claude: { enabled: true } } }));
    const config = loadConfig(home.dir, { ...home.env, STEWARD_SWEEP_INTERVAL_MS: '5000' });
    expect([...explicitKeys(config)].sort()).toEqual(['providers.claude.enabled', 'query.cache.retention.default_days', 'sweep.interval_ms']);
    // Defaults filled in by parsing, or carried through an environment merge, are not explicit.
    expect(explicitKeys(config).has('providers.openclaw.backfill.window_days')).toBe(false);
    expect(explicitKeys(applyEnvOverrides(parseConfig({}), {})).size).toBe(0);
    expect(explicitKeys({ ...config }).size).toBe(0);
  });

  it('rejects an unknown key and names it by its dotted path', () => {
    const error = errorOf(() => parseConfig({ query: { cache: { retention: { default_dayz: 3 } } } }));
    expect(error.code).toBe('config_invalid');
    expect(error.message).toContain('unknown key "query.cache.retention.default_dayz"');
  });

  it('rejects an invalid value and names the key', () => {
    const error = errorOf(() => parseConfig({ sweep: { interval_ms: 'often' } }));
    expect(error.code).toBe('config_invalid');
    expect(error.message).toContain('"sweep.interval_ms"');
    expect(errorOf(() => parseConfig({ query: { cache: { retention: { default_days: -1 } } } })).message).toContain('"query.cache.retention.default_days"');
  });

  it('asks an OpenAI-compatible curator for a named model instead of sending it the Anthropic default', () => {
    const chosen = parseConfig({ sweeper: { curator: 'openai-compatible', base_url: 'http://127.0.0.1:11434/v1' } });
    const error = errorOf(() => applyEnvOverrides(chosen, {}));
    expect(error.code).toBe('config_invalid');
    expect(error.message).toContain('"sweeper.model"');
    expect(applyEnvOverrides(chosen, { STEWARD_SWEEPER_MODEL: 'qwen2.5' }).sweeper.model).toBe('qwen2.5');
    expect(applyEnvOverrides(parseConfig({ sweeper: { curator: 'openai-compatible', model: 'llama3.2' } }), {}).sweeper.model).toBe('llama3.2');
    expect(applyEnvOverrides(parseConfig({ sweeper: { curator: 'anthropic' } }), {}).sweeper.model).toBeUndefined();
  });

  it('reads config.json from STEWARD_HOME and rejects garbage without crashing', () => {
    home = tempHome();
    expect(loadConfig(home.dir, home.env).server.port).toBe(47_470);
    writeFileSync(join(home.dir, 'config.json'), '{"server": {"port": 5000}}');
    expect(loadConfig(home.dir, home.env).server.port).toBe(5000);
    writeFileSync(join(home.dir, 'config.json'), '{not json');
    const error = errorOf(() => loadConfig(home.dir, home.env));
    expect(error.code).toBe('config_invalid');
    expect(error.message).toBe('config.json: not valid JSON at line 1, column 2');
  });

  it('says where a broken config.json stops being JSON: its line and column (a QA finding)', () => {
    home = tempHome();
    const at = (text: string) => {
      writeFileSync(join(home.dir, 'config.json'), text);
      return errorOf(() => loadConfig(home.dir, home.env)).message;
    };
    // A trailing comma: the brace after it is where it breaks.
    expect(at('{\n  "server": {"port": 5000},\n}\n')).toBe('config.json: not valid JSON at line 3, column 1');
    expect(at('{\r\n  "log": {"level": "warn" "x": 1}\r\n}')).toBe('config.json: not valid JSON at line 2, column 27');
    // Cut short: where it ends.
    expect(at('{\n  "sweep": {"interval_ms": 60000')).toBe('config.json: not valid JSON at line 2, column 33');
    // Columns count characters, as an editor does.
    expect(at('{"név": "日本🚀", x}')).toBe('config.json: not valid JSON at line 1, column 16');
    expect(at('{"a": 1} extra')).toBe('config.json: not valid JSON at line 1, column 10');
    expect(at('{"a": "tab\there"}')).toBe('config.json: not valid JSON at line 1, column 11');
    expect(at('{"a": 01}')).toBe('config.json: not valid JSON at line 1, column 8');
    expect(at('\uFEFF{"a": tru}')).toBe('config.json: not valid JSON at line 1, column 7');
  });

  it('reads a config.json that starts with a UTF-8 byte order mark, as Windows editors write it', () => {
    home = tempHome();
    writeFileSync(join(home.dir, 'config.json'), '\uFEFF{"server": {"port": 5001}, "sweeper": {"min_interval_ms": 1000}}\n');
    expect(loadConfig(home.dir, home.env).server.port).toBe(5001);
    // Changing one setting from the panel keeps the rest of that file.
    saveCuratorChoice(home.dir, home.env, { curator: 'offline' });
    expect(JSON.parse(readFileSync(join(home.dir, 'config.json'), 'utf8'))).toEqual({ server: { port: 5001 }, sweeper: { min_interval_ms: 1000, curator: 'offline' } });
  });

  it('names why a config.json that cannot be read was refused, and leaves it alone', () => {
    home = tempHome();
    mkdirSync(join(home.dir, 'config.json'));
    expect(errorOf(() => loadConfig(home.dir, home.env))).toMatchObject({ code: 'config_invalid', message: 'config.json: cannot be read (EISDIR)' });
    expect(() => saveCuratorChoice(home.dir, home.env, { curator: 'offline' })).toThrow('config.json: cannot be read (EISDIR); fix it before changing settings here');
  });

  it('lets STEWARD_* environment variables override, validated like the file', () => {
    home = tempHome();
    const config = loadConfig(home.dir, { ...home.env, STEWARD_SWEEP_INTERVAL_MS: '60000', STEWARD_SWEEPER_MIN_INTERVAL_MS: '1000', STEWARD_SWEEPER_MODEL: 'small-model' });
    expect(config.sweep.interval_ms).toBe(60_000);
    expect(config.sweeper.min_interval_ms).toBe(1000);
    expect(config.sweeper.model).toBe('small-model');
    expect(errorOf(() => loadConfig(home.dir, { ...home.env, STEWARD_SWEEP_INTERVAL_MS: 'soon' })).message).toContain('STEWARD_SWEEP_INTERVAL_MS');
  });
});

describe('STEWARD_HOME resolution', () => {
  it('prefers STEWARD_HOME and says so without exposing the path elsewhere', () => {
    expect(resolveHome({ STEWARD_HOME: '/tmp/somewhere' }, 'linux')).toEqual({ dir: '/tmp/somewhere', kind: 'env' });
  });

  it('uses the platform app-data folder otherwise', () => {
    expect(platformDataDir('linux', { HOME: '/home/u' })).toBe('/home/u/.local/share/steward');
    expect(platformDataDir('linux', { HOME: '/home/u', XDG_DATA_HOME: '/data' })).toBe('/data/steward');
    expect(platformDataDir('darwin', { HOME: '/Users/u' })).toBe('/Users/u/Library/Application Support/Steward');
    expect(platformDataDir('win32', { HOME: 'C:\\Users\\u', APPDATA: 'C:\\Users\\u\\AppData\\Roaming' })).toMatch(/Roaming[\\/]Steward$/);
    expect(resolveHome({ HOME: '/home/u', STEWARD_HOME: '  ' }, 'linux')).toEqual({ dir: '/home/u/.local/share/steward', kind: 'platform-default' });
  });
});
