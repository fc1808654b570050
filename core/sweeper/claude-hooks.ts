import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { StewardError, type ContextAgent } from '../api/index.js';
import { homeToName, packageRoot, resolveHome, whereNotJson } from '../config/index.js';

/** When Claude Code asks: a new session, a resumed one, after /clear and after a compaction. */
export const HOOK_MATCHER = 'startup|resume|clear|compact';
const HOOK_TIMEOUT_S = 10;
export const BACKUP_SUFFIX = '.steward-backup';

export type HookAction = 'install' | 'uninstall';

export interface HookPlanView {
  agent: ContextAgent;
  action: HookAction;
  settingsPath: string;
  changed: boolean;
  diff: string;
  planHash: string;
  command: string;
}

/** Claude Code's user settings: in the first entry of CLAUDE_CONFIG_DIR when set, else `~/.claude`. */
export function claudeSettingsPath(env: NodeJS.ProcessEnv): string {
  const first = (env.CLAUDE_CONFIG_DIR ?? '')
    .split(',')
    .flatMap((s) => s.split(delimiter))
    .map((s) => s.trim())
    .find((s) => s !== '');
  return join(first ?? join(env.HOME && env.HOME.trim() !== '' ? env.HOME : homedir(), '.claude'), 'settings.json');
}

function quote(path: string): string {
  return `"${path.replace(/(["\\$`])/g, '\\$1')}"`;
}

/** How to run this Steward's command line from an agent's hook: this runtime and this package's bin, by absolute path. */
export function stewardInvocation(): string {
  const bin = join(packageRoot(), 'bin', 'steward.js');
  // The desktop app's runtime is Electron, which runs a script as plain Node only when asked to.
  const runtime = process.versions.electron ? `ELECTRON_RUN_AS_NODE=1 ${quote(process.execPath)}` : quote(process.execPath);
  return `${runtime} ${quote(bin)}`;
}

/**
 * This Steward's home when it is not the one Steward finds by itself (the platform's app-data folder):
 * the hook and the MCP server run in Claude Code's environment, which has no STEWARD_HOME, so they
 * must be told it, or they would read another home and find nothing.
 */
function ownHome(env: NodeJS.ProcessEnv, home: string): string | null {
  return homeToName(env, home);
}

/**
 * `--home DIR` rather than a variable before the command (`STEWARD_HOME=… node …`): Claude Code may run
 * hooks in a shell that is not POSIX (Windows). `home`: the owner's home (default: the one `env` names).
 */
export function hookCommand(env: NodeJS.ProcessEnv, home: string = resolveHome(env).dir): string {
  const own = ownHome(env, home);
  return `${stewardInvocation()} context --hook${own === null ? '' : ` --home ${quote(own)}`}`;
}

/**
 * Claude Code's own `--env` sets the server's STEWARD_HOME, whatever shell or system runs it; user
 * scope, as README says, so every project sees the server.
 */
export function mcpSetupCommand(env: NodeJS.ProcessEnv, home: string = resolveHome(env).dir): string {
  const own = ownHome(env, home);
  // The name before --env: Claude Code's --env takes every value up to `--`, and would take the name as one.
  return `claude mcp add --scope user steward${own === null ? '' : ` --env STEWARD_HOME=${quote(own)}`} -- ${stewardInvocation()} mcp`;
}

/** Our entry, whatever path it was installed from: it runs Steward's `context --hook`. */
export function isStewardHook(command: unknown): boolean {
  return typeof command === 'string' && /steward/i.test(command) && /\scontext\s+--hook\b/.test(command);
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

interface SettingsFile {
  text: string | null;
  value: Json;
}

function readSettings(path: string): SettingsFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { text: null, value: {} };
    throw new StewardError('config_invalid', `${path} cannot be read; Steward changed nothing`);
  }
  if (text.trim() === '') return { text, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    // Where, so it can be found in an editor, as config.json's own error says it (whereNotJson).
    const { line, column } = whereNotJson(text.replace(/^\uFEFF/, ''));
    throw new StewardError('config_invalid', `${path} is not valid JSON at line ${line}, column ${column}; fix it first, Steward changed nothing`);
  }
  if (!isObject(value)) throw new StewardError('config_invalid', `${path} does not hold a JSON object; Steward changed nothing`);
  return { text, value };
}

