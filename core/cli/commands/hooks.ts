import type { Command } from 'commander';
import { CONTEXT_AGENTS, type ContextAgent } from '../../api/index.js';
import type { HookAction } from '../../sweeper/index.js';
import { askOrRefuse, type Asking } from '../confirm.js';
import { EXIT, printJson, UsageError, type CliIo, type Run } from '../output.js';

function checkAgent(agent: string): ContextAgent {
  if (!(CONTEXT_AGENTS as readonly string[]).includes(agent)) throw new UsageError(`hooks know these agents: ${CONTEXT_AGENTS.join(', ')} (got ${JSON.stringify(agent)})`);
  return agent as ContextAgent;
}

function changeWords(action: HookAction, settingsPath: string): string {
  return action === 'install' ? `Steward's SessionStart hook would be added to ${settingsPath}` : `Steward's SessionStart hook would be removed from ${settingsPath}`;
}

/** Asked in a terminal; where nobody can answer, refused (`confirmation_required`) as forget and cache prune are, with the plan. */
function asking(action: HookAction, plan: { settingsPath: string }): Asking {
  const question = action === 'install' ? `Add Steward's SessionStart hook to ${plan.settingsPath}?` : `Remove Steward's SessionStart hook from ${plan.settingsPath}?`;
  return { question, refused: 'Nothing was changed.', remediation: 'Pass --yes to apply this change.', plan };
}

/**
 * Shows the change to the agent's settings, then applies it on --yes or a yes in the terminal. It
 * edits this user's own settings (this process's HOME and CLAUDE_CONFIG_DIR), so it runs here, not
 * through a running owner that may see another environment.
 */
async function hookVerb(io: CliIo, action: HookAction, agent: string, options: { yes?: boolean; json?: boolean }): Promise<number> {
  checkAgent(agent);
  // The sweeper room loads when a hook verb runs, not with the program (`steward --help`).
  const { applyHook, planHook } = await import('../../sweeper/index.js');
  const plan = planHook(action, io.env);
  if (!plan.changed) {
    if (options.json) printJson(io, { plan, applied: false });
    else io.stdout(`${action === 'install' ? 'Already installed' : 'Not installed'} in ${plan.settingsPath}; nothing to change.\n`);
    return EXIT.ok;
  }
  if (!options.json) io.stdout(`${plan.diff}\n`);
  if (!options.yes && !(await askOrRefuse(io, `${changeWords(action, plan.settingsPath)}.\n`, asking(action, plan)))) {
    if (options.json) printJson(io, { plan, applied: false });
    else io.stdout('Nothing was changed.\n');
    return EXIT.ok;
  }
  const applied = applyHook(action, io.env, plan.planHash);
  if (options.json) printJson(io, { plan, applied: true, ...applied });
  else io.stdout(`${action === 'install' ? 'Installed' : 'Removed'}: ${applied.settingsPath}${applied.backupPath ? ` (the previous file is kept as ${applied.backupPath})` : ''}\n`);
  return EXIT.ok;
}

/** `steward hooks install|uninstall claude [--yes]`: Steward's notes at every Claude Code session start. */
export function registerHooks(program: Command, io: CliIo, run: Run): void {
  const hooks = program.command('hooks').description("deliver the project's notes to an agent at session start (a hook in the agent's settings)");
  for (const action of ['install', 'uninstall'] as const) {
    hooks
      .command(`${action} <agent>`)
      .description(action === 'install' ? "add Steward's SessionStart hook (shows the change, applies it when confirmed)" : "remove Steward's SessionStart hook, and only it")
      .option('--yes', 'apply the change without asking')
      .option('--json', 'print JSON')
      .action((agent: string, options: { yes?: boolean; json?: boolean }) => run(() => hookVerb(io, action, agent, options), options.json));
  }
}
