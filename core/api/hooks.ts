import { z } from 'zod';
import { CONTEXT_AGENTS } from './lists.js';

/**
 * The agent-context hook: Steward's project notes delivered at an agent's session start. Installing
 * edits the agent's own settings file, so the change is planned and shown first, then applied only
 * when confirmed with the plan's hash (a file changed since is `stale_plan`).
 */
const agent = z.enum(CONTEXT_AGENTS);
const action = z.enum(['install', 'uninstall']);

export const HookPlan = z.strictObject({
  agent,
  action,
  /** The settings file the change is for (the first entry of CLAUDE_CONFIG_DIR, else ~/.claude). */
  settingsPath: z.string(),
  /** Whether applying changes anything (installing twice, or removing what is not there, does not). */
  changed: z.boolean(),
  /** A unified diff of the file, before → after. */
  diff: z.string(),
  /** Identifies the file as it was when planned. */
  planHash: z.string(),
  /** The hook command the entry runs. */
  command: z.string(),
});

export const HookStatus = z.strictObject({
  agent,
  installed: z.boolean(),
  settingsPath: z.string(),
  command: z.string(),
  /** The command that registers Steward's MCP server with the agent, for the panel's copy button. */
  mcpCommand: z.string(),
});

export const hooksMethods = {
  'Hooks.Status': { params: z.strictObject({ agent }), result: HookStatus },
  'Hooks.Plan': { params: z.strictObject({ agent, action }), result: HookPlan },
  'Hooks.Apply': {
    params: z.strictObject({ agent, action, planHash: z.string().min(1).max(200) }),
    result: z.strictObject({ agent, action, changed: z.boolean(), installed: z.boolean(), settingsPath: z.string(), backupPath: z.string().nullable() }),
  },
} as const;