function sessionStartGroups(settings: Json): unknown[] {
  const hooks = isObject(settings.hooks) ? settings.hooks : {};
  return Array.isArray(hooks.SessionStart) ? hooks.SessionStart : [];
}

/** The settings without any Steward entry; every other hook and setting kept as it was. */
function withoutHook(settings: Json): Json {
  const groups = sessionStartGroups(settings);
  const kept = groups
    .map((group) => {
      if (!isObject(group) || !Array.isArray(group.hooks)) return group;
      return { ...group, hooks: group.hooks.filter((h) => !(isObject(h) && isStewardHook(h.command))) };
    })
    .filter((group) => !(isObject(group) && Array.isArray(group.hooks) && group.hooks.length === 0));
  if (kept.length === groups.length && JSON.stringify(kept) === JSON.stringify(groups)) return settings;
  const hooks: Json = { ...(isObject(settings.hooks) ? settings.hooks : {}) };
  if (kept.length > 0) hooks.SessionStart = kept;
  else delete hooks.SessionStart;
  const next: Json = { ...settings, hooks };
  if (Object.keys(hooks).length === 0) delete next.hooks;
  return next;
}

/** The settings with exactly one Steward entry, running `command` on every session start. */
function withHook(settings: Json, command: string): Json {
  const present = sessionStartGroups(settings).some(
    (g) => isObject(g) && g.matcher === HOOK_MATCHER && Array.isArray(g.hooks) && g.hooks.some((h) => isObject(h) && h.command === command),
  );
  const others = sessionStartGroups(settings).flatMap((g) => (isObject(g) && Array.isArray(g.hooks) ? g.hooks.filter((h) => isObject(h) && isStewardHook(h.command)) : []));
  if (present && others.length === 1) return settings;
  const base = withoutHook(settings);
  const hooks: Json = { ...(isObject(base.hooks) ? base.hooks : {}) };
  hooks.SessionStart = [...sessionStartGroups(base), { matcher: HOOK_MATCHER, hooks: [{ type: 'command', command, timeout: HOOK_TIMEOUT_S }] }];
  return { ...base, hooks };
}

/** The file's own indentation, so the change shown (and made) is only the change. */
function indentOf(text: string | null): string | number {
  const match = text ? /^([ \t]+)"/m.exec(text) : null;
  return match?.[1] ?? 2;
}

function render(value: Json, indent: string | number = 2): string {
  return `${JSON.stringify(value, null, indent)}\n`;
}

/**
 * A unified diff of two small texts (a settings file), with three lines of context around each change;
 * where lines are replaced, the removed ones come first. `after` null: the file is removed.
 */
export function lineDiff(before: string, after: string | null, name: string): string {
  const a = before === '' ? [] : before.replace(/\n$/, '').split('\n');
  const b = after === null || after === '' ? [] : after.replace(/\n$/, '').split('\n');
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i -= 1) for (let j = b.length - 1; j >= 0; j -= 1) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const ops: Array<[' ' | '-' | '+', string]> = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      ops.push([' ', a[i]!]);
      i += 1;
      j += 1;
    } else if (i < a.length && (j >= b.length || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) ops.push(['-', a[i++]!]);
    else ops.push(['+', b[j++]!]);
  }
  const near = ops.map((_, k) => ops.slice(Math.max(0, k - 3), k + 4).some(([op]) => op !== ' '));
  const lines = ops.flatMap(([op, line], k) => (near[k] ? [`${op}${line}`] : k > 0 && near[k - 1] ? ['@@'] : []));
  if (lines[lines.length - 1] === '@@') lines.pop();
  return [`--- ${name} (now)`, `+++ ${name} ${after === null ? '(removed: nothing else was in it)' : '(after)'}`, ...lines].join('\n');
}

