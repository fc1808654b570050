import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../core/cli/index.js';
import { parseContextArgs, runContext } from '../../../core/cli/commands/context.js';
import { resolveHome } from '../../../core/config/index.js';
import { projectSlugOf } from '../../../core/projects/folder/index.js';
import { applyHook, BACKUP_SUFFIX, claudeSettingsPath, HOOK_MATCHER, hookCommand, hookInstalled, isStewardHook, mcpSetupCommand, planHook } from '../../../core/sweeper/claude-hooks.js';
import { projectPaths } from '../../../core/sweeper/index.js';
import { captureIo } from '../../support/cli.js';
import { tempHome, type TempHome } from '../../support/home.js';

let home: TempHome;
afterEach(() => home?.cleanup());

const USER_SETTINGS = {
  model: 'opus',
  permissions: { allow: ['Bash(npm test:*)'] },
  hooks: {
    SessionStart: [{ matcher: 'startup', hooks: [{ type: 'command', command: '~/bin/greet.sh' }] }],
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '~/bin/guard.sh' }] }],
  },
};

function setup(settings: unknown = USER_SETTINGS, env: NodeJS.ProcessEnv = {}) {
  home = tempHome('steward-hooks-', env);
  const path = claudeSettingsPath(home.env);
  if (settings !== null) {
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
  }
  return path;
}

const read = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as typeof USER_SETTINGS & { hooks: Record<string, Array<{ matcher: string; hooks: Array<{ command: string; type: string; timeout?: number }> }>> };

