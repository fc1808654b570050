import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import {
  COLLECTIONS,
  DATA_BOUNDARIES,
  EFFECT_CLASSES,
  FORGE_KINDS,
  HttpUrl,
  IdempotencyKey,
  namedFor,
  RAG_MODES,
  SETUP_STATUSES,
  setupAppliedJson,
  setupPlanJson,
  StewardError,
  SYNC_MODES,
  type SetupPlan,
  type SetupRequest,
} from '../api/index.js';
import { checkedAnswer } from './answers.js';
import type { WithClient } from './projects.js';
import { defineTool, READ_ONLY } from './tools.js';

/** Answers a plan without an owner, read-only, or undefined when an owner runs (then the owner answers). */
export type PlanHere = (request: SetupRequest) => Promise<SetupPlan | undefined>;

/** A repository is named, never a path; the cache the MCP process serves is implicit. */
const Target = {
  repo: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}\/[A-Za-z0-9._-]{1,100}$/, 'expected OWNER/NAME').optional(),
  forge: z.enum(FORGE_KINDS).optional(),
  base_url: HttpUrl.max(2_000).optional(),
  registration_id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9:._@+-]{0,199}$/).optional(),
  sync: z.enum(SYNC_MODES).optional(),
  collections: z.array(z.enum(COLLECTIONS)).max(COLLECTIONS.length).optional(),
  rag: z.enum(RAG_MODES).optional(),
  profile: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/).optional(),
  service_install: z.boolean().optional(),
  model_download: z.boolean().optional(),
};

/**
 * What each of Target's arguments means, said once, in maintenance_plan: enable_cache_maintenance takes
 * the plan's own arguments back, and tools/list is paid for in every agent session (tools-list-budget).
 * An argument its name and type say in full (collections, an enum of them) is left without words.
 */
const TARGET_WORDS: Partial<Record<keyof typeof Target, { description?: string; default?: string }>> = {
  repo: { description: 'OWNER/NAME (or registration_id)' },
  forge: { default: 'github' },
  base_url: { description: 'https API root of GitHub Enterprise, Gitea, Forgejo' },
  registration_id: { description: 'A registration to change' },
  sync: { description: 'head: recent changes; head-and-backfill: all history too' },
  rag: { description: 'maintain: keep a search index' },
  profile: { description: 'Embedding profile name' },
  service_install: { description: 'false: no start at login' },
  model_download: { description: 'false: none (a missing model then blocks)' },
};

const described = Object.fromEntries(
  Object.entries(Target).map(([name, schema]) => {
    const words = TARGET_WORDS[name as keyof typeof Target];
    return [name, words ? schema.meta(words) : schema];
  }),
) as typeof Target;

export const MaintenancePlanInput = z.strictObject(described);
export const EnableMaintenanceInput = z.strictObject({
  ...Target,
  plan_id: z.string().min(1).max(200),
  idempotency_key: IdempotencyKey.describe('Reuse only to retry the same request'),
  write_mode: z.literal('live'),
  wait_for_first_pass: z.boolean().optional().meta({ default: false }),
});

const Effect = z.strictObject({ class: z.enum(EFFECT_CLASSES), description: z.string(), needs_person: z.boolean() });
const Policy = z.strictObject({ sync: z.enum(SYNC_MODES), collections: z.array(z.string()), rag: z.enum(RAG_MODES), profile: z.string() });

export const MaintenancePlanOutput = z.strictObject({
  plan_id: z.string(),
  status: z.enum(SETUP_STATUSES),
  action: z.enum(['create', 'update', 'resume', 'none']),
  repo: z.string(),
  registration_id: z.string().nullable(),
  effects: z.array(Effect),
  config_hash: z.string(),
  data_boundary: z.enum(DATA_BOUNDARIES),
  policy: Policy,
  profile: z.strictObject({ name: z.string(), provider: z.string(), model: z.string(), data_boundary: z.enum(DATA_BOUNDARIES) }),
  blocker: z.strictObject({ code: z.string(), message: z.string(), remediation: z.string() }).nullable(),
  handoff: z.string(),
});

export const EnableMaintenanceOutput = z.strictObject({
  applied: z.boolean(),
  status: z.enum(SETUP_STATUSES),
  plan_id: z.string(),
  repo: z.string().optional(),
  registration_id: z.string().optional(),
  enrollment: z.strictObject({ completed: z.boolean(), created: z.boolean(), cache_created: z.boolean(), updated: z.boolean(), replayed: z.boolean() }).optional(),
  initial_jobs: z.array(z.strictObject({ job_id: z.string(), stage: z.string(), lane: z.string(), state: z.string(), coalesced: z.boolean() })).optional(),
  detached: z.boolean().optional(),
  history: z.enum(['complete', 'backfilling', 'recent_only', 'not_synced']).optional(),
  service_installed: z.boolean().optional(),
  model_downloaded: z.boolean().optional(),
  smoke: z.strictObject({ provider: z.string(), dimensions: z.number() }).nullable().optional(),
  registration_state: z.string().optional(),
  /** When a person must confirm: the exact command, and what only a person may confirm. */
  handoff: z.string().optional(),
  needs: z.array(z.string()).optional(),
});

/** A request field as this surface names it: the tool's own snake_case argument, when it takes one. */
function argumentOf(field: string): string | undefined {
  const name = field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  return name in EnableMaintenanceInput.shape ? name : undefined;
}