function hashOf(text: string | null): string {
  return createHash('sha256').update(text ?? '(absent)').digest('hex').slice(0, 32);
}

interface Planned extends HookPlanView {
  file: SettingsFile;
  next: Json;
  /** The uninstall removes the file: Steward created it (no backup of an earlier one beside it) and nothing else is left in it. */
  remove: boolean;
}

/** A settings file Steward created holds nothing of the person's: its install made no backup, there was nothing to keep. */
function createdByUs(action: HookAction, path: string, next: Json): boolean {
  return action === 'uninstall' && Object.keys(next).length === 0 && !existsSync(`${path}${BACKUP_SUFFIX}`);
}

function planFor(action: HookAction, env: NodeJS.ProcessEnv, home?: string): Planned {
  const settingsPath = claudeSettingsPath(env);
  const file = readSettings(settingsPath);
  const command = hookCommand(env, home);
  const next = action === 'install' ? withHook(file.value, command) : withoutHook(file.value);
  const changed = next !== file.value;
  const remove = changed && createdByUs(action, settingsPath, next);
  const diff = changed ? lineDiff(file.text ?? '', remove ? null : render(next, indentOf(file.text)), settingsPath) : '';
  return { agent: 'claude', action, settingsPath, changed, diff, planHash: hashOf(file.text), command, file, next, remove };
}

/** What installing or uninstalling the hook would change in Claude Code's settings, before anything changes. */
export function planHook(action: HookAction, env: NodeJS.ProcessEnv, home?: string): HookPlanView {
  const { file: _file, next: _next, remove: _remove, ...view } = planFor(action, env, home);
  return view;
}

/**
 * Applies the change the user saw (the plan's hash names the file as it was then): atomically,
 * keeping every other setting, with a copy of the previous file beside it. Applying twice changes nothing.
 */
export function applyHook(action: HookAction, env: NodeJS.ProcessEnv, planHash: string, home?: string): { changed: boolean; installed: boolean; settingsPath: string; backupPath: string | null } {
  const plan = planFor(action, env, home);
  if (plan.planHash !== planHash) throw new StewardError('stale_plan', `${plan.settingsPath} changed since the change was shown; review it again`);
  if (!plan.changed) return { changed: false, installed: action === 'install', settingsPath: plan.settingsPath, backupPath: null };
  if (plan.remove) {
    // Only Steward's entry was in it: removed, the way it was before the install, with nothing to back up.
    rmSync(plan.settingsPath, { force: true });
    return { changed: true, installed: false, settingsPath: plan.settingsPath, backupPath: null };
  }
  mkdirSync(dirname(plan.settingsPath), { recursive: true });
  let backupPath: string | null = null;
  let mode = 0o644;
  if (plan.file.text !== null) {
    backupPath = `${plan.settingsPath}${BACKUP_SUFFIX}`;
    copyFileSync(plan.settingsPath, backupPath);
    mode = statSync(plan.settingsPath).mode & 0o777;
  }
  writeFileAtomic.sync(plan.settingsPath, render(plan.next, indentOf(plan.file.text)), { mode });
  return { changed: true, installed: action === 'install', settingsPath: plan.settingsPath, backupPath };
}

/** Whether Claude Code's settings hold Steward's hook now. */
export function hookInstalled(env: NodeJS.ProcessEnv): boolean {
  try {
    return sessionStartGroups(readSettings(claudeSettingsPath(env)).value).some((g) => isObject(g) && Array.isArray(g.hooks) && g.hooks.some((h) => isObject(h) && isStewardHook(h.command)));
  } catch {
    return false;
  }
}
