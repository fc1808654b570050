import { resolveHome } from '../config/index.js';
import type { PlanHere } from '../mcp/index.js';
import { readDaemonInfo } from '../server/daemon/index.js';
import { lockOwnerPid } from '../store/lock/index.js';

/**
 * A plan when no owner runs (`steward maintenance plan`, MCP `maintenance_plan`): from what
 * STEWARD_HOME holds, without creating it, taking the owner lock or writing anything (opening the
 * Core in-process would set up a home). Undefined when an owner runs: then the owner answers.
 * Finding the owner reads two small files (as connect does); the maintenance room loads only when a
 * plan is made here, so `steward mcp` answers `initialize` without it.
 */
export function planHere(env: NodeJS.ProcessEnv): PlanHere {
  return async (request) => {
    const home = resolveHome(env).dir;
    const daemon = readDaemonInfo(home);
    if (daemon && lockOwnerPid(home) === daemon.pid) return undefined;
    const { planWithoutOwner } = await import('./plan-facts.js');
    return planWithoutOwner(home, env, request);
  };
}
