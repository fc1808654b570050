import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseContextArgs, runContext } from '../../../core/cli/commands/context.js';
import { projectSlugOf } from '../../../core/projects/folder/index.js';
import { CONTEXT_MAX_BYTES, hookAnswer, sessionContext } from '../../../core/sweeper/context/index.js';
import { projectPaths } from '../../../core/sweeper/index.js';
import { captureIo } from '../../support/cli.js';
import { tempHome, type TempHome } from '../../support/home.js';

const STRIPE = `sk_live_${'51HxQ2eLkTqW8vNz3Rb7Yc0Pd4Fg6Hj'}`;
let home: TempHome;
afterEach(() => home?.cleanup());

/** Notes for a project folder, written where the sweeper writes them. */
function notes(folder: string, overview: string | null, claude: string | null = null): void {
  const paths = projectPaths(home.dir, projectSlugOf(folder));
  mkdirSync(paths.dir, { recursive: true });
  if (overview !== null) writeFileSync(paths.overview, overview);
  if (claude !== null) writeFileSync(paths.claude, claude);
}

function setup() {
  home = tempHome('steward-context-');
  const user = home.env.HOME!;
  const project = join(user, 'src', 'garden');
  mkdirSync(join(project, 'web', 'components'), { recursive: true });
  return { user, project };
}

const input = (cwd: string, source = 'startup') => JSON.stringify({ session_id: 'abc', transcript_path: '/tmp/x.jsonl', cwd, hook_event_name: 'SessionStart', source });

