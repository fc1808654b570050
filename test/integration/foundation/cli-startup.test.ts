import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '../../../core/api/index.js';
import { buildProgram, VERBS, verbsFor } from '../../../core/cli/index.js';
import { HOME_FILES } from '../../../core/config/index.js';
import { acquireOwnerLock, type OwnerLock } from '../../../core/store/index.js';
import { tempHome, type TempHome } from '../../support/home.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const BIN = join(REPO, 'bin', 'steward.js');

/** Module hooks that name every file module the process loads, one `loaded <url>` line each on stderr. */
const HOOKS = `export async function load(url, context, next) {
  if (url.startsWith('file:')) process.stderr.write('loaded ' + url + '\\n');
  return next(url, context);
}`;
const REGISTER = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HOOKS)}`)});`;

const WATCH = ['--import', `data:text/javascript,${encodeURIComponent(REGISTER)}`, BIN];

/** The files of the modules a run loaded (relative to the package), from the hooks' lines on stderr. */
function loadedFiles(stderr: string): string[] {
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('loaded '))
    .map((line) => fileURLToPath(line.slice('loaded '.length)).slice(REPO.length));
}

/** Runs `steward …` as a person would, and lists the files of the modules it loaded (relative to the package). */
function runWatched(...argv: string[]): { status: number | null; stdout: string; loaded: string[] } {
  const run = spawnSync(process.execPath, [...WATCH, ...argv], { encoding: 'utf8', timeout: 20_000 });
  return { status: run.status, stdout: run.stdout, loaded: loadedFiles(run.stderr) };
}

/** The same in a temp home, without blocking this process: a fake owner in it must answer meanwhile. A last `{ stdin }` is written to the verb's input. */
function runWatchedIn(env: NodeJS.ProcessEnv, ...args: [...string[]] | [...string[], { stdin: string }]): Promise<{ status: number | null; stdout: string; stderr: string; loaded: string[] }> {
  const all: ReadonlyArray<string | { stdin: string }> = args;
  const last = all.at(-1);
  const stdin = typeof last === 'object' ? last.stdin : undefined;
  const argv = all.filter((arg): arg is string => typeof arg === 'string');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...WATCH, ...argv], { env, stdio: ['pipe', 'pipe', 'pipe'], timeout: 20_000 });
    // What a client sends (an MCP initialize), then its end, which ends the server; else an input ended at once.
    child.stdin.end(stdin ?? '');
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr: stderr.split('\n').filter((l) => !l.startsWith('loaded ')).join('\n'), loaded: loadedFiles(stderr) }));
  });
}

/**
 * What a verb that only asks questions must not load: the Core and the rooms behind it (the stores,
 * capture, the gateway, maintenance, the server), the SQLite binding, the log files, the model SDKs.
 * The light sub-rooms that find the owner (store/lock, server/daemon) are allowed.
 */
const HEAVY = /^dist\/core\/(core\.js|store\/(?!lock\/)|server\/(?!daemon\/)|gateway\/|capture\/|maintenance\/|mcp\/|log\/|history\/|transcripts\/|backfill\/|app\/)|^node_modules\/(better-sqlite3|electron-log|@anthropic-ai|openai|@octokit|@modelcontextprotocol)\//;

describe('the steward command starts light', () => {
  it('answers --version from package.json, loading nothing of the CLI, the Core or a dependency', () => {
    const { version } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-v']) {
      const run = runWatched(flag);
      expect(run.status).toBe(0);
      expect(run.stdout).toBe(`${version}\n`);
      expect(run.loaded).toEqual(['bin/steward.js']);
    }
  });

  it('lists its verbs in --help without loading the Core, the stores or the server (they load when a verb runs)', () => {
    const run = runWatched('--help');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^Usage: steward/);
    expect(run.loaded).toContain('dist/core/cli/index.js');
    expect(run.loaded.filter((file) => HEAVY.test(file))).toEqual([]);
  });
});

