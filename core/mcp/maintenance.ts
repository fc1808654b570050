import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { ConflictView, countOf, failureWords, methods, reasonWords, RegistrationStatus, RepoId, repoMatches, STATE_LABELS } from '../api/index.js';
import { checkedAnswer } from './answers.js';
import type { WithClient } from './projects.js';
import { defineTool, READ_ONLY } from './tools.js';

const RegistrationFilter = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9:._@+-]{0,199}$/, 'expected a registration id (reg_…) or a legacy registration reference');

export const MaintenanceStatusInput = z.strictObject({
  registration_id: RegistrationFilter.optional().describe('A registrationId or legacy reference'),
  repo: RepoId.optional().describe('OWNER/NAME, an alias or HOST/OWNER/NAME'),
});
export type MaintenanceStatusFilter = z.infer<typeof MaintenanceStatusInput>;

/**
 * The same sanitized shapes as `Maintenance.List` and `Conflicts.List`. Strict, so a field the
 * contract does not declare (a path, a snapshot) fails validation instead of reaching an agent.
 */
export const MaintenanceStatusOutput = z.strictObject({
  registry: methods['Maintenance.List'].result.shape.registry,
  registrations: z.array(RegistrationStatus),
  conflicts: z.array(ConflictView),
  retired: z.number().int(),
  activeWriters: z.number().int(),
});
export type MaintenanceStatus = z.infer<typeof MaintenanceStatusOutput>;

function registrationMatches(r: RegistrationStatus, filter: MaintenanceStatusFilter): boolean {
  if (filter.registration_id !== undefined && r.registrationId !== filter.registration_id && !r.legacyIds.includes(filter.registration_id)) return false;
  return filter.repo === undefined || repoMatches(filter.repo, [r.canonicalRepoId, ...r.aliases]);
}

function conflictMatches(c: ConflictView, filter: MaintenanceStatusFilter): boolean {
  const members = c.candidates.flatMap((k) => k.members);
  if (filter.registration_id !== undefined) {
    const id = filter.registration_id;
    const named = c.legacyIds.includes(id) || members.some((m) => m.registrationId === id || m.legacyId === id || m.legacyIds.includes(id));
    if (!named) return false;
  }
  if (filter.repo === undefined) return true;
  return repoMatches(filter.repo, [c.canonicalRepoId, ...c.aliases, ...members.flatMap((m) => [m.canonicalRepoId, ...m.aliases])]);
}

/** Narrows a status to the registrations and conflicts a filter names; registry-wide counts stay. */
export function filterStatus(status: MaintenanceStatus, filter: MaintenanceStatusFilter): MaintenanceStatus {
  return {
    ...status,
    registrations: status.registrations.filter((r) => registrationMatches(r, filter)),
    conflicts: status.conflicts.filter((c) => conflictMatches(c, filter)),
  };
}

/**
 * How a person adds the first repository, said where an agent finds none maintained (maintenance_status,
 * search_repository): the repository tools are listed all the same, since MCP clients keep the list
 * they were first given.
 */
export const ADD_A_REPOSITORY =
  'A person adds one with `steward maintenance enable --repo OWNER/NAME`; maintenance_plan shows what that would do, and enable_cache_maintenance applies a plan that needs no person.';

/** What an agent does next with a repository in this state: search it, wait, or ask a person. */
function nextStep(r: RegistrationStatus): string {
  const failing = [r.stages.sync, r.stages.rag].find((stage) => stage.errorClass !== null)?.errorClass;
  if (r.state === 'disabled') return `Steward does not sync it${r.disabledReason ? ` (${reasonWords(r.disabledReason)})` : ''} until a person turns it back on.`;
  if (failing && (r.state === 'blocked' || r.state === 'degraded' || r.state === 'waiting')) return `${failureWords(failing, r.forge)}; Steward retries on its own.`;
  if (r.state === 'waiting' && r.waiting) return r.waiting.reason === 'token_missing' ? `${failureWords('token_missing', r.forge)}.` : `${reasonWords(r.waiting.reason)}; Steward retries on its own.`;
  if (r.state === 'degraded' || r.state === 'blocked') return `${r.degraded.map(reasonWords).join(', ') || 'something stops its sync'}; a person looks at it in the panel.`;
  if (r.state === 'pending') return 'its first sync has not run yet (it runs while Steward runs); search_repository finds nothing in it until then.';
  if (r.state === 'backfilling') return 'search it with search_repository: recent items are in, older history is still arriving.';
  return 'search it with search_repository.';
}

/** The status in plain words: how many repositories, each one's state and what to do next. The fields are in structuredContent. */
function summary(status: MaintenanceStatus, maintained: number, filtered: boolean): string {
  const { registry } = status;
  if (registry.state === 'degraded') {
    return `Steward cannot read its list of maintained repositories (${registry.reason ?? 'unknown'}); it leaves the list untouched and keeps no repository up to date until a person repairs it.`;
  }
  if (maintained === 0 && status.conflicts.length === 0) return filtered ? 'Steward maintains no repository yet.' : `Steward maintains no repository yet. ${ADD_A_REPOSITORY}`;
  const lines = [`Steward maintains ${countOf(maintained, 'repository', 'repositories')}.`];
  if (filtered && status.registrations.length === 0 && status.conflicts.length === 0) lines.push('None of them matches that filter.');
  for (const r of status.registrations) {
    lines.push(`- ${r.canonicalRepoId} (${r.registrationId}): ${(STATE_LABELS[r.state] ?? r.state).toLowerCase()}; ${nextStep(r)}`);
  }
  for (const c of status.conflicts) {
    lines.push(
      `- Conflict ${c.conflictId}: ${countOf(c.candidates.length, 'cache')} claim ${c.canonicalRepoId ?? 'one repository'}; a person picks one with \`steward maintenance resolve --conflict ${c.conflictId} --candidate ID\`.`,
    );
  }
  return lines.join('\n');
}

/** `maintenance_status`: spec 004's read-only status for agents, with no path in or out. */
export function registerMaintenanceTools(server: McpServer, withClient: WithClient): void {
  defineTool(
    server,
    'maintenance_status',
    {
      title: 'Repository cache status',
      description:
        "The repository caches (issues, pull requests, wiki, documents) Steward syncs and indexes, each with registrationId, policy, state, failures and next retry, frontiers (enrolled is not history-complete); open cache conflicts. Cache paths are never shown.",
      inputSchema: MaintenanceStatusInput,
      annotations: READ_ONLY,
    },
    checkedAnswer('maintenance_status', MaintenanceStatusOutput, async (filter) =>
      withClient(async (client) => {
        const listed = await client.call('Maintenance.List', {});
        // A degraded registry refuses Conflicts.List; its typed state is the whole answer then.
        const conflicts = listed.registry.state === 'degraded' ? [] : (await client.call('Conflicts.List', {})).conflicts;
        const { registry, registrations, retired, activeWriters } = listed;
        const status = filterStatus(MaintenanceStatusOutput.parse({ registry, registrations, conflicts, retired, activeWriters }), filter);
        const filtered = filter.registration_id !== undefined || filter.repo !== undefined;
        // The sentence alone: the whole status is the structured content, not repeated as text.
        return { content: [{ type: 'text' as const, text: summary(status, registrations.length, filtered) }], structuredContent: status };
      })),
  );
}
