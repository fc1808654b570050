import type { Command } from 'commander';
import { failureWords, FORGE_KINDS, MAINTENANCE_PROTOCOL, setupAppliedJson, setupPlanJson, StewardError, isErrorCode, type ForgeKind, type SetupApplied, type SetupPlan, type SetupRequest, type StewardClient } from '../../api/index.js';
import { withClient } from '../connect.js';
import { launchOwner, runningOwner } from '../launch.js';
import { EXIT, printJson, UsageError, type CliIo, type Run } from '../output.js';
import { formatOption, isJson, policyOf } from './maintenance-options.js';

/** The flags `plan`, `enable` and `rag enable` share: `add`'s repository flags, the policy, and what the plan may include. */
export interface SetupOptions {
  repo?: string;
  registration?: string;
  forge?: string;
  baseUrl?: string;
  sync?: string;
  collections?: string;
  rag?: string;
  profile?: string;
  serviceInstall?: boolean;
  modelDownload?: boolean;
  format?: string;
  json?: boolean;
}

export interface EnableOptions extends SetupOptions {
  yes?: boolean;
  idempotencyKey?: string;
  planId?: string;
  detach?: boolean;
}

export function setupRequestOf(given: SetupOptions, defaults: { rag?: 'maintain' } = {}): SetupRequest {
  // A forge is one of fixed words, in any case (choiceOption's rule).
  const options = given.forge === undefined ? given : { ...given, forge: given.forge.toLowerCase() };
  if ((options.repo === undefined) === (options.registration === undefined)) throw new UsageError('name the repository with --repo OWNER/NAME, or an existing registration with --registration ID');
  if (options.forge !== undefined && !(FORGE_KINDS as readonly string[]).includes(options.forge)) throw new UsageError(`--forge must be ${FORGE_KINDS.join(', ')}`);
  if (options.registration !== undefined && (options.forge !== undefined || options.baseUrl !== undefined)) throw new UsageError('--forge and --base-url name a repository; a registration already knows its forge');
  const policy = policyOf({ ...options, rag: options.rag ?? defaults.rag });
  return {
    ...(options.repo !== undefined ? { repo: options.repo } : {}),
    ...(options.registration !== undefined ? { registrationId: options.registration } : {}),
    ...(options.forge !== undefined ? { forge: options.forge as ForgeKind } : {}),
    ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
    ...(Object.keys(policy).length > 0 ? { policy } : {}),
    ...(options.serviceInstall === false ? { serviceInstall: false } : {}),
    ...(options.modelDownload === false ? { modelDownload: false } : {}),
  };
}

const CLASS_WORDS: Record<SetupPlan['effects'][number]['class'], string> = {
  inspect: 'check',
  local_config_write: 'configuration',
  local_service_change: 'service',
  large_download: 'download',
  provider_data_transfer: 'data transfer',
  job_enqueue: 'jobs',
};

const STATUS_WORDS: Record<SetupPlan['status'], string> = {
  ready: 'ready',
  refreshing: 'refreshing recent changes',
  indexing: 'indexing',
  backfilling: 'backfilling history',
  confirmation_required: 'needs your confirmation',
  blocked: 'blocked',
};

/** A plan in a terminal: what it would do by class, in sentences; a person-only effect is marked. */
export function formatPlan(plan: SetupPlan): string {
  const width = Math.max(...plan.effects.map((e) => CLASS_WORDS[e.class].length));
  const lines = [`Plan ${plan.planId} for ${plan.repo} (${plan.action}): ${STATUS_WORDS[plan.status]}`];
  for (const e of plan.effects) lines.push(`  ${CLASS_WORDS[e.class].padEnd(width)}  ${e.needsPerson ? '* ' : ''}${e.description}`);
  lines.push(`Profile ${plan.profile.name} (${plan.profile.provider}, ${plan.profile.model}): data boundary ${plan.dataBoundary}; configuration ${plan.configHash.slice(0, 16)}`);
  if (plan.effects.some((e) => e.needsPerson)) lines.push('* only a person may confirm this');
  if (plan.blocker) lines.push(`Blocked (${plan.blocker.code}): ${plan.blocker.message}`, `  ${plan.blocker.remediation}`);
  return `${lines.join('\n')}\n`;
}

const HISTORY_WORDS: Record<SetupApplied['history'], string> = {
  complete: 'every backfill reached its end',
  backfilling: 'older history is still being read in the background; the cache is not complete yet',
  recent_only: 'recent changes only, by its policy',
  not_synced: 'nothing synced yet',
};

