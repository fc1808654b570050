import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { APP_ID } from '../../../electron/app.js';
import { TRAY_STATES, trayIconFile } from '../../../electron/tray.js';

vi.mock('electron', () => import('./fake-electron.js'));

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CONFIG_FILE = join(ROOT, 'build', 'electron-builder.yml');
const require_ = createRequire(join(ROOT, 'package.json'));

type Target = string | { target: string; arch: string[] };

interface BuilderConfig {
  appId: string;
  productName: string;
  files: string[];
  asarUnpack: string[];
  npmRebuild: boolean;
  extraResources: Array<{ from: string; to: string; filter: string[] }>;
  electronFuses: Record<string, boolean>;
  linux: { target: Target[]; icon: string; category: string };
  mac: { target: Target[]; icon: string; category: string; x64ArchFiles: string };
  win: { target: Target[]; icon: string };
}

/** The file is JSON under a block of `#` comments: JSON is valid YAML, so electron-builder reads the same thing. */
function readConfig(): BuilderConfig {
  const text = readFileSync(CONFIG_FILE, 'utf8');
  return JSON.parse(text.split('\n').filter((line) => !line.startsWith('#')).join('\n')) as BuilderConfig;
}

/** The sizes an .ico holds, each of which must be a PNG (what build/generate-icons.js writes). */
function icoSizes(file: string): number[] {
  const bytes = readFileSync(file);
  expect(bytes.readUInt16LE(2), `${file} is an icon`).toBe(1);
  return Array.from({ length: bytes.readUInt16LE(4) }, (_, i) => {
    const entry = 6 + 16 * i;
    const offset = bytes.readUInt32LE(entry + 12);
    expect(bytes.subarray(offset, offset + 8).toString('hex'), file).toBe('89504e470d0a1a0a');
    return bytes.readUInt8(entry) || 256;
  });
}