describe("Claude Code's SessionStart hook", () => {
  it('is planned first: the exact change is shown, nothing is written', () => {
    const path = setup();
    const before = readFileSync(path, 'utf8');
    const plan = planHook('install', home.env);
    expect(plan).toMatchObject({ agent: 'claude', action: 'install', settingsPath: path, changed: true });
    expect(plan.diff).toContain(`+        "matcher": "${HOOK_MATCHER}"`);
    expect(plan.diff).toMatch(/\+ +"command": ".*steward\.js\\" context --hook( --home \\".*\\")?"/);
    expect(plan.diff).not.toMatch(/^-(?!-- )/m);
    expect(readFileSync(path, 'utf8')).toBe(before);
  });

  it('installs atomically with a backup, keeps every other setting, and is idempotent', () => {
    const path = setup();
    const before = readFileSync(path, 'utf8');
    const plan = planHook('install', home.env);
    const applied = applyHook('install', home.env, plan.planHash);
    expect(applied).toMatchObject({ changed: true, installed: true, backupPath: `${path}${BACKUP_SUFFIX}` });
    expect(readFileSync(`${path}${BACKUP_SUFFIX}`, 'utf8')).toBe(before);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const after = read(path);
    expect(after.model).toBe('opus');
    expect(after.permissions).toEqual(USER_SETTINGS.permissions);
    expect(after.hooks.PreToolUse).toEqual(USER_SETTINGS.hooks.PreToolUse);
    expect(after.hooks.SessionStart![0]).toEqual(USER_SETTINGS.hooks.SessionStart[0]);
    expect(after.hooks.SessionStart![1]).toMatchObject({ matcher: HOOK_MATCHER, hooks: [{ type: 'command', timeout: 10 }] });
    expect(isStewardHook(after.hooks.SessionStart![1]!.hooks[0]!.command)).toBe(true);
    expect(hookInstalled(home.env)).toBe(true);
    const again = planHook('install', home.env);
    expect(again.changed).toBe(false);
    expect(applyHook('install', home.env, again.planHash)).toMatchObject({ changed: false });
    expect(read(path).hooks.SessionStart).toHaveLength(2);
  });

  it('uninstall removes only its own entry', () => {
    const path = setup();
    applyHook('install', home.env, planHook('install', home.env).planHash);
    const plan = planHook('uninstall', home.env);
    expect(plan.diff).toMatch(/^-.*context --hook/m);
    applyHook('uninstall', home.env, plan.planHash);
    expect(read(path)).toEqual(USER_SETTINGS);
    expect(hookInstalled(home.env)).toBe(false);
    expect(planHook('uninstall', home.env).changed).toBe(false);
  });

  it('creates the file when there is none, in the first entry of CLAUDE_CONFIG_DIR', () => {
    const first = join(tempHome().dir, 'claude-a');
    const path = setup(null, { CLAUDE_CONFIG_DIR: `${first},/elsewhere/claude-b` });
    expect(path).toBe(join(first, 'settings.json'));
    const applied = applyHook('install', home.env, planHook('install', home.env).planHash);
    expect(applied.backupPath).toBeNull();
    expect(read(path).hooks.SessionStart).toHaveLength(1);
  });

  it('uninstall shows the removed lines before the added ones', () => {
    const path = setup({ model: 'opus' });
    applyHook('install', home.env, planHook('install', home.env).planHash);
    const lines = planHook('uninstall', home.env).diff.split('\n').filter((l) => /^[-+](?!-- |\+\+ )/.test(l));
    const firstAdded = lines.findIndex((l) => l.startsWith('+'));
    expect(lines.findIndex((l) => l.startsWith('-'))).toBeLessThan(firstAdded < 0 ? Infinity : firstAdded);
    expect(lines.slice(firstAdded < 0 ? lines.length : firstAdded).every((l) => l.startsWith('+'))).toBe(true);
    applyHook('uninstall', home.env, planHook('uninstall', home.env).planHash);
    expect(read(path)).toEqual({ model: 'opus' });
  });

  it('uninstall removes a settings.json Steward created when nothing else is left in it', () => {
    const first = join(tempHome().dir, 'claude-a');
    const path = setup(null, { CLAUDE_CONFIG_DIR: first });
    applyHook('install', home.env, planHook('install', home.env).planHash);
    const plan = planHook('uninstall', home.env);
    expect(plan.diff).not.toMatch(/^\+(?!\+\+ )/m);
    expect(plan.diff).toMatch(/^\+\+\+ .*removed/m);
    expect(applyHook('uninstall', home.env, plan.planHash)).toMatchObject({ changed: true, installed: false, backupPath: null });
    expect(existsSync(path)).toBe(false);
    expect(existsSync(`${path}${BACKUP_SUFFIX}`)).toBe(false);
    expect(planHook('uninstall', home.env).changed).toBe(false);
  });

  it("uninstall keeps a person's own settings.json, even when it is left empty, with its backup", () => {
    const path = setup({});
    applyHook('install', home.env, planHook('install', home.env).planHash);
    const applied = applyHook('uninstall', home.env, planHook('uninstall', home.env).planHash);
    expect(applied.backupPath).toBe(`${path}${BACKUP_SUFFIX}`);
    expect(read(path)).toEqual({});
  });

  it('refuses a file that is not JSON, and a file changed since the plan, changing nothing', () => {
    const path = setup();
    const plan = planHook('install', home.env);
    writeFileSync(path, `${JSON.stringify({ ...USER_SETTINGS, model: 'sonnet' }, null, 2)}\n`);
    expect(() => applyHook('install', home.env, plan.planHash)).toThrow(expect.objectContaining({ code: 'stale_plan' }));
    writeFileSync(path, '{ "model": "opus", ');
    expect(() => planHook('install', home.env)).toThrow(expect.objectContaining({ code: 'config_invalid' }));
    expect(readFileSync(path, 'utf8')).toBe('{ "model": "opus", ');
    expect(existsSync(`${path}${BACKUP_SUFFIX}`)).toBe(false);
  });

  it('says where a file that is not JSON stops being JSON: its line and column, as config.json does', () => {
    const path = setup();
    writeFileSync(path, '{\n  "model": "opus",\n  tru\n}\n');
    expect(() => planHook('install', home.env)).toThrow(`${path} is not valid JSON at line 3, column 3; fix it first, Steward changed nothing`);
    expect(existsSync(`${path}${BACKUP_SUFFIX}`)).toBe(false);
  });
});

/** A command line's words as a POSIX shell reads them: enough for the double-quoted words Steward writes. */
function shellWords(command: string): string[] {
  return [...command.matchAll(/"((?:[^"\\]|\\.)*)"|(\S+)/g)].map((m) => (m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2]!));
}

