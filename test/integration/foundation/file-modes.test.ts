import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../core/cli/index.js';
import { Core } from '../../../core/core.js';
import { captureIo } from '../../support/cli.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { claudeSession } from '../../support/transcripts.js';

/** Modes of everything under `dir` (not `dir` itself), as `relative path → octal mode`. */
function modesUnder(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      out[relative(dir, path)] = (statSync(path).mode & 0o777).toString(8);
      if (entry.isDirectory()) walk(path);
    }
  };
  walk(dir);
  return out;
}

function wider(modes: Record<string, string>, dir: string): string[] {
  return Object.entries(modes)
    .filter(([path, mode]) => mode !== (statSync(join(dir, path)).isDirectory() ? '700' : '600'))
    .map(([path, mode]) => `${path} ${mode}`);
}

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const BIN = join(REPO, 'bin', 'steward.js');

let home: TempHome | undefined;
let roots: TempHome | undefined;
let owner: ChildProcess | undefined;
afterEach(() => {
  if (owner && owner.exitCode === null) owner.kill('SIGKILL');
  owner = undefined;
  home?.cleanup();
  roots?.cleanup();
  home = roots = undefined;
});

function panelLine(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Steward control panel:')) resolve();
    });
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`serve exited (${code}): ${err.slice(0, 500)}`)));
  });
}

describe.skipIf(process.platform === 'win32')('file modes in a STEWARD_HOME someone else created', () => {
  it('serve with umask 022, from a folder without package.json: every file 0600, every folder 0700, the log written', async () => {
    expect(existsSync(join(REPO, 'dist', 'core', 'cli', 'main.js')), 'run `npm run build:node` first').toBe(true);
    roots = tempHome('steward-roots-');
    home = tempHome('steward-modes-', { STEWARD_CLAUDE_ROOTS: roots.dir });
    chmodSync(home.dir, 0o755);
    claudeSession(roots.dir, 'modes-1', 4, { cwd: join(roots.dir, 'orchard') });
    const env = { ...home.env, STEWARD_SWEEP_INTERVAL_MS: '3600000' };
    // The umask most accounts have, and a working folder that is not the checkout.
    owner = spawn('/bin/sh', ['-c', 'umask 022 && exec "$0" "$@"', process.execPath, BIN, 'serve', '--port', '0'], { cwd: home.dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    await panelLine(owner);

    const sweep = captureIo(env);
    expect(await runCli(['sweep', '--json'], sweep)).toBe(0);
    const projects = captureIo(env);
    expect(await runCli(['projects', '--json'], projects)).toBe(0);
    const [project] = (JSON.parse(projects.out) as { projects: Array<{ projectKey: string }> }).projects;
    expect(await runCli(['sweeper', 'run', project!.projectKey, '--json'], captureIo(env))).toBe(0);

    const running = modesUnder(home.dir);
    for (const name of ['gateway.db', 'gateway.db-wal', 'gateway.db-shm', 'logs', 'logs/main.log', 'daemon.json', 'steward.lock']) expect(running).toHaveProperty([name]);
    expect(Object.keys(running).filter((p) => p.startsWith('projects/')).length).toBeGreaterThanOrEqual(4);
    expect(wider(running, home.dir)).toEqual([]);

    const exited = new Promise((resolve) => owner!.on('exit', resolve));
    owner.kill('SIGTERM');
    await exited;
    expect(wider(modesUnder(home.dir), home.dir)).toEqual([]);
    // STEWARD_HOME itself belongs to whoever made it: Steward leaves its mode alone.
    expect(statSync(home.dir).mode & 0o777).toBe(0o755);
  });

  it('tightens the gateway and the logs an older version left wider', async () => {
    home = tempHome('steward-modes-');
    mkdirSync(join(home.dir, 'logs'), { mode: 0o755 });
    chmodSync(join(home.dir, 'logs'), 0o755);
    for (const name of ['gateway.db', 'logs/main.log']) {
      writeFileSync(join(home.dir, name), '');
      chmodSync(join(home.dir, name), 0o644);
    }
    const core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
    try {
      expect(wider(modesUnder(home.dir), home.dir)).toEqual([]);
    } finally {
      await core.shutdown();
    }
  });
});
