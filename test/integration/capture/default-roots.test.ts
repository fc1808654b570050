import { mkdirSync, symlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../core/config/index.js';
import { ClaudeProvider } from '../../../core/transcripts/providers/claude/index.js';
import { claudeDesktopDefaults } from '../../../core/transcripts/providers/claude/roots.js';
import { defaultRoots, resolveRoots } from '../../../core/transcripts/providers/index.js';
import { transcriptsHandlers } from '../../../core/transcripts/handlers.js';
import { uniqueRoots } from '../../../core/transcripts/roots.js';
import { OpenClawProvider } from '../../../core/transcripts/providers/openclaw/index.js';
import { desktopSession, openclawLines, writeJsonl } from '../../support/transcripts.js';
import { tempHome, type TempHome } from '../../support/home.js';

let home: TempHome | undefined;
afterEach(() => {
  home?.cleanup();
  home = undefined;
});

/** HOME, APPDATA and LOCALAPPDATA in a temp folder: a default root never reaches the real home. */
function fakeUser() {
  home = tempHome('steward-default-roots-');
  const user = join(home.dir, 'user');
  const env: NodeJS.ProcessEnv = { HOME: user, APPDATA: join(user, 'AppData', 'Roaming'), LOCALAPPDATA: join(user, 'AppData', 'Local') };
  return { user, env };
}

describe("Claude Code's default roots", () => {
  it('CLAUDE_CONFIG_DIR naming ~/.claude (as it is or as ~/.claude/) is listed once: found by default, and watched', async () => {
    const { user, env } = fakeUser();
    const none = parseConfig({});
    const code = [join(user, '.claude'), join(user, '.config', 'claude')];
    for (const named of [join(user, '.claude'), `${join(user, '.claude')}/`, `${join(user, '.claude')},/srv/claude`]) {
      const withEnv = { ...env, CLAUDE_CONFIG_DIR: named };
      const extra = named.endsWith('/srv/claude') ? ['/srv/claude'] : [];
      expect(defaultRoots('claude', withEnv).roots).toEqual([...code, ...extra]);
      expect(resolveRoots('claude', none, withEnv).roots).toEqual([...code, ...extra]);
      // What Settings → Claude Code shows under "Found by default".
      const listing = await transcriptsHandlers(none, withEnv, () => none)['Providers.Roots']({}, { transport: 'in-process' });
      const detected = listing.providers.find((p) => p.provider === 'claude')!.roots.find((r) => r.key === 'roots')!.detected;
      expect(detected.map((d) => d.path)).toEqual([...code, ...extra]);
    }
  });

  it('each folder once, as first spelled; on Windows without regard to case', () => {
    expect(uniqueRoots(['/a/b', '/a/./b', '/a/c/../b/', '/a/B'], 'linux')).toEqual(['/a/b', '/a/B']);
    expect(uniqueRoots(['C:\\Users\\Ana\\.claude', 'c:\\users\\ana\\.claude\\', 'C:\\Users\\Ana\\.config\\claude'], 'win32')).toEqual(['C:\\Users\\Ana\\.claude', 'C:\\Users\\Ana\\.config\\claude']);
  });
});

describe("Claude Desktop's default user-data folders", () => {
  it('Windows: the classic install and the Microsoft Store (MSIX) one; a folder that is not there is read as empty', async () => {
    const { env } = fakeUser();
    const msix = join(env.LOCALAPPDATA!, 'Packages', 'Claude_pzs8sxrjxfjjc', 'LocalCache', 'Roaming', 'Claude');
    const roots = claudeDesktopDefaults(env, 'win32');
    expect(roots).toEqual([join(env.APPDATA!, 'Claude'), msix]);
    // Only the Store build is installed: its sessions are found, and the absent classic folder is no failure.
    desktopSession(msix, 'cw-store', 2, 'From the Store build');
    const found = await new ClaudeProvider({ roots: [], desktopRoots: roots }).discover();
    expect(found.failed).toBe(0);
    expect(found.files.map((f) => f.path)).toEqual([join(msix, 'local-agent-mode-sessions', 'org-1', 'ws-1', 'local_cw-store', '.claude', 'projects', '-sessions-x', 'cw-store.jsonl')]);
  });

  it('macOS: the app and its third-party-provider variant, Claude-3p', async () => {
    const { user, env } = fakeUser();
    const support = join(user, 'Library', 'Application Support');
    const roots = claudeDesktopDefaults(env, 'darwin');
    expect(roots).toEqual([join(support, 'Claude'), join(support, 'Claude-3p')]);
    desktopSession(join(support, 'Claude-3p'), 'cw-3p', 2, 'Through a gateway');
    const found = await new ClaudeProvider({ roots: [], desktopRoots: roots }).discover();
    expect(found).toMatchObject({ failed: 0 });
    expect(found.files.map((f) => f.path.endsWith('cw-3p.jsonl'))).toEqual([true]);
  });

  it('Linux: Claude under the XDG config folder, as before', () => {
    const { user, env } = fakeUser();
    expect(claudeDesktopDefaults(env, 'linux')).toEqual([join(user, '.config', 'Claude')]);
    expect(claudeDesktopDefaults({ ...env, XDG_CONFIG_HOME: '/xdg' }, 'linux')).toEqual([join('/xdg', 'Claude')]);
  });
});

describe("OpenClaw's default state folders", () => {
  it('~/.openclaw and the folders of its earlier names, ~/.clawdbot and ~/.moltbot; OPENCLAW_STATE_DIR replaces them all', () => {
    const { user, env } = fakeUser();
    const none = parseConfig({});
    expect(resolveRoots('openclaw', none, env)).toEqual({ roots: ['.openclaw', '.clawdbot', '.moltbot'].map((d) => join(user, d)) });
    expect(resolveRoots('openclaw', none, { ...env, OPENCLAW_STATE_DIR: '/srv/openclaw' })).toEqual({ roots: ['/srv/openclaw'] });
  });

  it('reads sessions a Clawdbot or Moltbot install left, once each, when a legacy folder links to another', async () => {
    const { user, env } = fakeUser();
    writeJsonl(join(user, '.clawdbot', 'agents', 'main', 'sessions', 'cb-1.jsonl'), openclawLines('cb-1', [{ id: 'a0000001' }]));
    writeJsonl(join(user, '.moltbot', 'agents', 'main', 'sessions', 'mb-1.jsonl'), openclawLines('mb-1', [{ id: 'b0000001' }]));
    // OpenClaw's migration may leave the old name as a link to the new folder.
    mkdirSync(join(user, '.openclaw'), { recursive: true });
    symlinkSync(join(user, '.clawdbot', 'agents'), join(user, '.openclaw', 'agents'), 'dir');
    const found = await new OpenClawProvider(resolveRoots('openclaw', parseConfig({}), env).roots).discover();
    expect(found.failed).toBe(0);
    expect(found.files.map((f) => basename(f.path)).sort()).toEqual(['cb-1.jsonl', 'mb-1.jsonl']);
  });
});

describe("an agent's own folder variable with a relative folder", () => {
  it('is not read under whichever folder Steward started in: the agent’s default place is, as though unset; ~/ is expanded', () => {
    const { user, env } = fakeUser();
    const relative = { ...env, CODEX_HOME: 'rel-codex', GEMINI_CLI_HOME: 'rel-gem', CLAUDE_CONFIG_DIR: 'rel-claude', OPENCLAW_STATE_DIR: './rel-claw' };
    expect(defaultRoots('codex', relative).roots).toEqual([join(user, '.codex')]);
    expect(defaultRoots('gemini', relative).roots).toEqual([join(user, '.gemini')]);
    expect(defaultRoots('claude', relative).roots).toEqual([join(user, '.claude'), join(user, '.config', 'claude')]);
    expect(defaultRoots('openclaw', relative).roots).toEqual(['.openclaw', '.clawdbot', '.moltbot'].map((name) => join(user, name)));
    const tilde = { ...env, CODEX_HOME: '~/codex-elsewhere', GEMINI_CLI_HOME: '/srv/gem' };
    expect(defaultRoots('codex', tilde).roots).toEqual([join(user, 'codex-elsewhere')]);
    expect(defaultRoots('gemini', tilde).roots).toEqual([join('/srv/gem', '.gemini')]);
  });
});
