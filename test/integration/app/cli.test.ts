import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../core/cli/index.js';
import { startOwner, xdgAutostart, type Owner } from '../../../core/index.js';
import { readDaemonInfo } from '../../../core/server/index.js';
import { captureIo } from '../../support/cli.js';
import { claudeSession } from '../../support/transcripts.js';
import { tempHome, type TempHome } from '../../support/home.js';

const BIN = fileURLToPath(new URL('../../../bin/steward.js', import.meta.url));

let home: TempHome;
let owner: Owner | undefined;
afterEach(async () => {
  await owner?.stop();
  owner = undefined;
  home?.cleanup();
});

function setup(): NodeJS.ProcessEnv {
  home = tempHome('steward-cli-desktop-', {});
  return { ...home.env, XDG_CONFIG_HOME: join(home.dir, 'xdg-config') };
}

const serve = (env: NodeJS.ProcessEnv, extra: Parameters<typeof startOwner>[0] = {}) => startOwner({ home: { dir: home.dir, kind: 'env' }, env, port: 0, schedule: false, ...extra });

function statusWith(port: number, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/rpc', method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'App.Info', params: {} }));
  });
}

describe('steward info', () => {
  it('prints the panel address with its token when an owner runs; --json has it as url', async () => {
    const env = setup();
    owner = await serve(env);
    const text = captureIo(env);
    expect(await runCli(['info'], text)).toBe(0);
    expect(text.out).toContain(`Control panel: ${owner.panelUrl}\n`);
    expect(text.out).toMatch(/— Up to date\n/);
    // What the stores hold, as the form for a Steward not running says it.
    expect(text.out).toContain("  Stored: 0 messages in 0 conversations from 0 projects; the agents' folders were never checked\n");
    // The last line says, in words, who answered and where Steward keeps its files (never the path).
    expect(text.out.endsWith('Control panel: ' + owner.panelUrl + '\nAnswered by the running Steward, which keeps its files in the folder STEWARD_HOME names.\n')).toBe(true);

    const json = captureIo(env);
    expect(await runCli(['info', '--json'], json)).toBe(0);
    expect(JSON.parse(json.out)).toMatchObject({ via: 'owner', running: true, url: owner.panelUrl, status: { state: 'idle', message: 'Up to date' } });
    expect(JSON.parse(json.out)).toMatchObject({ stored: { messages: 0, conversations: 0, projects: 0, lastCheckedAt: null } });
  });

  it('when nothing runs, says so instead of "Up to date", with what the stores hold and how to start Steward', async () => {
    const env = setup();
    const claudeRoot = join(home.dir, 'roots', 'claude');
    claudeSession(claudeRoot, 'info-session', 2);
    const withRoots = { ...env, STEWARD_CLAUDE_ROOTS: claudeRoot };
    // Every agent's folders: an import of one agent is no check of the others (Sweep.Status's lastCheckAt).
    expect(await runCli(['backfill', '--all'], captureIo(withRoots))).toBe(0);

    const text = captureIo(withRoots);
    expect(await runCli(['info'], text)).toBe(0);
    expect(text.out).not.toContain('Up to date');
    expect(text.out.split('\n')).toEqual([
      expect.stringMatching(/^Steward \S+ \(protocol 1\) — Not running: new transcripts are not imported until Steward starts$/),
      expect.stringMatching(/^ {2}Stored: 2 messages in 1 conversation from 1 project; folders last checked \d{4}-\d{2}-\d{2} \d{2}:\d{2} (UTC|[+-]\d{2}:\d{2})$/),
      // Where each agent is read from (cli-info-folders.test.ts): here the one folder set, the rest set to none.
      'Transcript folders:',
      `  Claude Code (set by STEWARD_CLAUDE_ROOTS): ${claudeRoot} (found)`,
      '  Claude Desktop (set by STEWARD_CLAUDE_DESKTOP_ROOTS): none',
      '  OpenClaw (set by STEWARD_OPENCLAW_ROOTS): none',
      '  Codex CLI (set by STEWARD_CODEX_ROOTS): none',
      '  Gemini CLI (set by STEWARD_GEMINI_ROOTS): none',
      'To start it: `npm start` (the desktop app) or `steward serve` (headless, in this terminal until you stop it).',
      "Read directly from Steward's files in the folder STEWARD_HOME names.",
      '',
    ]);
    expect(text.out).not.toMatch(/in-process|home from/);

    const json = captureIo(withRoots);
    expect(await runCli(['info', '--json'], json)).toBe(0);
    const answer = JSON.parse(json.out) as { status: { message: string } };
    expect(answer).not.toHaveProperty('url');
    expect(answer).toMatchObject({ via: 'in-process', running: false, stored: { messages: 2, conversations: 1, projects: 1, lastCheckedAt: expect.any(Number) } });
    expect(answer.status.message).toMatch(/^Not running/);
  });

  it('in a home nothing was ever imported into, says that', async () => {
    const env = setup();
    const text = captureIo(env);
    expect(await runCli(['info'], text)).toBe(0);
    expect(text.out).toContain("  Stored: 0 messages in 0 conversations from 0 projects; the agents' folders were never checked\n");
  });

  it('lists every other fact under the headline, once', async () => {
    const env = setup();
    owner = await serve(env);
    await owner.core.call('App.SetPaused', { paused: true });
    owner.core.app.put({ kind: 'conflict', subject: 'ic_1', text: 'A cache conflict over github.com/acme/widgets needs your choice', place: 'conflicts' });
    const text = captureIo(env);
    expect(await runCli(['info'], text)).toBe(0);
    expect(text.out.split('\n').slice(0, 2)).toEqual([
      expect.stringMatching(/— A cache conflict over github\.com\/acme\/widgets needs your choice$/),
      '  Paused — scheduled imports and note curation wait until you resume',
    ]);
  });
});