/** Any failure of the setup tools, a refused field said with the argument's name (namedFor). */
function inArgumentNames(error: unknown): unknown {
  return error instanceof StewardError ? namedFor(error, argumentOf) : error;
}

function requestOf(input: z.infer<typeof MaintenancePlanInput>): SetupRequest {
  const policy = {
    ...(input.sync ? { sync: input.sync } : {}),
    ...(input.collections ? { collections: input.collections } : {}),
    ...(input.rag ? { rag: input.rag } : {}),
    ...(input.profile ? { profile: input.profile } : {}),
  };
  return {
    ...(input.repo ? { repo: input.repo } : {}),
    ...(input.registration_id ? { registrationId: input.registration_id } : {}),
    ...(input.forge ? { forge: input.forge } : {}),
    ...(input.base_url ? { baseUrl: input.base_url } : {}),
    ...(Object.keys(policy).length > 0 ? { policy } : {}),
    ...(input.service_install === false ? { serviceInstall: false } : {}),
    ...(input.model_download === false ? { modelDownload: false } : {}),
  };
}

function planText(plan: z.infer<typeof MaintenancePlanOutput>): string {
  const lines = [`Plan ${plan.plan_id} for ${plan.repo} (${plan.action}): ${plan.status}; data boundary ${plan.data_boundary}.`];
  for (const e of plan.effects) lines.push(`- [${e.class}]${e.needs_person ? ' (a person must confirm)' : ''} ${e.description}`);
  if (plan.blocker) lines.push(`Blocked (${plan.blocker.code}): ${plan.blocker.message} ${plan.blocker.remediation}`);
  else if (plan.effects.some((e) => e.needs_person)) lines.push(`A person confirms this plan with: ${plan.handoff}`);
  else lines.push('Apply it with enable_cache_maintenance (write_mode "live", this plan_id and an idempotency key).');
  return lines.join('\n');
}

/**
 * `maintenance_plan` (read-only) and `enable_cache_maintenance` (write_mode=live): spec 004's setup
 * surface for agents. An agent may enroll and enqueue an already-ready setup; a service, a model
 * download or text sent off this machine comes back as confirmation_required with the exact command
 * a person runs (and the plan waits for that person in the panel).
 */
export function registerSetupTools(server: McpServer, withClient: WithClient, planHere?: PlanHere): void {
  defineTool(
    server,
    'maintenance_plan',
    {
      title: 'Plan cache maintenance',
      description:
        "What keeping a repository's cache synced and indexed, or changing a registration, would do, changing nothing: " +
        'plan_id, status, effects (needs_person: a person must confirm), data boundary, blocker and remedy, the command a person runs.',
      inputSchema: MaintenancePlanInput,
      annotations: READ_ONLY,
    },
    checkedAnswer('maintenance_plan', MaintenancePlanOutput, async (input) => {
      // Read-only: with no owner running, the plan comes from what exists, never from stores opened (and created) here.
      const request = requestOf(input);
      let rendered: SetupPlan;
      try {
        rendered = (await planHere?.(request)) ?? (await withClient((client) => client.call('Maintenance.Plan', request)));
      } catch (error) {
        throw inArgumentNames(error);
      }
      const plan = MaintenancePlanOutput.parse(setupPlanJson(rendered));
      return { content: [{ type: 'text' as const, text: planText(plan) }], structuredContent: plan };
    }),
  );
  defineTool(
    server,
    'enable_cache_maintenance',
    {
      title: 'Enable cache maintenance',
      description:
        "Applies a maintenance_plan plan (its arguments, described there, and plan_id): enrolls the repository, starts its first sync. " +
        'A plan needing a service or a model download answers confirmation_required and handoff, the command a person runs. stale_plan: plan again.',
      inputSchema: EnableMaintenanceInput,
      // Not read-only, MCP's default.
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    checkedAnswer('enable_cache_maintenance', EnableMaintenanceOutput, async (input) => {
      try {
        const applied = await withClient((client) =>
          client.call('Maintenance.Apply', { ...requestOf(input), planId: input.plan_id, idempotencyKey: input.idempotency_key, confirmedBy: 'agent', detach: input.wait_for_first_pass !== true }),
        );
        const out = EnableMaintenanceOutput.parse({ applied: true, ...setupAppliedJson(applied) });
        const text = `Enrolled ${out.repo} as ${out.registration_id}${out.enrollment?.replayed ? ' (replayed: nothing done twice)' : ''}; status ${out.status}; history ${out.history}.`;
        return { content: [{ type: 'text' as const, text }], structuredContent: out };
      } catch (error) {
        if (error instanceof StewardError && error.code === 'confirmation_required') {
          const handoff = typeof error.details?.handoff === 'string' ? error.details.handoff : '';
          const needs = Array.isArray(error.details?.needs) ? (error.details.needs as unknown[]).filter((n): n is string => typeof n === 'string') : [];
          const out = EnableMaintenanceOutput.parse({ applied: false, status: 'confirmation_required', plan_id: input.plan_id, handoff, needs });
          const text = `A person must confirm this plan (${needs.join(' ')}). Ask them to run: ${handoff}`;
          return { content: [{ type: 'text' as const, text }], structuredContent: out };
        }
        // Every other failure is said as every tool's is (server.ts), with its code and remedy.
        throw inArgumentNames(error);
      }
    }),
  );
}