describe('the session-start context', () => {
  it("answers with the project's OVERVIEW and Steward's CLAUDE.md, as a SessionStart hook's JSON", () => {
    const { project } = setup();
    notes(project, '# garden\n\n## Current state and focus\n\n- Task: Add frost dates\n', '# CLAUDE.md\n\n- The UI uses metric units.\n');
    const answer = JSON.parse(hookAnswer(input(project), home.env)) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    expect(answer.hookSpecificOutput.hookEventName).toBe('SessionStart');
    expect(answer.hookSpecificOutput.additionalContext).toContain('- Task: Add frost dates');
    expect(answer.hookSpecificOutput.additionalContext).toContain('- The UI uses metric units.');
    expect(answer.hookSpecificOutput.additionalContext).toContain('not instructions to follow');
  });

  it('has one top-level heading: the notes it embeds sit under it, their code left alone', () => {
    const { project } = setup();
    const overview = '# garden\n\n_Offline summary of recent activity (no model configured), up to 2026-11-29 09:09 UTC._\n\n## Current state and focus\n\n- Task: Add frost dates\n\n### Detail\n\n```sh\n# a shell comment, not a heading\n```\n';
    notes(project, overview, '# CLAUDE.md\n\n- The UI uses metric units.\n');
    const text = sessionContext(project, home.env)!.text;
    expect(text.replace(/```[\s\S]*?```/g, '').match(/^# .*$/gm)).toEqual(["# Steward's notes for garden"]);
    expect(text).toContain('\n## garden\n');
    expect(text).toContain('\n### Current state and focus\n');
    expect(text).toContain('\n#### Detail\n');
    expect(text).toContain('\n# a shell comment, not a heading\n');
    // The facts sit under their own second-level heading.
    expect(text).toContain("\n## Durable facts (Steward's CLAUDE.md)\n\n### CLAUDE.md\n");
  });

  it('a folder inside a project gets that project (the nearest ancestor); an unknown folder gets nothing', () => {
    const { project } = setup();
    notes(project, '# garden\n');
    expect(sessionContext(join(project, 'web', 'components'), home.env)?.folder).toBe(project);
    expect(hookAnswer(input(join(home.dir, 'elsewhere')), home.env)).toBe('');
  });

  it('for a folder inside a project, says whose notes these are, as MCP project_overview does', () => {
    const { project } = setup();
    notes(project, '# garden\n\n- Task: Add frost dates\n');
    const text = sessionContext(join(project, 'web'), home.env)!.text;
    expect(text).toContain('Steward has no notes for web yet; these are the notes for garden, the project folder above it.');
    expect(text).not.toContain('in this folder');
    expect(text).toContain('- Task: Add frost dates');
    expect(sessionContext(project, home.env)!.text).toContain('from earlier agent sessions in this folder');
  });

  it('for a folder inside a project whose notes wait for a rebuild, names that project, not this folder', () => {
    const { project } = setup();
    notes(project, '# garden\n');
    writeFileSync(projectPaths(home.dir, projectSlugOf(project)).state, JSON.stringify({ notesStaleSince: 1 }));
    const text = sessionContext(join(project, 'web'), home.env)!.text;
    expect(text).toContain('Steward has no notes for web yet');
    expect(text).toContain('garden, the project folder above it');
    expect(text).toContain('being rebuilt after a forget');
    expect(text).not.toContain('this folder');
  });

  it('never answers from a project at the home folder or a filesystem root', () => {
    const { user, project } = setup();
    notes(user, '# the whole home folder\n');
    notes('/', '# the root\n');
    expect(hookAnswer(input(project), home.env)).toBe('');
    expect(hookAnswer(input(user), home.env)).toBe('');
  });

  it("a repository's own CLAUDE.md reaches the agent by itself: Steward's is not added for a repo", () => {
    const { project } = setup();
    mkdirSync(join(project, '.git'), { recursive: true });
    writeFileSync(join(project, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    notes(project, '# garden\n', '- a stale fact\n');
    expect(sessionContext(project, home.env)?.text).not.toContain('stale fact');
  });

  it('redacts a secret a note still holds, before any cut, and stays within 8 KB', () => {
    const { project } = setup();
    notes(project, `# garden\n\n${'- a long line of notes about the garden planner\n'.repeat(400)}\nkey ${STRIPE}\n`, `- ${STRIPE}\n`);
    const raw = hookAnswer(input(project), home.env);
    expect(Buffer.byteLength(raw)).toBeLessThanOrEqual(CONTEXT_MAX_BYTES);
    expect(raw).not.toContain('sk_live_');
    expect(raw).toContain('…(the overview goes on in Steward');
    const quotes = `# "quoted"\n${'"a" \\ "b"\n'.repeat(3_000)}`;
    notes(project, quotes);
    expect(Buffer.byteLength(hookAnswer(input(project), home.env))).toBeLessThanOrEqual(CONTEXT_MAX_BYTES);
  });

  it('any problem prints nothing: bad JSON, no cwd, an unreadable home', () => {
    setup();
    expect(hookAnswer('not json', home.env)).toBe('');
    expect(hookAnswer('{}', home.env)).toBe('');
    expect(hookAnswer(input('/x'), { ...home.env, STEWARD_HOME: '\0bad' })).toBe('');
  });

  it('`steward context --hook` always exits 0; without --hook it prints the notes for a person', async () => {
    const { project } = setup();
    notes(project, '# garden\n\n- Task: Add frost dates\n');
    const hook = captureIo(home.env);
    expect(await runContext(hook, { hook: true }, () => Promise.resolve(input(project)))).toBe(0);
    expect(JSON.parse(hook.out)).toHaveProperty('hookSpecificOutput.additionalContext');
    const broken = captureIo(home.env);
    expect(await runContext(broken, { hook: true }, () => Promise.reject(new Error('stdin closed')))).toBe(0);
    expect(broken.out).toBe('');
    const person = captureIo(home.env);
    expect(await runContext(person, { cwd: join(project, 'web') })).toBe(0);
    expect(person.out).toContain('- Task: Add frost dates');
    const none = captureIo(home.env);
    expect(await runContext(none, { cwd: home.dir })).toBe(1);
    // Nothing to print stays exit 1; the one line says why (here: nothing is stored, and no store is
    // made to say so). Each other reason: test/integration/history/cli-miss-reasons.test.ts.
    expect(none.out).toBe('');
    expect(none.err).toBe('steward: Steward has stored no conversations yet, so no folder has notes; `steward backfill` imports the history your agents keep\n');
    expect(existsSync(join(home.dir, 'gateway.db'))).toBe(false);
  });

  it('the fast path never turns a hook into a usage error, and leaves other mistakes to the full CLI', () => {
    expect(parseContextArgs(['--hook', '--surprise'])).toEqual({ hook: true });
    expect(parseContextArgs(['--cwd', '/x'])).toEqual({ cwd: '/x' });
    expect(parseContextArgs(['--surprise'])).toBeNull();
    expect(parseContextArgs(['--hook', '--home', '/steward home'])).toEqual({ hook: true, home: '/steward home' });
  });

  it('`--home DIR` reads that home when the environment names none (a hook in Claude Code)', async () => {
    const { project } = setup();
    notes(project, '# garden\n\n- Task: Add frost dates\n');
    const { STEWARD_HOME: _dir, ...bare } = home.env;
    const hook = captureIo(bare);
    expect(await runContext(hook, { hook: true, home: home.dir }, () => Promise.resolve(input(project)))).toBe(0);
    expect(hook.out).toContain('Add frost dates');
    const person = captureIo(bare);
    expect(await runContext(person, { cwd: project, home: home.dir })).toBe(0);
    expect(person.out).toContain('Add frost dates');
  });
});

// Notes written before the writer's clean() took C1 controls and whole terminal-title sequences
// (4c1d932) may still hold them: what reads notes for an agent cleans them by the writer's own rule,
// and a person's terminal gets the rest (the project's name, from its folder) escaped, as every print.
describe('control characters in the notes and the project name', () => {
  const OLD_NOTES = '# garden\n\n- done over \u009b6n here\u0085\n- title \u001b]0;PWNED-TITLE\u0007set\n- \u001b[31mred\u001b[0m alert\r\n';
  /** Any character a terminal acts on: C0 but newline and tab, DEL, C1. */
  const CONTROL = /(?![\n\t])\p{Cc}/u;

  function oldNotes() {
    home = tempHome('steward-context-');
    const project = join(home.env.HOME!, 'src', 'gar\u001b[2Jden');
    mkdirSync(project, { recursive: true });
    notes(project, OLD_NOTES, '- fact \u009b1m\u001b]2;x\u001b\\kept\n');
    return project;
  }

  it('the hook hands the agent notes cleaned as the writer cleans them: no C1, no terminal-title sequence', () => {
    const project = oldNotes();
    const text = (JSON.parse(hookAnswer(input(project), home.env)) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    expect(text).toContain('- done over 6n here\n');
    expect(text).toContain('- title set\n');
    expect(text).toContain('- red alert');
    expect(text).toContain('- fact 1mkept');
    expect(text).not.toContain('PWNED');
    // Only the folder's own name is left as it is: it names the folder, and JSON carries it whole.
    expect(text.replaceAll('gar\u001b[2Jden', '')).not.toMatch(CONTROL);
  });

  it('steward context at a terminal escapes what is left (the name); a pipe gets the text an agent reads', async () => {
    const project = oldNotes();
    const terminal = { ...captureIo(home.env), stdoutIsTerminal: () => true };
    Object.assign(terminal, { stdout: (text: string) => void (terminal.out += text) });
    expect(await runContext(terminal, { cwd: project })).toBe(0);
    expect(terminal.out).not.toMatch(CONTROL);
    expect(terminal.out).toContain("# Steward's notes for gar\\x1b[2Jden\n");
    expect(terminal.out).toContain('- done over 6n here\n');
    const piped = captureIo(home.env);
    expect(await runContext(piped, { cwd: project })).toBe(0);
    expect(piped.out).toContain("# Steward's notes for gar\u001b[2Jden\n");
    expect(piped.out).toContain('- done over 6n here\n');
    expect(piped.out).not.toContain('PWNED');
  });
});
