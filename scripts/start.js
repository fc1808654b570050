#!/usr/bin/env node
// `npm start`: builds, then runs the Electron app where Electron can run, and otherwise says why in one
// line and runs headless `steward serve` in the foreground. Flags: --dry-run (print the decision and the
// plan, run nothing), --headless (serve even where Electron could run), --no-build; anything else is
// passed to `steward serve` (e.g. `npm start -- --port 0`).
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  betterSqliteVersion,
  decideLaunch,
  electronTarget,
  findElectronBinary,
  headlessLine,
  isStampCurrent,
  moduleAbi,
  nativeBuildSteps,
  nativePaths,
  nativeStamp,
  parseArgs,
} from './start-lib.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const options = parseArgs(process.argv.slice(2));

function withoutRunAsNode(env) {
  // ELECTRON_RUN_AS_NODE would turn the Electron binary into a plain Node and never open a window.
  const copy = { ...env };
  delete copy.ELECTRON_RUN_AS_NODE;
  return copy;
}

function probe(binary) {
  const result = spawnSync(binary, ['--version'], { encoding: 'utf8', timeout: 20_000, env: withoutRunAsNode(process.env) });
  const version = result.status === 0 ? result.stdout.trim() : '';
  return /^v?\d+\.\d+\.\d+/.test(version) ? version : undefined;
}

function build() {
  const npmCli = process.env.npm_execpath;
  const viaNode = npmCli && existsSync(npmCli);
  const command = viaNode ? process.execPath : process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const args = viaNode ? [npmCli, 'run', 'build'] : ['run', 'build'];
  // Build chatter goes to stderr: stdout stays the panel's one URL line in headless mode.
  const result = spawnSync(command, args, { cwd: root, stdio: ['ignore', 2, 2], shell: !viaNode && process.platform === 'win32' });
  if (result.status !== 0) {
    process.stderr.write('npm start: `npm run build` failed\n');
    process.exit(result.status ?? 1);
  }
}

function nodeGypPath() {
  try {
    return createRequire(join(root, 'package.json')).resolve('node-gyp/bin/node-gyp.js');
  } catch {
    return process.env.npm_config_node_gyp;
  }
}

/**
 * Makes dist/electron-native/better_sqlite3.node for Electron's ABI from a copy of the package, so
 * node_modules/better-sqlite3 (the Node build) is never touched. Reused while the stamp matches.
 * Returns the binding's path, or throws with a short reason.
 */
function prepareNativeSqlite() {
  const target = electronTarget(root);
  const paths = nativePaths(root);
  const expected = nativeStamp(target, betterSqliteVersion(root), process.platform, process.arch);
  if (existsSync(paths.binding) && existsSync(paths.stamp) && isStampCurrent(readFileSync(paths.stamp, 'utf8'), expected)) return paths.binding;

  rmSync(paths.dir, { recursive: true, force: true });
  const source = join(root, 'node_modules', 'better-sqlite3');
  cpSync(source, paths.work, {
    recursive: true,
    filter: (file) => !/^(build|node_modules)(\/|\\|$)/.test(relative(source, file).split(sep).join('/')),
  });
  const nodeGyp = nodeGypPath();
  const steps = nativeBuildSteps({ root, work: paths.work, target, platform: process.platform, arch: process.arch, env: process.env, nodeGyp: nodeGyp ?? '' });
  const built = join(paths.work, 'build', 'Release', 'better_sqlite3.node');
  for (const step of steps) {
    if (step.name === 'node-gyp' && !nodeGyp) continue;
    process.stderr.write(`npm start: better-sqlite3 for Electron ${target.version} (ABI ${target.abi}) via ${step.name}\n`);
    const result = spawnSync(step.command, step.args, { cwd: step.cwd, env: step.env, stdio: ['ignore', 2, 2] });
    if (result.status === 0 && existsSync(built)) break;
  }
  if (!existsSync(built)) throw new Error('better-sqlite3 could not be prepared for Electron: no prebuilt binary, and the node-gyp build failed');
  const abi = moduleAbi(readFileSync(built));
  if (abi !== undefined && abi !== target.abi) throw new Error(`better-sqlite3 was built for ABI ${abi}, but Electron ${target.version} needs ${target.abi}`);
  mkdirSync(paths.dir, { recursive: true });
  copyFileSync(built, paths.binding);
  writeFileSync(paths.stamp, `${JSON.stringify(expected, null, 2)}\n`);
  rmSync(join(paths.dir, 'work'), { recursive: true, force: true });
  return paths.binding;
}