describe('a verb loads only its own module, and the Core only when no owner answers', () => {
  let home: TempHome | undefined;
  let lock: OwnerLock | undefined;
  let owner: Server | undefined;
  afterEach(async () => {
    lock?.release();
    await new Promise((resolve) => (owner ? owner.close(resolve) : resolve(undefined)));
    home?.cleanup();
    [home, lock, owner] = [undefined, undefined, undefined];
  });

  it('`steward sessions --help` loads no other verb, and nothing of the Core, the stores or the SQLite binding', async () => {
    home = tempHome('steward-startup-');
    const run = await runWatchedIn(home.env, 'sessions', '--help');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^Usage: steward sessions/);
    expect(run.loaded).toContain('dist/core/cli/commands/sessions.js');
    expect(run.loaded.filter((file) => file.startsWith('dist/core/cli/commands/') && file !== 'dist/core/cli/commands/sessions.js')).toEqual([]);
    expect(run.loaded.filter((file) => HEAVY.test(file))).toEqual([]);
    // Help opens nothing: the home is not even created.
    expect(existsSync(join(home.dir, HOME_FILES.gateway))).toBe(false);
  });

  it('a verb the running owner answers (`steward sessions list`) asks it over JSON-RPC and never loads the Core', async () => {
    home = tempHome('steward-startup-');
    const methods: string[] = [];
    // A stand-in owner: it holds the lock, advertises itself in daemon.json, and refuses every call.
    owner = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        const { id, method } = JSON.parse(body) as { id: number; method: string };
        methods.push(method);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32000, message: 'the stand-in owner answers nothing', data: { code: 'busy' } } }));
      });
    });
    await new Promise<void>((resolve) => owner!.listen(0, '127.0.0.1', resolve));
    const { port } = owner.address() as AddressInfo;
    lock = acquireOwnerLock(home.dir);
    const daemon = { pid: process.pid, protocol: PROTOCOL_VERSION, url: `http://127.0.0.1:${port}/`, token: 'a-token-of-sixteen-or-more' };
    writeFileSync(join(home.dir, HOME_FILES.daemon), JSON.stringify(daemon), { mode: 0o600 });

    const run = await runWatchedIn(home.env, 'sessions', 'list');
    expect(run.stderr).toContain('the stand-in owner answers nothing');
    expect(run.status).toBe(1);
    expect(methods).toEqual(['Sessions.List']);
    expect(run.loaded.filter((file) => HEAVY.test(file))).toEqual([]);
    expect(existsSync(join(home.dir, HOME_FILES.gateway))).toBe(false);
  });

  it('a verb no owner answers (`steward projects --json`) opens the Core in-process without loading a model, embedder or forge SDK, or secretlint', async () => {
    home = tempHome('steward-startup-');
    const run = await runWatchedIn(home.env, 'projects', '--json');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ projects: [] });
    // The Core was opened here (no owner runs), so the SDKs' absence is the lazy imports', not a light path's.
    expect(run.loaded).toContain('dist/core/core.js');
    expect(existsSync(join(home.dir, HOME_FILES.gateway))).toBe(true);
    expect(run.loaded.filter((file) => /^node_modules\/(@anthropic-ai|openai|@octokit|@secretlint)\//.test(file))).toEqual([]);
  });

  it('`steward mcp` answers initialize without loading the Core or the rooms behind it (a tool call or a plan loads them)', async () => {
    home = tempHome('steward-startup-');
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'startup-test', version: '1' } } };
    const run = await runWatchedIn(home.env, 'mcp', { stdin: `${JSON.stringify(initialize)}\n` });
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout.split('\n')[0]!)).toMatchObject({ id: 1, result: { serverInfo: { name: 'steward' } } });
    const core = /^dist\/core\/(core\.js|server\/(?!daemon\/)|gateway\/|capture\/|maintenance\/|history\/|transcripts\/|backfill\/|app\/|log\/)|^node_modules\/(electron-log|@octokit|@secretlint)\//;
    expect(run.loaded.filter((file) => core.test(file))).toEqual([]);
    expect(existsSync(join(home.dir, HOME_FILES.gateway))).toBe(false);
  });

  it('registers, for the whole program, every verb of the table in its order; for one verb, that verb alone', async () => {
    const io = { stdout: () => undefined, stderr: () => undefined, env: {} };
    const all = await buildProgram(io, () => undefined);
    expect(all.commands.map((c) => c.name())).toEqual(VERBS.flatMap((verb) => verb.names));
    const one = await buildProgram(io, () => undefined, ['resume', '--json']);
    expect(one.commands.map((c) => c.name())).toEqual(['pause', 'resume']);
    expect(verbsFor(['--help'])).toBe(VERBS);
    expect(verbsFor(['serach', 'foo'])).toBe(VERBS);
    // A program option before the verb (`steward --json sessions list`) does not hide which verb it is.
    expect(verbsFor(['--json', 'sessions', 'list']).map((verb) => verb.names)).toEqual([['sessions']]);
  });
});