export function formatApplied(applied: SetupApplied): string {
  const e = applied.enrollment;
  const what = e.replayed ? 'replayed (nothing done twice)' : e.created ? 'created the cache and its registration' : e.updated ? 'updated the registration in place' : 'kept the registration as it was';
  const lines = [`Applied ${applied.planId}: ${what} ${applied.registrationId} for ${applied.repo}.`];
  if (applied.serviceInstalled) lines.push('Start at login is on (`steward service uninstall` turns it off).');
  if (applied.modelDownloaded) lines.push('The model was downloaded.');
  if (applied.smoke) lines.push(`The embedding test request answered (${applied.smoke.provider}, ${applied.smoke.dimensions} dimensions).`);
  if (applied.detached) lines.push('The first pass runs in the background (`steward service maintenance` shows it).');
  else if (applied.jobs.length > 0) lines.push(`First pass: ${applied.jobs.map((j) => `${j.stage}/${j.lane} ${j.state}${j.coalesced ? ' (joined running work)' : ''}`).join(', ')}.`);
  const failed = firstPassFailures(applied);
  if (failed.length > 0) lines.push(`The plan was applied and the registration is kept, but its first pass failed: ${failed.join('; ')}.`);
  lines.push(`Status: ${STATUS_WORDS[applied.status]}; ${HISTORY_WORDS[applied.history]}.`);
  return `${lines.join('\n')}\n`;
}

/** Why each first-pass job that failed did, in the status line's words (its job's class, else its stage's). */
export function firstPassFailures(applied: SetupApplied): string[] {
  if (applied.detached) return [];
  const reasons = applied.jobs
    .filter((j) => j.state === 'failed')
    .map((j) => applied.registration.jobs.find((k) => k.jobId === j.jobId)?.errorClass ?? applied.registration.stages[j.stage].errorClass ?? 'internal')
    .map((errorClass) => failureWords(errorClass, applied.registration.forge));
  return [...new Set(reasons)];
}

async function planVerb(io: CliIo, options: SetupOptions, defaults: { rag?: 'maintain' }): Promise<number> {
  const format = formatOption(options.format, options.json);
  const request = setupRequestOf(options, defaults);
  // Planning changes nothing: with no owner running, the plan comes from what exists, without setting up a home.
  const { planHere } = await import('../plan-here.js');
  const plan = (await planHere(io.env)(request)) ?? (await withClient(io, (c) => c.call('Maintenance.Plan', request)));
  if (format === 'json') printJson(io, setupPlanJson(plan));
  else io.stdout(`${formatPlan(plan)}${plan.status === 'blocked' ? '' : 'Apply it with `steward maintenance enable` and the same flags (--yes --idempotency-key KEY where nobody can answer).\n'}`);
  return EXIT.ok;
}

function blockedError(plan: SetupPlan): StewardError {
  const b = plan.blocker!;
  return new StewardError(isErrorCode(b.code) ? b.code : 'internal', b.message, { remediation: b.remediation });
}

/** Asks the person in a terminal; elsewhere a confirmation must come as --yes with a key. */
async function confirmOrRefuse(io: CliIo, plan: SetupPlan, options: EnableOptions): Promise<{ key: string } | null> {
  if (options.yes) return { key: options.idempotencyKey! };
  if (!io.confirm || !(io.interactive?.() ?? false)) {
    throw new StewardError('confirmation_required', 'Nobody can confirm the plan here: pass --yes --idempotency-key KEY to confirm it (and reuse the key on retry).', {
      handoff: plan.handoff,
    });
  }
  if (!(await io.confirm('Apply this plan?'))) return null;
  // The key is derived from the exact plan confirmed, so running the same confirmation again replays it.
  return { key: options.idempotencyKey ?? (await import('../../maintenance/index.js')).operationKeyOf(plan.planId) };
}

/**
 * Applies the confirmed plan, by its id, on the owner. The owner renders the plan again and refuses
 * (stale_plan) unless it is the same plan; a plan that said it would start Steward stays that plan
 * once `enable` started it, so the id shown is the id applied.
 */
async function applyOnOwner(client: StewardClient, request: SetupRequest, confirmed: SetupPlan, key: string, options: EnableOptions): Promise<SetupApplied> {
  const info = await client.call('App.Info', {});
  if (!((info.maintenanceProtocol ?? 1) >= MAINTENANCE_PROTOCOL)) {
    throw new StewardError('unsupported', `The running Steward (${info.version}) does not apply maintenance plans; stop it (\`steward stop\`) and run this command again to start the current one.`);
  }
  return client.call('Maintenance.Apply', { ...request, planId: confirmed.planId, idempotencyKey: key, confirmedBy: 'person', ...(options.detach ? { detach: true } : {}) });
}

/** Starts the owner the confirmed plan said it would start, and says so in one line (on stderr where stdout is JSON). */
async function startInBackground(io: CliIo, format: 'text' | 'json'): Promise<void> {
  await (io.launchOwner ?? launchOwner)(io.env);
  const pid = (await runningOwner(io.env))?.pid;
  const line = `Started Steward in the background${pid !== undefined ? ` (pid ${pid})` : ''}; it keeps the cache current after this command ends, and \`steward stop\` stops it.\n`;
  if (format === 'json') io.stderr(line);
  else io.stdout(line);
}

