import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StewardError } from '../../../core/api/index.js';
import { loadConfig, writeConfig } from '../../../core/config/index.js';
import { applyChange } from '../../../core/config/write.js';
import { saveCuratorChoice, saveDailyBudget } from '../../../core/sweeper/settings.js';
import { tempHome, type TempHome } from '../../support/home.js';

function refusal(fn: () => unknown): StewardError {
  try {
    fn();
  } catch (error) {
    if (error instanceof StewardError) return error;
    throw error;
  }
  throw new Error('expected a StewardError');
}

const file = (home: TempHome) => join(home.dir, 'config.json');
const onDisk = (home: TempHome) => JSON.parse(readFileSync(file(home), 'utf8')) as Record<string, unknown>;

describe('the one writer of config.json', () => {
  let home: TempHome;
  afterEach(() => home?.cleanup());

  it('sets dotted keys, keeps every other key as written, writes 0600, and is read back by the owner', () => {
    home = tempHome();
    writeFileSync(file(home), JSON.stringify({ sweep: { handoff_timeout_ms: 9_000 }, sweeper: { curator: 'offline' } }));
    const config = writeConfig(home.dir, home.env, { 'sweep.interval_ms': 60_000, 'capture.exclude': ['/work/secret/**'], 'providers.codex.enabled': false });
    expect(onDisk(home)).toEqual({ sweep: { handoff_timeout_ms: 9_000, interval_ms: 60_000 }, sweeper: { curator: 'offline' }, capture: { exclude: ['/work/secret/**'] }, providers: { codex: { enabled: false } } });
    expect(config.sweep.interval_ms).toBe(60_000);
    expect(loadConfig(home.dir, home.env).providers.codex.enabled).toBe(false);
    if (process.platform !== 'win32') expect(statSync(file(home)).mode & 0o777).toBe(0o600);
  });

  it('null returns a key to its default and drops the objects it leaves empty', () => {
    expect(applyChange({ sweep: { interval_ms: 5_000 }, log: { level: 'warn' } }, { 'sweep.interval_ms': null, 'query.cache.retention.default_days': null })).toEqual({ log: { level: 'warn' } });
  });

  it('refuses a wrong value by its dotted key, in words with its bound, and writes nothing', () => {
    home = tempHome();
    writeFileSync(file(home), '{"sweep":{"interval_ms":60000}}');
    const error = refusal(() => writeConfig(home.dir, home.env, { 'sweep.interval_ms': 10, 'query.cache.retention.default_days': -1, 'providers.claude.roots': ['relative/folder'] }));
    expect(error.code).toBe('config_invalid');
    expect(error.details?.fields).toEqual({
      'sweep.interval_ms': { message: 'must be at least 1000', minimum: 1000 },
      'query.cache.retention.default_days': { message: 'must be at least 0', minimum: 0 },
      'providers.claude.roots.0': { message: 'must be a full path (from /, ~/ or a drive letter)' },
    });
    expect(error.message).toContain('nothing was saved');
    expect(readFileSync(file(home), 'utf8')).toBe('{"sweep":{"interval_ms":60000}}');
  });

  it('never overwrites a file it cannot read as JSON', () => {
    home = tempHome();
    writeFileSync(file(home), '{ broken');
    expect(refusal(() => writeConfig(home.dir, home.env, { 'log.level': 'warn' })).message).toMatch(/not valid JSON at line 1, column 3; fix it before changing settings here/);
    expect(readFileSync(file(home), 'utf8')).toBe('{ broken');
  });

  it('serves the curator choice and the budget too: a new kind drops the model and endpoint of the last one', () => {
    home = tempHome();
    saveCuratorChoice(home.dir, home.env, { curator: 'anthropic', model: 'claude-haiku-4-5', anthropicBaseUrl: 'http://127.0.0.1:9/' }, 'offline');
    saveDailyBudget(home.dir, home.env, 12);
    expect(onDisk(home)).toEqual({ sweeper: { curator: 'anthropic', model: 'claude-haiku-4-5', anthropic_base_url: 'http://127.0.0.1:9/', daily_model_calls: 12 } });
    // The defect the issue names: openai-compatible saved with the Anthropic model and no endpoint.
    const error = refusal(() => saveCuratorChoice(home.dir, home.env, { curator: 'openai-compatible' }, 'anthropic'));
    expect(error.details?.fields).toMatchObject({ 'sweeper.model': { message: expect.stringContaining('required for an OpenAI-compatible curator') } });
    expect(onDisk(home)).toMatchObject({ sweeper: { curator: 'anthropic', model: 'claude-haiku-4-5' } });
    saveCuratorChoice(home.dir, home.env, { curator: 'openai-compatible', model: 'llama3.2', baseUrl: 'http://127.0.0.1:11434/v1' }, 'anthropic');
    expect(onDisk(home)).toEqual({ sweeper: { curator: 'openai-compatible', model: 'llama3.2', base_url: 'http://127.0.0.1:11434/v1', daily_model_calls: 12 } });
  });
});