/**
 * Runs the child in the foreground until it exits. On POSIX it gets its own process group, so a
 * Ctrl+C reaches it exactly once — through us — instead of once from the terminal and again from
 * npm's forwarding (a second SIGINT would cut `steward serve`'s clean shutdown short). On Windows the
 * console delivers Ctrl+C to the child itself, and kill() would terminate it outright: we only wait.
 */
function runForeground(command, args, env) {
  const posix = process.platform !== 'win32';
  const child = spawn(command, args, { cwd: root, env, stdio: 'inherit', detached: posix });
  let forwarded = false;
  const forward = (signal) => {
    if (!posix || forwarded || child.exitCode !== null || child.signalCode !== null) return;
    forwarded = true;
    child.kill(signal);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, forward);
  process.on('exit', () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  });
  child.on('error', (error) => {
    process.stderr.write(`npm start: could not start ${command} (${error.code ?? error.message})\n`);
    process.exitCode = 1;
  });
  child.on('exit', (code, signal) => {
    process.exitCode = code ?? (signal ? 1 : 0);
    for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.off(name, forward);
  });
}

function serveCommand() {
  return [process.execPath, [join(root, 'bin', 'steward.js'), 'serve', ...options.serveArgs]];
}

function printPlan(decision) {
  const lines = [`decision: ${decision.mode === 'electron' ? `electron ${decision.version} (${decision.binary})` : `serve (${decision.reason})`}`];
  if (options.build) lines.push('would run: npm run build');
  if (decision.mode === 'electron') {
    const target = electronTarget(root);
    const paths = nativePaths(root);
    const expected = nativeStamp(target, betterSqliteVersion(root), process.platform, process.arch);
    const current = existsSync(paths.binding) && existsSync(paths.stamp) && isStampCurrent(readFileSync(paths.stamp, 'utf8'), expected);
    lines.push(
      current
        ? `would reuse: ${relative(root, paths.binding)} (Electron ${target.version}, ABI ${target.abi})`
        : `would prepare: better-sqlite3 ${expected.betterSqlite3} for Electron ${target.version} (ABI ${target.abi}) in ${relative(root, paths.dir)}: prebuild-install, else node-gyp`,
    );
    lines.push(`would run: ${decision.binary} ${root} with STEWARD_SQLITE_BINDING=${paths.binding}`);
  } else {
    const [command, args] = serveCommand();
    lines.push(`would run: ${[command, ...args].join(' ')}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

let decision = decideLaunch({
  platform: process.platform,
  env: process.env,
  electron: findElectronBinary(root),
  probe,
  headless: options.headless,
  uid: process.getuid?.(),
});
if (decision.mode === 'serve') process.stderr.write(`${headlessLine(decision.reason, decision.fix)}\n`);
if (options.dryRun) {
  printPlan(decision);
} else {
  if (options.build) build();
  let binding;
  if (decision.mode === 'electron') {
    try {
      binding = prepareNativeSqlite();
    } catch (error) {
      decision = { mode: 'serve', reason: error.message, fix: 'the Electron build of better-sqlite3 needs network access (a prebuilt binary) or a C++ toolchain with Electron\'s headers' };
      process.stderr.write(`${headlessLine(decision.reason, decision.fix)}\n`);
    }
  }
  if (decision.mode === 'electron') {
    runForeground(decision.binary, [root], { ...withoutRunAsNode(process.env), STEWARD_SQLITE_BINDING: binding });
  } else {
    const [command, args] = serveCommand();
    runForeground(command, args, process.env);
  }
}
