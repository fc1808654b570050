#!/usr/bin/env node
// `npm run package`: build, then electron-builder with build/electron-builder.yml (extra arguments are
// passed on, e.g. `npm run package -- --linux AppImage`). electron-builder rebuilds better-sqlite3 for
// Electron inside node_modules (npmRebuild), which would leave the tests and the CLI with a module for
// the wrong ABI; afterwards — success or not — the Node build is restored with `npm rebuild`.
// `--dry-run` prints the steps and runs nothing.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { moduleAbi } from '../scripts/start-lib.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const dryRun = args.includes('--dry-run');
const builderArgs = args.filter((arg) => arg !== '--dry-run');

function npm(...npmArgs) {
  const cli = process.env.npm_execpath;
  return cli && existsSync(cli) ? [process.execPath, [cli, ...npmArgs]] : [process.platform === 'win32' ? 'npm.cmd' : 'npm', npmArgs];
}

const steps = [
  { name: 'build', command: npm('run', 'build') },
  { name: 'electron-builder', command: [process.execPath, [join(root, 'node_modules', 'electron-builder', 'cli.js'), '--config', join('build', 'electron-builder.yml'), ...builderArgs]] },
  { name: 'restore', command: npm('rebuild', 'better-sqlite3') },
];

function run([command, commandArgs]) {
  const shell = process.platform === 'win32' && !command.endsWith('.exe') && command !== process.execPath;
  return spawnSync(command, commandArgs, { cwd: root, stdio: 'inherit', shell }).status ?? 1;
}

if (dryRun) {
  for (const step of steps) process.stdout.write(`would run (${step.name}): ${[step.command[0], ...step.command[1]].join(' ')}\n`);
} else {
  const [build, builder, restore] = steps;
  let status = run(build.command);
  if (status === 0) {
    status = run(builder.command);
    if (run(restore.command) !== 0) process.stderr.write('npm run package: `npm rebuild better-sqlite3` failed; run it before `npm test`\n');
    const addon = join(root, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
    const abi = existsSync(addon) ? moduleAbi(readFileSync(addon)) : undefined;
    if (abi !== undefined && abi !== process.versions.modules) {
      process.stderr.write(`npm run package: node_modules/better-sqlite3 is still built for ABI ${abi}, not Node's ${process.versions.modules}\n`);
    }
  }
  process.exitCode = status;
}
