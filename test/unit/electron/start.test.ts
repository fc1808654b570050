import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  cleanBuildEnv,
  decideLaunch,
  electronTarget,
  findElectronBinary,
  hasDisplay,
  headlessLine,
  DOWNLOAD_ELECTRON,
  isStampCurrent,
  moduleAbi,
  nativeBuildSteps,
  nativePaths,
  nativeStamp,
  parseArgs,
} from '../../../scripts/start-lib.js';
import { tempHome, type TempHome } from '../../support/home.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const START = join(ROOT, 'scripts', 'start.js');

/** A project root whose node_modules/electron is laid out like the real package, binary or not. */
function fakeRoot(dir: string, binary?: string): string {
  const pkg = join(dir, 'node_modules', 'electron');
  mkdirSync(join(pkg, 'dist'), { recursive: true });
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'electron', version: '45.5.0' }));
  writeFileSync(join(pkg, 'abi_version'), '150');
  if (binary) {
    writeFileSync(join(pkg, 'path.txt'), binary);
    writeFileSync(join(pkg, 'dist', binary), '#!/bin/sh\n');
  }
  return dir;
}

/** An executable that answers --version like Electron does. */
function fakeElectronDir(dir: string): string {
  const bin = join(dir, 'fake-electron');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'electron'), '#!/bin/sh\nif [ "$1" = "--version" ]; then echo v45.5.0; exit 0; fi\nexit 3\n');
  chmodSync(join(bin, 'electron'), 0o755);
  return bin;
}

describe('npm start: where Electron can run', () => {
  let home: TempHome;
  beforeEach(() => {
    home = tempHome('steward-start-');
  });
  afterEach(() => home.cleanup());

  it('finds the binary from path.txt, as electron/index.js would, without downloading', () => {
    expect(findElectronBinary(fakeRoot(join(home.dir, 'with'), 'electron'), {})).toEqual({ binary: join(home.dir, 'with', 'node_modules', 'electron', 'dist', 'electron') });
    expect(findElectronBinary(fakeRoot(join(home.dir, 'without')), {}).reason).toMatch(/no Electron binary/);
    expect(findElectronBinary(join(home.dir, 'nothing'), {}).reason).toMatch(/not installed/);
  });

  it('honours ELECTRON_OVERRIDE_DIST_PATH like the electron package does', () => {
    const root = fakeRoot(join(home.dir, 'r'));
    const dist = fakeElectronDir(home.dir);
    expect(findElectronBinary(root, { ELECTRON_OVERRIDE_DIST_PATH: dist })).toEqual({ binary: join(dist, 'electron') });
    expect(findElectronBinary(root, { ELECTRON_OVERRIDE_DIST_PATH: join(home.dir, 'empty') }).reason).toMatch(/ELECTRON_OVERRIDE_DIST_PATH/);
  });

  it('this checkout has no Electron binary (its install script is denied)', () => {
    expect(findElectronBinary(ROOT, {}).binary).toBeUndefined();
  });

  it('needs a display on Linux, never on macOS or Windows', () => {
    expect(hasDisplay('linux', {})).toBe(false);
    expect(hasDisplay('linux', { DISPLAY: '' })).toBe(false);
    expect(hasDisplay('linux', { DISPLAY: ':0' })).toBe(true);
    expect(hasDisplay('linux', { WAYLAND_DISPLAY: 'wayland-0' })).toBe(true);
    expect(hasDisplay('freebsd', {})).toBe(false);
    expect(hasDisplay('darwin', {})).toBe(true);
    expect(hasDisplay('win32', {})).toBe(true);
  });

  it('decides: electron only with a binary that runs and a display; otherwise serve, with the reason', () => {
    const electron = { binary: '/x/electron' };
    const runs = () => 'v45.5.0';
    const probes: string[] = [];
    const recording = (binary: string) => {
      probes.push(binary);
      return 'v45.5.0';
    };
    expect(decideLaunch({ platform: 'linux', env: { DISPLAY: ':0' }, electron, probe: recording })).toEqual({ mode: 'electron', binary: '/x/electron', version: 'v45.5.0' });
    expect(probes).toEqual(['/x/electron']);
    expect(decideLaunch({ platform: 'darwin', env: {}, electron, probe: runs }).mode).toBe('electron');
    expect(decideLaunch({ platform: 'linux', env: {}, electron, probe: runs })).toEqual({ mode: 'serve', reason: expect.stringMatching(/no display/), fix: 'run `npm start` inside a desktop session' });
    expect(decideLaunch({ platform: 'linux', env: { DISPLAY: ':0' }, electron, probe: () => undefined })).toEqual({ mode: 'serve', reason: expect.stringMatching(/does not run/), fix: expect.stringContaining('install.js') });
    expect(decideLaunch({ platform: 'win32', env: {}, electron: { reason: 'no Electron binary: x', fix: 'y' }, probe: runs })).toEqual({ mode: 'serve', reason: 'no Electron binary: x', fix: 'y' });
    expect(decideLaunch({ platform: 'darwin', env: {}, electron, probe: runs, headless: true }).mode).toBe('serve');
    expect(decideLaunch({ platform: 'linux', env: { DISPLAY: ':0' }, electron, probe: runs, uid: 0 })).toEqual({ mode: 'serve', reason: expect.stringMatching(/root/), fix: expect.stringMatching(/not root/) });
    expect(decideLaunch({ platform: 'linux', env: { DISPLAY: ':0' }, electron, probe: runs, uid: 1000 }).mode).toBe('electron');
  });

  it('says it in one line, with how to get the desktop app', () => {
    const line = headlessLine('no display: neither DISPLAY nor WAYLAND_DISPLAY is set', 'run `npm start` inside a desktop session');
    expect(line).toBe('Electron cannot run here (no display: neither DISPLAY nor WAYLAND_DISPLAY is set); running headless: steward serve. For the desktop app: run `npm start` inside a desktop session');
    expect(line).not.toContain('\n');
    expect(headlessLine('headless')).toBe('Running headless as asked (--headless): steward serve');
  });

  it('names the download where the binary is missing', () => {
    expect(findElectronBinary(fakeRoot(join(home.dir, 'without')), {})).toEqual({ reason: expect.stringMatching(/no Electron binary/), fix: DOWNLOAD_ELECTRON });
    expect(DOWNLOAD_ELECTRON).toBe('on a desktop with access to github.com, run `node node_modules/electron/install.js` once, then `npm start`');
  });

  it('parses its own flags and passes the rest to steward serve', () => {
    expect(parseArgs(['--dry-run', '--port', '0', '--no-build', '--headless'])).toEqual({ dryRun: true, headless: true, build: false, serveArgs: ['--port', '0'] });
  });
});

