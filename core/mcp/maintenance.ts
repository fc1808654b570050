import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { ConflictView, countOf, methods, RegistrationStatus, RepoId, repoMatches } from '../api/index.js';
import { checkedAnswer } from './answers.js';
import type { WithClient } from './projects.js';
import { defineTool } from './tools.js';

const RegistrationFilter = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9:._@+-]{0,199}$/, 'expected a registration id (reg_…) or a legacy registration reference');

export const MaintenanceStatusInput = z.strictObject({
  registration_id: RegistrationFilter.optional().describe('Only this registration: its registrationId, or one of its legacy registration references'),
  repo: RepoId.optional().describe('Only caches of this repository: OWNER/NAME, an alias, or the canonical id (github.com/OWNER/NAME)'),
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

function summary(status: MaintenanceStatus, filtered: boolean): string {
  const { registry } = status;
  if (registry.state === 'degraded') {
    return `The maintenance registry is degraded (${registry.reason ?? 'unknown'}); Steward left it untouched and maintains nothing until it is repaired.`;
  }
  const lines = [`Maintenance registry: ${registry.state === 'missing' ? 'not created yet' : registry.state}; ${countOf(status.activeWriters, 'active writer')}, ${countOf(status.retired, 'retired registration')}.`];
  if (status.registrations.length === 0) {
    const none = status.conflicts.length > 0 ? 'No registration is active outside the conflicts below.' : `No repository cache is enrolled. ${ADD_A_REPOSITORY}`;
    lines.push(filtered ? 'No registration matches that filter.' : none);
  }
  for (const r of status.registrations) {
    const why = r.disabledReason ? ` (${r.disabledReason})` : r.degraded.length > 0 ? ` (${r.degraded.join(', ')})` : '';
    lines.push(`${r.registrationId} ${r.canonicalRepoId}: ${r.state}${why}; cache ${r.cacheUuid}, path fingerprint ${r.pathFingerprint}, content generation ${r.generations.content ?? '-'}`);
  }
  for (const c of status.conflicts) {
    lines.push(`Conflict ${c.conflictId} (${c.kind}, ${c.state}) with ${countOf(c.candidates.length, 'candidate')}; an operator resolves it with \`steward maintenance resolve --conflict ${c.conflictId} --candidate ID\`.`);
  }
  return lines.join('\n');
}

/** `maintenance_status`: spec 004's read-only status for agents, with no path in or out. */
export function registerMaintenanceTools(server: McpServer, withClient: WithClient): void {
  defineTool(
    server,
    'maintenance_status',
    {
      title: 'Repository cache maintenance status',
      description:
        'Read-only status of the repository caches (issues, pull requests, wiki, documents) Steward keeps synced and indexed: per registration its registrationId, repository, policy, state (ready, refreshing, indexing, backfilling, blocked, disabled, degraded), failures with their next retry, and frontiers (enrolled does not mean its history is complete: check them); also open cache identity conflicts. ' +
        'Filter with registration_id or repo; no arguments: everything. Changes nothing; a cache path is never shown, only a keyed fingerprint.',
      inputSchema: MaintenanceStatusInput,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    checkedAnswer('maintenance_status', MaintenanceStatusOutput, async (filter) =>
      withClient(async (client) => {
        const listed = await client.call('Maintenance.List', {});
        // A degraded registry refuses Conflicts.List; its typed state is the whole answer then.
        const conflicts = listed.registry.state === 'degraded' ? [] : (await client.call('Conflicts.List', {})).conflicts;
        const { registry, registrations, retired, activeWriters } = listed;
        const status = filterStatus(MaintenanceStatusOutput.parse({ registry, registrations, conflicts, retired, activeWriters }), filter);
        const filtered = filter.registration_id !== undefined || filter.repo !== undefined;
        return {
          content: [
            { type: 'text' as const, text: summary(status, filtered) },
            { type: 'text' as const, text: JSON.stringify(status) },
          ],
          structuredContent: status,
        };
      })),
  );
}
