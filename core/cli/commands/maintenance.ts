import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { ConflictView, RegistrationStatus, Result } from '../../api/index.js';
import { withClient } from '../connect.js';
import { EXIT, printJson, UsageError, type CliIo, type Run } from '../output.js';
import { registerRepositorySearch } from './repository-search.js';

export function formatOption(value: string | undefined): 'text' | 'json' {
  if (value === undefined || value === 'text') return 'text';
  if (value === 'json') return 'json';
  throw new UsageError('--format must be text or json');
}

/** A configuration snapshot from a JSON file; the message never names the file (it may sit anywhere). */
function readSnapshot(file: string): Record<string, unknown> {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw new UsageError('--config must name a readable JSON file holding the configuration snapshot');
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new UsageError('--config must hold a JSON object');
  return raw as Record<string, unknown>;
}

export const when = (ms: number | null) => (ms === null ? '-' : new Date(ms).toISOString());

/** Text status: the same sanitized fields as JSON (fingerprints and hashes, never paths). */
export function formatStatus(status: Result<'Maintenance.List'>): string {
  const state = status.registry.state === 'missing' ? 'not created yet' : status.registry.state;
  const lines = [`registry: ${state}${status.registry.reason ? ` (${status.registry.reason})` : ''}, version ${status.registry.version}`];
  if (status.registrations.length === 0) lines.push('no registrations');
  for (const r of status.registrations) lines.push(...formatRegistration(r));
  for (const c of status.conflicts) lines.push(`conflict ${c.conflictId}  ${c.kind}  ${c.state}  ${c.candidates} candidates`);
  if (status.retired > 0) lines.push(`retired registrations: ${status.retired}`);
  return `${lines.join('\n')}\n`;
}

function formatRegistration(r: RegistrationStatus): string[] {
  const lines = [
    `${r.registrationId}  ${r.canonicalRepoId}  ${r.state}${r.disabledReason ? ` (${r.disabledReason})` : ''}`,
    `  cache ${r.cacheUuid}  path ${r.pathFingerprint}  config ${r.configHash.slice(0, 16)}`,
    `  policy sync=${r.policy.sync} rag=${r.policy.rag} profile=${r.policy.profile} collections=${r.policy.collections.join(',') || '-'}`,
  ];
  if (r.aliases.length > 0) lines.push(`  aliases ${r.aliases.join(', ')}`);
  if (r.legacyIds.length > 0) lines.push(`  legacy ${r.legacyIds.join(', ')}`);
  if (r.degraded.length > 0) lines.push(`  degraded ${r.degraded.join(', ')}`);
  lines.push(`  generations content=${r.generations.content ?? '-'} covered=${r.generations.covered ?? '-'}`);
  for (const f of r.frontiers) lines.push(`  frontier ${f.collection}/${f.lane} ${f.complete ? 'complete' : `next page ${f.nextPage ?? '-'}`}`);
  for (const stage of ['sync', 'rag'] as const) {
    const s = r.stages[stage];
    if (s.errorClass) lines.push(`  ${stage} failing: ${s.errorClass} x${s.failures}, next attempt ${when(s.nextAttemptAt)}`);
  }
  for (const j of r.jobs.slice(0, 3)) lines.push(`  job ${j.jobId} ${j.stage}/${j.lane} ${j.state}${j.errorClass ? ` ${j.errorClass}` : ''} ${when(j.startedAt)}`);
  return lines;
}

