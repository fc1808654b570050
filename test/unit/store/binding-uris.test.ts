import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * The SQLite binding's module turns URI file names on before the addon loads (an OpenClaw store no
 * writer has open is opened `immutable=1`, so no -wal or -shm is made beside it). The test projects
 * preset the variable too (a shared worker may load the addon before any core module), so this checks
 * the module itself, evaluated afresh with the variable unset.
 */
describe('core/store/binding', () => {
  const preset = process.env.SQLITE_USE_URI;
  afterEach(() => {
    if (preset === undefined) delete process.env.SQLITE_USE_URI;
    else process.env.SQLITE_USE_URI = preset;
  });

  it('sets SQLITE_USE_URI=1 as it loads, and keeps a setting made before it', async () => {
    delete process.env.SQLITE_USE_URI;
    vi.resetModules();
    await import('../../../core/store/binding/index.js');
    expect(process.env.SQLITE_USE_URI).toBe('1');

    process.env.SQLITE_USE_URI = '0';
    vi.resetModules();
    await import('../../../core/store/binding/index.js');
    expect(process.env.SQLITE_USE_URI).toBe('0');
  });
});