async function enableVerb(io: CliIo, options: EnableOptions, defaults: { rag?: 'maintain' }): Promise<number> {
  const format = formatOption(options.format, options.json);
  if (options.yes && !options.idempotencyKey) throw new UsageError('--yes needs --idempotency-key KEY (reuse the key on retry)');
  const request = setupRequestOf(options, defaults);
  // With no owner running the plan is read from what exists (nothing is set up before a yes); the owner started for it applies it.
  const here = await (await import('../plan-here.js')).planHere(io.env)(request);
  const { plan, via } = here ? { plan: here, via: 'in-process' as const } : await withClient(io, async (c, via) => ({ plan: await c.call('Maintenance.Plan', request), via }));
  if (format === 'text') io.stdout(formatPlan(plan));
  if (options.planId !== undefined && options.planId !== plan.planId) {
    throw new StewardError('stale_plan', 'The plan changed after it was shown (identity, binding, configuration, provider, service state or policy); nothing was applied. Plan again.', { planId: plan.planId });
  }
  if (plan.blocker) throw blockedError(plan);
  const confirmation = await confirmOrRefuse(io, plan, options);
  if (!confirmation) {
    if (format === 'json') printJson(io, { plan: setupPlanJson(plan), applied: false });
    else io.stdout('Not applied.\n');
    return EXIT.ok;
  }
  const started = via === 'in-process';
  if (started) await startInBackground(io, format);
  const applied = await withClient(io, async (client, reached) => {
    if (reached !== 'owner') throw new StewardError('internal', 'Steward is not running in the background; run `steward serve`, then this command again.');
    return applyOnOwner(client, request, plan, confirmation.key, options);
  });
  if (format === 'json') printJson(io, { plan: setupPlanJson(plan), applied: setupAppliedJson(applied), ...(started ? { started_in_background: true } : {}) });
  else io.stdout(formatApplied(applied));
  // Applied, but a first pass that failed (a refused token, a missing repository) is the person's to act on.
  return firstPassFailures(applied).length > 0 ? EXIT.failure : EXIT.ok;
}

function setupFlags(command: Command, repoRequired: boolean): Command {
  return command
    .option('--repo <owner/name>', repoRequired ? 'the repository on its forge' : 'the repository on its forge (or --registration)')
    .option('--registration <id>', 'an existing registration (its id, a legacy id or a unique alias)')
    .option('--forge <forge>', `${FORGE_KINDS.join('|')} (default github)`)
    .option('--base-url <url>', 'the API root (https://api.github.com, https://HOST/api/v3, https://HOST/api/v1, https://api.gitcode.com/api/v5)')
    .option('--sync <mode>', 'off|head|head-and-backfill (a new repository: head-and-backfill)')
    .option('--collections <list>', 'issues,issue-comments,wiki,pulls,pr-comments (a new repository: all the forge serves)')
    .option('--rag <mode>', 'off|maintain')
    .option('--profile <name>', 'embedding profile (from the configuration; `default` is built in)')
    .option('--no-service-install', 'leave start at login out of the plan')
    .option('--no-model-download', 'leave a model download out of the plan (a missing model then blocks it)')
    .option('--format <format>', 'text or json', 'text')
    .option('--json', 'alias of --format json');
}

function enableFlags(command: Command): Command {
  return command
    .option('--yes', 'confirm the rendered plan without asking (needs --idempotency-key)')
    .option('--idempotency-key <key>', 'operation key; reuse it on retry (a terminal derives one from the plan)')
    .option('--plan-id <id>', 'apply only if the plan is still this one (from `steward maintenance plan`)')
    .option('--detach', 'return once enrolled; the first pass goes on in the background');
}

/** `steward maintenance plan` and `steward maintenance enable`: spec 004's setup surface. */
export function registerSetup(maintenance: Command, io: CliIo, run: Run): void {
  setupFlags(maintenance.command('plan').description('show what maintaining a repository (or changing its policy) would do, by class of effect; changes nothing'), false).action(
    (options: SetupOptions) => run(() => planVerb(io, options, {}), isJson(options)),
  );
  enableFlags(setupFlags(maintenance.command('enable').description('plan, confirm and apply: create or change maintenance of a repository (starts Steward in the background when it is not running)'), false)).action(
    (options: EnableOptions) => run(() => enableVerb(io, options, {}), isJson(options)),
  );
}

/** `steward rag enable`: the compatibility shortcut for `maintenance enable` with search indexing on. */
export function registerRag(program: Command, io: CliIo, run: Run): void {
  const rag = program.command('rag').description('retrieval (search) indexing of repository caches');
  enableFlags(setupFlags(rag.command('enable').description('maintain a repository with search indexing on (`maintenance enable --rag maintain`)'), false)).action((options: EnableOptions) =>
    run(() => enableVerb(io, options, { rag: 'maintain' }), isJson(options)),
  );
}