export function formatConflicts(conflicts: readonly ConflictView[]): string {
  if (conflicts.length === 0) return 'No open conflicts.\n';
  const lines: string[] = [];
  for (const c of conflicts) {
    lines.push(`conflict ${c.conflictId}  ${c.kind}  ${c.state}${c.cacheUuid ? `  cache ${c.cacheUuid}` : ''}${c.canonicalRepoId ? `  repo ${c.canonicalRepoId}` : ''}`);
    if (c.blockedReason) lines.push(`  blocked: ${c.blockedReason}`);
    if (c.aliases.length > 0) lines.push(`  aliases ${c.aliases.join(', ')}`);
    if (c.legacyIds.length > 0) lines.push(`  legacy ${c.legacyIds.join(', ')}`);
    for (const k of c.candidates) {
      lines.push(`  candidate ${k.candidateId}  path ${k.pathFingerprint ?? '-'}  previously ${k.priorEnabled ? 'enabled' : 'disabled'}`);
      for (const m of k.members) {
        const who = m.registrationId ?? m.legacyId ?? '-';
        lines.push(
          `    ${who}  repo ${m.canonicalRepoId ?? '-'}  policy ${m.policyHash ?? '-'}  config ${m.configHash?.slice(0, 16) ?? '-'}` +
            `${m.aliases.length ? `  aliases ${m.aliases.join(',')}` : ''}${m.sourceAuthorities.length ? `  sources ${m.sourceAuthorities.join(',')}` : ''}`,
        );
      }
    }
  }
  lines.push('Resolve with: steward maintenance resolve --conflict ID --candidate ID --yes --idempotency-key KEY');
  return `${lines.join('\n')}\n`;
}

