// Decisions and plans of `npm start` (scripts/start.js), kept free of side effects so they can be tested
// on a machine without Electron. Plain JavaScript: it runs before anything is built. Types: start-lib.d.ts.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Where node_modules/electron keeps its binary, found the way its index.js finds it but without
 * `require('electron')`: that call starts a download when the binary is missing (it is, here: the
 * package's install script is denied in package.json `allowScripts`).
 */
/** The way to the desktop app where Electron can be downloaded: its own install script, run once by hand. */
export const DOWNLOAD_ELECTRON = 'on a desktop with access to github.com, run `node node_modules/electron/install.js` once, then `npm start`';

export function findElectronBinary(root, env = process.env) {
  const pkgDir = join(root, 'node_modules', 'electron');
  if (!existsSync(join(pkgDir, 'package.json'))) return { reason: 'the electron package is not installed', fix: 'run `npm install`, then `npm start`' };
  const pathFile = join(pkgDir, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : '';
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    const binary = join(env.ELECTRON_OVERRIDE_DIST_PATH, relative || 'electron');
    return existsSync(binary) ? { binary } : { reason: 'no Electron binary in ELECTRON_OVERRIDE_DIST_PATH', fix: 'point ELECTRON_OVERRIDE_DIST_PATH at an unpacked Electron of the pinned version, or unset it' };
  }
  if (!relative) return { reason: 'no Electron binary: its download script never ran, package.json allowScripts denies it', fix: DOWNLOAD_ELECTRON };
  const binary = join(pkgDir, 'dist', relative);
  return existsSync(binary) ? { binary } : { reason: 'no Electron binary in node_modules/electron/dist', fix: DOWNLOAD_ELECTRON };
}

/** Linux and the BSDs need an X11 or Wayland display; macOS and Windows always have a desktop. */
export function hasDisplay(platform, env) {
  if (platform === 'darwin' || platform === 'win32') return true;
  return Boolean(env.DISPLAY?.trim() || env.WAYLAND_DISPLAY?.trim());
}

/**
 * Electron when its binary exists, answers `--version`, there is a display and we are not root on
 * Linux; otherwise headless `steward serve`, with the reason in a few words. `probe` runs
 * `electron --version` (undefined on failure); `uid` is process.getuid() where there is one.
 */
export function decideLaunch({ platform, env, electron, probe, headless = false, uid }) {
  if (headless) return { mode: 'serve', reason: 'headless' };
  if (!electron.binary) return { mode: 'serve', reason: electron.reason, fix: electron.fix };
  if (!hasDisplay(platform, env)) return { mode: 'serve', reason: 'no display: neither DISPLAY nor WAYLAND_DISPLAY is set', fix: 'run `npm start` inside a desktop session' };
  // Chromium will not run sandboxed as root on Linux, and Steward does not turn the sandbox off.
  if (platform === 'linux' && uid === 0) return { mode: 'serve', reason: 'running as root: Chromium refuses to start sandboxed as root', fix: 'run `npm start` as your own user, not root' };
  const version = probe(electron.binary);
  if (!version) {
    return { mode: 'serve', reason: 'the Electron binary does not run: `electron --version` failed', fix: 'delete node_modules/electron/dist and path.txt, then run `node node_modules/electron/install.js` where github.com is reachable' };
  }
  return { mode: 'electron', binary: electron.binary, version };
}

/** The one line `npm start` prints when it does not start Electron: why, what runs instead, and how to get the app. */
export function headlessLine(reason, fix) {
  if (reason === 'headless') return 'Running headless as asked (--headless): steward serve';
  return `Electron cannot run here (${reason}); running headless: steward serve${fix ? `. For the desktop app: ${fix}` : ''}`;
}

export function parseArgs(argv) {
  const options = { dryRun: false, headless: false, build: true, serveArgs: [] };
  for (const arg of argv) {
    if (arg === '--dry-run') options.dryRun = true;
    else if (arg === '--headless') options.headless = true;
    else if (arg === '--no-build') options.build = false;
    else options.serveArgs.push(arg);
  }
  return options;
}

/** The Electron release the project pins, and the native-module ABI it runs (node_modules/electron/abi_version). */
export function electronTarget(root) {
  const dir = join(root, 'node_modules', 'electron');
  const version = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
  const abi = readFileSync(join(dir, 'abi_version'), 'utf8').trim();
  return { version, abi };
}

export function betterSqliteVersion(root) {
  return JSON.parse(readFileSync(join(root, 'node_modules', 'better-sqlite3', 'package.json'), 'utf8')).version;
}

/**
 * The Electron build of better-sqlite3 lives beside, never instead of, the Node build in
 * node_modules (tests and the CLI load that one); Electron main loads this file via `nativeBinding`.
 */
export function nativePaths(root) {
  const dir = join(root, 'dist', 'electron-native');
  return { dir, work: join(dir, 'work', 'better-sqlite3'), binding: join(dir, 'better_sqlite3.node'), stamp: join(dir, 'stamp.json') };
}

export function nativeStamp(target, betterSqlite3, platform, arch) {
  return { electron: target.version, abi: target.abi, betterSqlite3, platform, arch };
}

export function isStampCurrent(stampText, expected) {
  try {
    const stamp = JSON.parse(stampText);
    return Object.keys(expected).every((key) => stamp[key] === expected[key]);
  } catch {
    return false;
  }
}

/**
 * npm passes its config to scripts as npm_config_*; `nodedir` (set to /usr on some machines) would
 * make node-gyp compile against Node's headers and silently produce a Node-ABI module. Every setting
 * that picks the target is dropped (proxies and CA files stay); the flags below name Electron's.
 */
const TARGET_SETTINGS = /^npm_config_(nodedir|target|target_arch|arch|runtime|platform|disturl|dist_url|build_from_source|libc)$/i;

export function cleanBuildEnv(env) {
  const clean = {};
  for (const [key, value] of Object.entries(env)) {
    if (TARGET_SETTINGS.test(key) || value === undefined) continue;
    clean[key] = value;
  }
  return clean;
}

/** First a prebuilt binary for this Electron ABI, then a compile against Electron's headers. */
export function nativeBuildSteps({ root, work, target, platform, arch, env, nodeGyp }) {
  const buildEnv = cleanBuildEnv(env);
  const prebuild = join(root, 'node_modules', 'prebuild-install', 'bin.js');
  return [
    {
      name: 'prebuild-install',
      command: process.execPath,
      args: [prebuild, '--runtime', 'electron', '--target', target.version, '--arch', arch, '--platform', platform, '--tag-prefix', 'v'],
      cwd: work,
      env: buildEnv,
    },
    {
      name: 'node-gyp',
      command: process.execPath,
      args: [nodeGyp, 'rebuild', '--release', '--runtime=electron', `--target=${target.version}`, `--arch=${arch}`, '--dist-url=https://electronjs.org/headers'],
      cwd: work,
      env: buildEnv,
    },
  ];
}

/**
 * The ABI a compiled V8 addon registers for (`node_register_module_v<ABI>`), or undefined when the
 * symbol is not visible in the file (stripped, or an N-API module).
 */
export function moduleAbi(bytes) {
  const match = /node_register_module_v(\d+)/.exec(bytes.toString('latin1'));
  return match ? match[1] : undefined;
}