describe('steward token rotate', () => {
  it('through the owner: prints the new address; the old token is refused, the new one works', async () => {
    const env = setup();
    owner = await serve(env);
    const old = owner.http.token;
    const io = captureIo(env);
    expect(await runCli(['token', 'rotate'], io)).toBe(0);
    const fresh = readDaemonInfo(home.dir)!.token;
    expect(fresh).not.toBe(old);
    expect(io.out).toContain(`${owner.http.url}#token=${fresh}\n`);
    expect(await statusWith(owner.http.port, old)).toBe(401);
    expect(await statusWith(owner.http.port, fresh)).toBe(200);
  });

  it('without an owner: the next start serves the new token, and a restart alone never changes it', async () => {
    const env = setup();
    owner = await serve(env);
    const first = owner.http.token;
    await owner.stop();
    owner = await serve(env);
    expect(owner.http.token).toBe(first);
    await owner.stop();
    owner = undefined;

    const io = captureIo(env);
    expect(await runCli(['token', 'rotate', '--json'], io)).toBe(0);
    expect(JSON.parse(io.out)).toEqual({ rotatedAt: expect.any(Number), via: 'in-process' });
    owner = await serve(env);
    expect(owner.http.token).not.toBe(first);
    expect(owner.http.token).toBe(readFileSync(join(home.dir, 'panel-token'), 'utf8').trim());
  });
});

describe('steward open', () => {
  /** A stand-in opener (STEWARD_OPENER) that writes the address it was given next to itself. */
  function opener(): { path: string; opened: string } {
    const path = join(home.dir, 'opener.sh');
    const opened = join(home.dir, 'opened.txt');
    writeFileSync(path, `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`);
    chmodSync(path, 0o755);
    return { path, opened };
  }

  /** The shell creates the file before printf fills it: wait for its content, not its existence. */
  async function until(file: string): Promise<string> {
    const content = () => (existsSync(file) ? readFileSync(file, 'utf8') : '');
    for (let i = 0; i < 500 && content() === ''; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    return content();
  }

  it("opens the running owner's panel with the platform opener, through a private page: the token is never on a command line", async () => {
    const env = setup();
    const { path, opened } = opener();
    owner = await serve(env);
    const io = captureIo({ ...env, STEWARD_OPENER: path });
    expect(await runCli(['open'], io)).toBe(0);
    expect(io.out).toBe('Opened the control panel in your browser.\n');
    // The opener is given a file address in STEWARD_HOME (what `ps` would show), not the address with the token.
    const given = await until(opened);
    expect(given).toBe(pathToFileURL(join(home.dir, 'open-panel.html')).href);
    expect(given).not.toContain(owner.http.token);
    // The page, this user's alone, sends the browser on to the panel's address, token and all.
    const page = readFileSync(fileURLToPath(given), 'utf8');
    expect(page).toContain(`<meta http-equiv="refresh" content="0;url=${owner.panelUrl}">`);
    expect(statSync(fileURLToPath(given)).mode & 0o777).toBe(0o600);
  });

  it('says how to start Steward when nothing runs, and opens nothing', async () => {
    const env = setup();
    const { path, opened } = opener();
    const io = captureIo({ ...env, STEWARD_OPENER: path });
    expect(await runCli(['open'], io)).toBe(1);
    expect(io.err).toBe('steward: Steward is not running: start it with `npm start` or `steward serve`, then run `steward open`.\n');
    expect(existsSync(opened)).toBe(false);
  });

  it('prints the address for the person to open when no opener can start', async () => {
    const env = setup();
    owner = await serve(env);
    const io = captureIo({ ...env, STEWARD_OPENER: join(home.dir, 'no-such-opener') });
    expect(await runCli(['open'], io)).toBe(1);
    expect(io.err).toContain(`open this address yourself: ${owner.panelUrl}`);
  });
});

describe('steward service install | uninstall (start at login)', () => {
  const entry = () => join(home.dir, 'xdg-config', 'autostart', 'steward.desktop');

  it('in headless mode on Linux, adds and removes an autostart entry that runs `steward serve`', async () => {
    const env = setup();
    const installed = captureIo(env);
    expect(await runCli(['service', 'install'], installed)).toBe(0);
    expect(installed.out).toBe('Steward starts when you log in (headless `steward serve`, through an autostart entry).\n');
    // The home it was installed for, which a login session's environment does not name.
    expect(readFileSync(entry(), 'utf8')).toContain(`Exec=${process.execPath} ${BIN} serve --home ${home.dir}\n`);

    const uninstalled = captureIo(env);
    expect(await runCli(['service', 'uninstall', '--json'], uninstalled)).toBe(0);
    expect(JSON.parse(uninstalled.out)).toEqual({ enabled: false, supported: true, mechanism: 'xdg-autostart', launches: 'headless', message: null });
    expect(existsSync(entry())).toBe(false);
  });

  it('goes through the running owner, whose own start-at-login is used (the app starts itself)', async () => {
    const env = setup();
    owner = await serve(env, { startAtLogin: xdgAutostart(env, { command: '/opt/Steward/steward', args: ['--hidden'], launches: 'app' }) });
    expect(await runCli(['service', 'install'], captureIo(env))).toBe(0);
    expect(readFileSync(entry(), 'utf8')).toContain('Exec=/opt/Steward/steward --hidden\n');
    expect(await owner.core.call('Settings.GetStartAtLogin', {})).toMatchObject({ enabled: true, launches: 'app' });
    expect(await runCli(['service', 'uninstall'], captureIo(env))).toBe(0);
    expect(existsSync(entry())).toBe(false);
  });
});