function registerMaintenanceVerbs(program: Command, io: CliIo, run: Run): void {
  const maintenance = program.command('maintenance').description('repository cache maintenance: enrollment, conflicts, lifecycle');

  maintenance
    .command('conflicts')
    .description('list cache identity conflicts with their public-safe candidate evidence')
    .option('--format <format>', 'text or json', 'text')
    .action((options: { format?: string }) =>
      run(async () => {
        const format = formatOption(options.format);
        const { conflicts } = await withClient(io, (c) => c.call('Conflicts.List', {}));
        if (format === 'json') printJson(io, { conflicts });
        else io.stdout(formatConflicts(conflicts));
        return EXIT.ok;
      }, options.format === 'json'),
    );

  maintenance
    .command('resolve')
    .description('resolve a conflict with an explicit candidate (plan, then apply when confirmed)')
    .requiredOption('--conflict <id>', 'conflict id')
    .requiredOption('--candidate <id>', 'candidate id')
    .option('--yes', 'confirm the rendered plan')
    .option('--idempotency-key <key>', 'operation key; reuse it on retry')
    .option('--format <format>', 'text or json', 'text')
    .action((options: { conflict: string; candidate: string; yes?: boolean; idempotencyKey?: string; format?: string }) =>
      run(async () => {
        const format = formatOption(options.format);
        if (options.yes && !options.idempotencyKey) throw new UsageError('--yes needs --idempotency-key KEY (reuse the key on retry)');
        return withClient(io, async (client) => {
          const plan = await client.call('Conflicts.Plan', { conflictId: options.conflict, candidateId: options.candidate });
          if (!options.yes) {
            if (format === 'json') printJson(io, { plan, applied: false });
            else {
              io.stdout(`plan ${plan.planId} for ${plan.kind} ${plan.conflictId}\n${plan.note}\n`);
              for (const e of plan.effects) io.stdout(`  ${e.effect}  ${e.registrationId ?? e.legacyId ?? '-'}  ${e.canonicalRepoId ?? '-'}  path ${e.pathFingerprint ?? '-'}\n`);
              io.stdout('Not applied: add --yes --idempotency-key KEY to apply this plan.\n');
            }
            return EXIT.ok;
          }
          const applied = await client.call('Conflicts.Apply', { planId: plan.planId, idempotencyKey: options.idempotencyKey! });
          if (format === 'json') printJson(io, { plan, applied });
          else
            io.stdout(
              `resolved ${applied.conflictId}${applied.replayed ? ' (replayed)' : ''}: restored ${applied.restored.join(', ') || '-'}; retired ${applied.retired.join(', ') || '-'}` +
                `${applied.followUpConflicts.length ? `; follow-up conflicts ${applied.followUpConflicts.join(', ')}` : ''}\n`,
            );
          return EXIT.ok;
        });
      }, options.format === 'json'),
    );

  maintenance
    .command('enroll')
    .description('register an existing repository cache file for maintenance')
    .requiredOption('--cache <path>', 'the repository cache file')
    .requiredOption('--repo <owner/name>', 'the repository, resolved through the cache binding')
    .requiredOption('--idempotency-key <key>', 'operation key; reuse it on retry')
    .option('--sync <mode>', 'off|head|head-and-backfill')
    .option('--rag <mode>', 'off|maintain')
    .option('--profile <name>', 'embedding profile')
    .option('--config <file>', 'the non-secret effective configuration snapshot (JSON)')
    .option('--format <format>', 'text or json', 'text')
    .action((options: { cache: string; repo: string; idempotencyKey: string; sync?: string; rag?: string; profile?: string; config?: string; format?: string }) =>
      run(async () => {
        const format = formatOption(options.format);
        const policy = {
          ...(options.sync ? { sync: options.sync as 'off' | 'head' | 'head-and-backfill' } : {}),
          ...(options.rag ? { rag: options.rag as 'off' | 'maintain' } : {}),
          ...(options.profile ? { profile: options.profile } : {}),
        };
        const result = await withClient(io, (c) =>
          c.call('Maintenance.Enroll', {
            cachePath: resolve(options.cache),
            repo: options.repo,
            policy,
            ...(options.config ? { config: readSnapshot(options.config) } : {}),
            idempotencyKey: options.idempotencyKey,
          }),
        );
        if (format === 'json') printJson(io, result);
        else
          io.stdout(
            `${result.replayed ? 'replayed' : result.created ? 'enrolled' : 'updated'} ${result.registrationId}  ${result.canonicalRepoId}  cache ${result.cacheUuid}  path ${result.pathFingerprint}\n`,
          );
        return EXIT.ok;
      }, options.format === 'json'),
    );

  maintenance
    .command('resolve-config')
    .description('validate a configuration snapshot; prints only its hash and the selected RAG identifiers')
    .requiredOption('--config <file>', 'the snapshot (JSON)')
    .option('--format <format>', 'text or json', 'text')
    .action((options: { config: string; format?: string }) =>
      run(async () => {
        const format = formatOption(options.format);
        const config = readSnapshot(options.config);
        const result = await withClient(io, (c) => c.call('Maintenance.ResolveConfig', { config }));
        if (format === 'json') printJson(io, result);
        else io.stdout(`config ${result.configHash}\nrag profile=${result.rag.profile} namespace=${result.rag.namespace} provider=${result.rag.embeddingProvider} model=${result.rag.model}\n`);
        return EXIT.ok;
      }, options.format === 'json'),
    );

  for (const verb of ['disable', 'enable'] as const) {
    maintenance
      .command(verb)
      .description(verb === 'disable' ? 'stop scheduling a registration (the cache is not touched)' : 'resume a registration disabled by an operator')
      .requiredOption('--registration <id>', 'registration id, legacy id or a unique alias (OWNER/NAME)')
      .option('--format <format>', 'text or json', 'text')
      .action((options: { registration: string; format?: string }) =>
        run(async () => {
          const format = formatOption(options.format);
          const method = verb === 'disable' ? 'Maintenance.Disable' : 'Maintenance.Enable';
          const { registration } = await withClient(io, (c) => c.call(method, { registrationId: options.registration }));
          if (format === 'json') printJson(io, { registration });
          else io.stdout(`${formatRegistration(registration).join('\n')}\n`);
          return EXIT.ok;
        }, options.format === 'json'),
      );
  }
}

export function registerMaintenance(program: Command, io: CliIo, run: Run): void {
  registerMaintenanceVerbs(program, io, run);
  registerRepositorySearch(program.commands.find((c) => c.name() === 'maintenance')!, io, run);
}