describe('npm start: the Electron build of better-sqlite3', () => {
  it("targets the pinned Electron's ABI", () => {
    expect(electronTarget(ROOT)).toEqual({ version: expect.stringMatching(/^45\./), abi: readFileSync(join(ROOT, 'node_modules/electron/abi_version'), 'utf8').trim() });
  });

  it('lives beside the Node build, never in node_modules', () => {
    const paths = nativePaths('/p');
    expect(paths.binding).toBe(join('/p', 'dist', 'electron-native', 'better_sqlite3.node'));
    expect(paths.work.startsWith(join('/p', 'dist', 'electron-native'))).toBe(true);
  });

  it('is reused only while Electron, ABI, better-sqlite3, platform and arch all match', () => {
    const stamp = nativeStamp({ version: '45.5.0', abi: '150' }, '12.11.1', 'linux', 'x64');
    expect(isStampCurrent(JSON.stringify(stamp), stamp)).toBe(true);
    expect(isStampCurrent(JSON.stringify({ ...stamp, electron: '45.4.0' }), stamp)).toBe(false);
    expect(isStampCurrent(JSON.stringify({ ...stamp, betterSqlite3: '12.10.0' }), stamp)).toBe(false);
    expect(isStampCurrent('not json', stamp)).toBe(false);
  });

  it("builds for Electron with explicit flags, and drops npm's nodedir (which would yield a Node-ABI module)", () => {
    const env = { PATH: '/bin', npm_config_nodedir: '/usr', NPM_CONFIG_TARGET: '20.0.0', npm_config_runtime: 'node', npm_config_cafile: '/ca.pem' };
    expect(cleanBuildEnv(env)).toEqual({ PATH: '/bin', npm_config_cafile: '/ca.pem' });
    const steps = nativeBuildSteps({ root: '/p', work: '/p/dist/electron-native/work/better-sqlite3', target: { version: '45.5.0', abi: '150' }, platform: 'linux', arch: 'x64', env, nodeGyp: '/g/node-gyp.js' });
    expect(steps.map((s) => s.name)).toEqual(['prebuild-install', 'node-gyp']);
    expect(steps[0]!.args).toEqual(expect.arrayContaining(['--runtime', 'electron', '--target', '45.5.0']));
    expect(steps[1]!.args).toEqual(expect.arrayContaining(['rebuild', '--runtime=electron', '--target=45.5.0', '--dist-url=https://electronjs.org/headers']));
    for (const step of steps) {
      expect(step.cwd).toBe('/p/dist/electron-native/work/better-sqlite3');
      expect(step.env.npm_config_nodedir).toBeUndefined();
    }
  });

  it('reads the ABI a compiled module registers for: the installed build is for Node, not Electron', () => {
    const nodeBuild = readFileSync(join(ROOT, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node'));
    expect(moduleAbi(nodeBuild)).toBe(process.versions.modules);
    expect(moduleAbi(nodeBuild)).not.toBe(electronTarget(ROOT).abi);
    expect(moduleAbi(Buffer.from('no symbol here'))).toBeUndefined();
  });
});

describe('npm start --dry-run (the real script)', () => {
  let home: TempHome;
  beforeEach(() => {
    home = tempHome('steward-start-run-');
  });
  afterEach(() => home.cleanup());

  // Run as root (this machine, many CI containers), the script would rightly refuse Electron: the
  // Electron cases run it as an unprivileged user instead.
  const asUser = process.getuid?.() === 0 ? { uid: 65_534, gid: 65_534 } : {};

  const dryRun = (env: NodeJS.ProcessEnv, user: { uid?: number; gid?: number } = asUser) => {
    chmodSync(home.dir, 0o755);
    const result = spawnSync(process.execPath, [START, '--dry-run'], { env: { ...home.env, ...env }, encoding: 'utf8', ...user });
    expect(result.status, result.stderr).toBe(0);
    return { stdout: result.stdout, stderr: result.stderr };
  };

  it('here (no binary): exactly one line on stderr saying why, then steward serve', () => {
    const { stdout, stderr } = dryRun({ DISPLAY: ':0' });
    expect(stderr).toMatch(/^Electron cannot run here \(no Electron binary: .*\); running headless: steward serve\. For the desktop app: on a desktop with access to github\.com, run `node node_modules\/electron\/install\.js` once, then `npm start`\n$/);
    expect(stdout).toMatch(/^decision: serve \(no Electron binary/m);
    expect(stdout).toMatch(/^would run: npm run build$/m);
    expect(stdout).toMatch(/would run: .*bin[/\\]steward\.js serve$/m);
  });

  it('with a working Electron binary and a display: build, prepare the Electron better-sqlite3, launch', () => {
    const { stdout, stderr } = dryRun({ DISPLAY: ':0', ELECTRON_OVERRIDE_DIST_PATH: fakeElectronDir(home.dir) });
    expect(stderr).toBe('');
    expect(stdout).toMatch(/^decision: electron v45\.5\.0/m);
    expect(stdout).toMatch(/^would run: npm run build$/m);
    expect(stdout).toMatch(/for Electron 45\.5\.0 \(ABI 150\) in dist[/\\]electron-native/);
    expect(stdout).toMatch(/STEWARD_SQLITE_BINDING=.*better_sqlite3\.node$/m);
  });

  it('as the current user: root on Linux never gets Chromium unsandboxed, anyone else gets Electron', () => {
    const { stdout } = dryRun({ DISPLAY: ':0', ELECTRON_OVERRIDE_DIST_PATH: fakeElectronDir(home.dir) }, {});
    const root = process.getuid?.() === 0 && process.platform === 'linux';
    expect(stdout).toMatch(root ? /^decision: serve \(running as root/m : /^decision: electron v45\.5\.0/m);
  });

  it('the same binary without a display falls back to serve', () => {
    const { stdout, stderr } = dryRun({ ELECTRON_OVERRIDE_DIST_PATH: fakeElectronDir(home.dir) });
    expect(stderr).toMatch(/^Electron cannot run here \(no display/);
    expect(stdout).toMatch(/^decision: serve \(no display/m);
  });
});
