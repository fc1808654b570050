import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { METHOD_NAMES } from '../../../core/index.js';
import { APP_URL, callChannel } from '../../../electron/ipc-channels.js';
import { tempHome, type TempHome } from '../../support/home.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const MAIN = join(ROOT, 'dist', 'electron', 'main.js');
const REGISTER = fileURLToPath(new URL('./runtime/register.mjs', import.meta.url));

interface Report {
  events: string[];
  handlers: string[];
  windows: Array<{ webPreferences: Record<string, unknown>; preloadExists: boolean; url: string }>;
  trays: Array<{ icon: string; iconExists: boolean; tooltip: string; menu: string[] }>;
  protocol: { status: number; csp: string | null };
  schemes: Array<{ scheme: string }>;
  windowOpen: { action: string };
  appInfo: { ok: boolean; result?: { name: string } };
  exitCode: number;
}

/**
 * The built main process — ESM graph, electron-log/main, the preload and icon paths it computes —
 * run by plain Node against a stand-in Electron runtime (runtime/): no binary exists here, so this is
 * as close to `electron .` as this machine gets. Needs `npm run build:node` (npm test builds first).
 */
describe('dist/electron/main.js under a stand-in Electron', () => {
  let home: TempHome;
  beforeEach(() => {
    home = tempHome('steward-compiled-main-');
    writeFileSync(join(home.dir, 'config.json'), JSON.stringify({ server: { port: 0 } }));
  });
  afterEach(() => home.cleanup());

  it('starts the owner, window, tray and bridge, answers a call, and quits cleanly', () => {
    expect(existsSync(MAIN), 'dist/electron/main.js is missing: run `npm run build:node` first').toBe(true);
    const reportFile = join(home.dir, 'report.json');
    const run = spawnSync(process.execPath, ['--import', REGISTER, MAIN], {
      cwd: ROOT,
      env: { ...home.env, FAKE_ELECTRON_REPORT: reportFile, FAKE_ELECTRON_APP_PATH: ROOT, FAKE_ELECTRON_TMP: home.dir },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status, run.stderr).toBe(0);
    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as Report;

    // userData moves into STEWARD_HOME before the single-instance lock is taken there.
    expect(report.events.slice(0, 3)).toEqual(['setPath:userData', 'requestSingleInstanceLock', 'enableSandbox']);
    expect(report.handlers).toEqual(expect.arrayContaining(METHOD_NAMES.map((m) => callChannel(m))));
    expect(report.schemes.map((s) => s.scheme)).toEqual(['steward']);

    const [window] = report.windows;
    expect(window?.url).toBe(APP_URL);
    expect(window?.preloadExists).toBe(true);
    expect(String(window?.webPreferences.preload)).toMatch(/dist[/\\]electron[/\\]preload\.cjs$/);
    expect(window?.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false });
    expect(report.windowOpen).toEqual({ action: 'deny' });
    expect(report.protocol.csp).toContain("default-src 'none'");

    const [tray] = report.trays;
    expect(tray?.iconExists).toBe(true);
    expect(tray?.menu).toEqual(['Open Steward', expect.stringMatching(/^(Up to date|Importing .*)$/), '---', 'Sweep now', 'Pause', '---', 'Open logs', '---', 'Quit']);
    expect(tray?.tooltip).toMatch(/^Steward\n(Up to date|Importing )/);

    expect(report.appInfo).toMatchObject({ ok: true, result: { name: 'Steward' } });
    expect(report.exitCode).toBe(0);

    const log = readFileSync(join(home.dir, 'logs', 'main.log'), 'utf8');
    expect(log).toContain('app started');
    expect(log).toContain('core closed');
    expect(existsSync(join(home.dir, 'daemon.json'))).toBe(false);
    expect(existsSync(join(home.dir, 'steward.lock'))).toBe(false);
  });
});