describe('a home other than the default one', () => {
  const withoutHome = (env: NodeJS.ProcessEnv) => Object.fromEntries(Object.entries(env).filter(([key]) => key !== 'STEWARD_HOME'));

  it('reaches the installed hook, which Claude Code runs without STEWARD_HOME', async () => {
    const path = setup();
    const project = join(home.env.HOME!, 'src', 'garden');
    mkdirSync(project, { recursive: true });
    const notes = projectPaths(home.dir, projectSlugOf(project));
    mkdirSync(notes.dir, { recursive: true });
    writeFileSync(notes.overview, '# garden\n\n- Task: Add frost dates\n');
    applyHook('install', home.env, planHook('install', home.env).planHash);
    const command = read(path).hooks.SessionStart!.at(-1)!.hooks[0]!.command;
    expect(command).toContain(`context --hook --home "${home.dir}"`);
    const words = shellWords(command);
    const options = parseContextArgs(words.slice(words.indexOf('context') + 1))!;
    const hook = captureIo(withoutHome(home.env));
    const input = JSON.stringify({ session_id: 'abc', cwd: project, hook_event_name: 'SessionStart', source: 'startup' });
    expect(await runContext(hook, options, () => Promise.resolve(input))).toBe(0);
    expect(hook.out).toContain('Add frost dates');
  });

  it('is set in the MCP command with Claude Code\'s own --env', () => {
    home = tempHome('steward-hooks-');
    expect(mcpSetupCommand(home.env)).toMatch(new RegExp(`^claude mcp add --scope user steward --env STEWARD_HOME="${home.dir}" -- .*steward\\.js" mcp$`));
  });

  it('the default home changes nothing: no --home, no --env', () => {
    home = tempHome('steward-hooks-');
    const env = withoutHome(home.env);
    expect(hookCommand(env)).toMatch(/steward\.js" context --hook$/);
    expect(mcpSetupCommand(env)).toMatch(/^claude mcp add --scope user steward -- /);
    const named = { ...env, STEWARD_HOME: resolveHome(env).dir };
    expect(hookCommand(named)).toBe(hookCommand(env));
    expect(mcpSetupCommand(named)).toBe(mcpSetupCommand(env));
  });
});

describe('steward hooks install|uninstall claude', () => {
  it('shows the change and applies it only on --yes or a yes in a terminal', async () => {
    const path = setup();
    const before = readFileSync(path, 'utf8');
    // Where nobody can answer: the change shown, then refused as forget and cache prune refuse (exit 1).
    const shown = captureIo(home.env);
    expect(await runCli(['hooks', 'install', 'claude'], shown)).toBe(1);
    expect(shown.out).toContain('+++ ');
    expect(shown.err).toBe(`steward: Steward's SessionStart hook would be added to ${path}. Nothing was changed. Pass --yes to apply this change.\n`);
    expect(readFileSync(path, 'utf8')).toBe(before);
    const json = captureIo(home.env);
    expect(await runCli(['hooks', 'install', 'claude', '--json'], json)).toBe(1);
    // A script asking --json still gets the plan the change would apply, inside the refusal.
    const plan = { changed: true, settingsPath: path, diff: expect.stringContaining('+++ ') };
    expect(JSON.parse(json.out)).toMatchObject({ error: { code: 'confirmation_required', remediation: 'Pass --yes to apply this change.', details: { plan } } });
    const declined = Object.assign(captureIo(home.env), { interactive: () => true, confirm: () => Promise.resolve(false) });
    expect(await runCli(['hooks', 'install', 'claude'], declined)).toBe(0);
    expect(declined.out).toContain('Nothing was changed.');
    expect(readFileSync(path, 'utf8')).toBe(before);
    const asked: string[] = [];
    const yes = { ...captureIo(home.env), interactive: () => true, confirm: (q: string) => (asked.push(q), Promise.resolve(true)) };
    expect(await runCli(['hooks', 'install', 'claude'], yes)).toBe(0);
    expect(asked[0]).toContain(path);
    expect(hookInstalled(home.env)).toBe(true);
    const twice = captureIo(home.env);
    expect(await runCli(['hooks', 'install', 'claude', '--yes'], twice)).toBe(0);
    expect(twice.out).toBe(`Already installed in ${path}; nothing to change.\n`);
    const removed = captureIo(home.env);
    expect(await runCli(['hooks', 'uninstall', 'claude', '--yes'], removed)).toBe(0);
    expect(removed.out).toContain(`Removed: ${path}`);
    expect(read(path)).toEqual(USER_SETTINGS);
  });

  it('names the agents it knows: anything else is a usage error', async () => {
    setup();
    const io = captureIo(home.env);
    expect(await runCli(['hooks', 'install', 'cursor'], io)).toBe(2);
    expect(io.err).toMatch(/hooks know these agents: claude/);
  });
});