function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(file);
  expect(bytes.subarray(0, 8).toString('hex'), file).toBe('89504e470d0a1a0a');
  expect(bytes.subarray(12, 16).toString('ascii'), file).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('electron-builder configuration', () => {
  const config = readConfig();

  it('names the app and targets AppImage + deb, a universal dmg and nsis, with categories', () => {
    expect(config.productName).toBe('Steward');
    expect(config.appId).toBe(APP_ID);
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac.target).toEqual([{ target: 'dmg', arch: ['universal'] }]);
    expect(config.win.target).toEqual([{ target: 'nsis', arch: ['x64'] }]);
    expect(config.linux.category).toBe('Development');
    expect(config.mac.category).toBe('public.app-category.developer-tools');
  });

  it('flips the fuses: no run-as-node, the app only from its checked asar, encrypted cookies', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      enableCookieEncryption: true,
    });
    // electron-builder flips them with @electron/fuses, which must resolve from its own package.
    const require = createRequire(require_.resolve('app-builder-lib/package.json'));
    expect(existsSync(require.resolve('@electron/fuses'))).toBe(true);
  });

  it('packs the built app and the CLI, and unpacks the native SQLite module', () => {
    for (const pattern of ['dist/core/**/*', 'dist/electron/**/*', 'dist/renderer/**/*', 'bin/**/*', 'package.json']) {
      expect(config.files).toContain(pattern);
    }
    // The Electron-ABI build `npm start` makes is for development; packaging rebuilds better-sqlite3 itself.
    expect(config.files).toContain('!dist/electron-native/**');
    expect(config.files.some((p) => p.startsWith('!node_modules'))).toBe(false);
    expect(config.asarUnpack).toContain('node_modules/better-sqlite3/**/*');
    expect(config.npmRebuild).toBe(true);
  });

  it('unpacks sqlite-vec\'s loadable extension, whose library must be a real file, and lets the universal build keep its single-arch copies', () => {
    expect(config.asarUnpack).toEqual(expect.arrayContaining(['node_modules/sqlite-vec/**/*', 'node_modules/sqlite-vec-*/**/*']));
    expect(config.mac.x64ArchFiles).toBe('**/node_modules/sqlite-vec-darwin-*/**');
  });

  it('every app icon it references exists at the size each platform needs', () => {
    const linuxDir = join(ROOT, config.linux.icon);
    const sizes = readdirSync(linuxDir).filter((name) => /^\d+x\d+\.png$/.test(name));
    expect(sizes).toEqual(expect.arrayContaining(['16x16.png', '32x32.png', '256x256.png', '512x512.png']));
    for (const name of sizes) {
      const side = Number.parseInt(name, 10);
      expect(pngSize(join(linuxDir, name)), name).toEqual({ width: side, height: side });
    }
    expect(pngSize(join(ROOT, config.mac.icon)).width).toBeGreaterThanOrEqual(512);
    expect(config.win.icon).toBe('build/icons/icon.ico');
    expect(icoSizes(join(ROOT, config.win.icon))).toEqual([16, 24, 32, 48, 64, 128, 256]);
  });

  it('ships a tray icon for every state and platform where the app looks for it: PNG at 1x and 2x, ICO from 16 to 48 px', () => {
    const tray = config.extraResources.find((r) => r.to === 'tray');
    expect(tray?.from).toBe('build/icons/tray');
    expect(tray?.filter).toEqual(['*.png', '*.ico']);
    expect(TRAY_STATES).toEqual(['error', 'attention', 'working', 'paused', 'idle']);
    for (const state of TRAY_STATES) {
      for (const platform of ['linux', 'darwin'] as const) {
        const file = trayIconFile(state, platform);
        expect(pngSize(join(ROOT, 'build/icons/tray', file)), file).toEqual({ width: 16, height: 16 });
        expect(pngSize(join(ROOT, 'build/icons/tray', file.replace('.png', '@2x.png'))), file).toEqual({ width: 32, height: 32 });
      }
      expect(icoSizes(join(ROOT, 'build/icons/tray', trayIconFile(state, 'win32')))).toEqual([16, 20, 24, 32, 40, 48]);
    }
  });

  it('gives every tray state the colour the panel uses for it, so icon and status bar agree', async () => {
    const icons = (await import(pathToFileURL(join(ROOT, 'build', 'generate-icons.js')).href)) as { STATE_COLORS: Record<string, string> };
    const css = readFileSync(join(ROOT, 'renderer', 'src', 'styles.css'), 'utf8');
    const root = css.slice(css.indexOf(':root'), css.indexOf('}', css.indexOf(':root')));
    expect(Object.keys(icons.STATE_COLORS).sort()).toEqual([...TRAY_STATES].sort());
    for (const state of TRAY_STATES) {
      expect(new RegExp(`--state-${state}:\\s*([^;]+);`).exec(root)?.[1]?.trim(), state).toBe(icons.STATE_COLORS[state]);
    }
  });

  it('npm run package builds, packages, then restores the Node build of better-sqlite3', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.package).toBe('node build/package.js');
    const run = spawnSync(process.execPath, [join(ROOT, 'build', 'package.js'), '--dry-run', '--linux', 'AppImage'], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    const steps = run.stdout.trim().split('\n');
    expect(steps).toHaveLength(3);
    expect(steps[0]).toMatch(/^would run \(build\): .*run build$/);
    expect(steps[1]).toMatch(/^would run \(electron-builder\): .*electron-builder[/\\]cli\.js --config build[/\\]electron-builder\.yml --linux AppImage$/);
    expect(steps[2]).toMatch(/^would run \(restore\): .*rebuild better-sqlite3$/);
  });

  it('is accepted by electron-builder 26 itself (its own schema validation)', async () => {
    const require = createRequire(join(ROOT, 'package.json'));
    const configModule = require.resolve('app-builder-lib/out/util/config/config.js');
    expect(existsSync(configModule)).toBe(true);
    const { getConfig, validateConfiguration } = require(configModule) as {
      getConfig(projectDir: string, configPath: string, fromOptions: null): Promise<unknown>;
      validateConfiguration(config: unknown, logger: unknown): Promise<void>;
    };
    const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };
    const loaded = await getConfig(ROOT, CONFIG_FILE, null);
    await expect(validateConfiguration(loaded, new DebugLogger(false))).resolves.toBeUndefined();
    const broken = { ...(loaded as object), notAnOption: true };
    await expect(validateConfiguration(broken, new DebugLogger(false))).rejects.toThrow();
  });
});
