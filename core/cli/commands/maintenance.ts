import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { countOf, FORGE_KINDS, StewardError, type ConflictView, type ForgeKind, type Result } from '../../api/index.js';
import { withClient } from '../connect.js';
import { EXIT, printJson, UsageError, type CliIo, type Run } from '../output.js';
import { collect, documentSourcesOf, formatOption, isJson, policyOf } from './maintenance-options.js';
import { registerSetup } from './setup.js';
import { registerRepositorySearch } from './repository-search.js';
import { registrationLines } from './service.js';

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

/** `add` and `enroll` take local document folders (repeatable); the paths are resolved and checked here. */
const DOCS_OPTION = ['--docs <folder>', 'a local folder of documents to keep in the cache (inside a git work tree; repeatable)', collect, [] as string[]] as const;
const DOCS_GIT_OPTION = ['--docs-git <repo[@ref]>', "a local git repository's committed documents at a ref (default: its current branch; repeatable)", collect, [] as string[]] as const;

/** How many document folders a request carried: a count, never a path (the paths stay private). */
function documentsLine(count: number): string {
  return count === 0 ? '' : `Added ${countOf(count, 'document folder')} (read again on each sync).\n`;
}

function registerMaintenanceVerbs(program: Command, io: CliIo, run: Run): void {
  const maintenance = program.command('maintenance').description('repository cache maintenance: plan and enable, enrollment, conflicts, lifecycle');

  maintenance
    .command('add')
    .description('create a repository cache in STEWARD_HOME/caches/ for one forge repository and enroll it')
    .requiredOption('--repo <owner/name>', 'the repository on its forge')
    .requiredOption('--idempotency-key <key>', 'operation key; reuse it on retry')
    .option('--forge <forge>', 'github|gitea|gitcode', 'github')
    .option('--base-url <url>', 'the API root (https://api.github.com, https://HOST/api/v3, https://HOST/api/v1, https://api.gitcode.com/api/v5)')
    .option('--sync <mode>', 'off|head|head-and-backfill (default head-and-backfill)')
    .option('--collections <list>', 'issues,issue-comments,wiki,pulls,pr-comments (default: all the forge serves)')
    .option('--rag <mode>', 'off|maintain')
    .option('--profile <name>', 'embedding profile')
    .option(...DOCS_OPTION)
    .option(...DOCS_GIT_OPTION)
    .option('--format <format>', 'text or json', 'text')
    .option('--json', 'alias of --format json')
    .action((given: { repo: string; idempotencyKey: string; forge: string; baseUrl?: string; sync?: string; collections?: string; rag?: string; profile?: string; docs: string[]; docsGit: string[]; format?: string; json?: boolean }) =>
      run(async () => {
        // A forge is one of fixed words, in any case (choiceOption's rule).
        const options = { ...given, forge: given.forge.toLowerCase() };
        const format = formatOption(options.format, options.json);
        if (!(FORGE_KINDS as readonly string[]).includes(options.forge)) throw new UsageError(`--forge must be ${FORGE_KINDS.join(', ')}`);
        const policy = policyOf(options);
        const sources = await documentSourcesOf(options);
        const result = await withClient(io, (c) =>
          c.call('Maintenance.Add', {
            repo: options.repo,
            forge: options.forge as ForgeKind,
            ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
            policy,
            ...(sources.length > 0 ? { sources } : {}),
            idempotencyKey: options.idempotencyKey,
          }),
        );
        if (format === 'json') printJson(io, result);
        else
          io.stdout(
            `${result.replayed ? 'replayed' : result.cacheCreated ? 'created and enrolled' : 'enrolled'} ${result.registrationId}  ${result.canonicalRepoId}  cache ${result.cacheUuid}\n` +
              documentsLine(sources.length) +
              'The first sync runs on the next reconciliation (`steward service reconcile` runs one now).\n',
          );
        return EXIT.ok;
      }, isJson(given)),
    );

  maintenance
    .command('conflicts')
    .description('list cache identity conflicts with their public-safe candidate evidence')
    .option('--format <format>', 'text or json', 'text')
    .option('--json', 'alias of --format json')
    .action((options: { format?: string; json?: boolean }) =>
      run(async () => {
        const format = formatOption(options.format, options.json);
        const { conflicts } = await withClient(io, (c) => c.call('Conflicts.List', {}));
        if (format === 'json') printJson(io, { conflicts });
        else io.stdout(formatConflicts(conflicts));
        return EXIT.ok;
      }, isJson(options)),
    );

  maintenance
    .command('resolve')
    .description('resolve a conflict with an explicit candidate (plan, then apply when confirmed)')
    .requiredOption('--conflict <id>', 'conflict id')
    .requiredOption('--candidate <id>', 'candidate id')
    .option('--yes', 'confirm the rendered plan')
    .option('--idempotency-key <key>', 'operation key; reuse it on retry')
    .option('--format <format>', 'text or json', 'text')
    .option('--json', 'alias of --format json')
    .action((options: { conflict: string; candidate: string; yes?: boolean; idempotencyKey?: string; format?: string; json?: boolean }) =>
      run(async () => {
        const format = formatOption(options.format, options.json);
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
      }, isJson(options)),
    );

  maintenance
    .command('enroll')
    .description('register an existing repository cache file for maintenance')
    .requiredOption('--cache <path>', 'the repository cache file')
    .requiredOption('--repo <owner/name>', 'the repository (OWNER/NAME or HOST/OWNER/NAME), resolved through the cache binding')
    .requiredOption('--idempotency-key <key>', 'operation key; reuse it on retry')
    .option('--sync <mode>', 'off|head|head-and-backfill')
    .option('--collections <list>', 'issues,issue-comments,wiki,pulls,pr-comments')
    .option('--rag <mode>', 'off|maintain')
    .option('--profile <name>', 'embedding profile')
    .option('--config <file>', 'the non-secret effective configuration snapshot (JSON)')
    .option(...DOCS_OPTION)
    .option(...DOCS_GIT_OPTION)
    .option('--format <format>', 'text or json', 'text')
    .option('--json', 'alias of --format json')
    .action((options: { cache: string; repo: string; idempotencyKey: string; sync?: string; rag?: string; profile?: string; collections?: string; config?: string; docs: string[]; docsGit: string[]; format?: string; json?: boolean }) =>
      run(async () => {
        const format = formatOption(options.format, options.json);
        const policy = policyOf(options);
        const config = options.config ? readSnapshot(options.config) : undefined;
        const sources = await documentSourcesOf(options);
        const result = await withClient(io, (c) =>
          c.call('Maintenance.Enroll', {
            cachePath: resolve(options.cache),
            repo: options.repo,
            policy,
            ...(config ? { config } : {}),
            ...(sources.length > 0 ? { sources } : {}),
            idempotencyKey: options.idempotencyKey,
          }),
        );
        if (format === 'json') printJson(io, result);
        else
          io.stdout(
            `${result.replayed ? 'replayed' : result.created ? 'enrolled' : 'updated'} ${result.registrationId}  ${result.canonicalRepoId}  cache ${result.cacheUuid}  path ${result.pathFingerprint}\n` +
              documentsLine(sources.length),
          );
        return EXIT.ok;
      }, isJson(options)),
    );

  maintenance
    .command('resolve-config')
    .description('validate a configuration snapshot; prints only its hash and the selected RAG identifiers')
    .requiredOption('--config <file>', 'the snapshot (JSON)')
    .option('--format <format>', 'text or json', 'text')
    .option('--json', 'alias of --format json')
    .action((options: { config: string; format?: string; json?: boolean }) =>
      run(async () => {
        const format = formatOption(options.format, options.json);
        const config = readSnapshot(options.config);
        const result = await withClient(io, (c) => c.call('Maintenance.ResolveConfig', { config }));
        if (format === 'json') printJson(io, result);
        else io.stdout(`config ${result.configHash}\nrag profile=${result.rag.profile} namespace=${result.rag.namespace} provider=${result.rag.embeddingProvider} model=${result.rag.model}\n`);
        return EXIT.ok;
      }, isJson(options)),
    );

  for (const verb of ['disable', 'resume'] as const) {
    maintenance
      .command(verb)
      .description(verb === 'disable' ? 'stop scheduling a registration (the cache is not touched)' : 'resume a registration disabled by an operator (`disable` undone)')
      .requiredOption('--registration <id>', 'registration id, legacy id or a unique alias (OWNER/NAME)')
      .option('--format <format>', 'text or json', 'text')
      .option('--json', 'alias of --format json')
      .action((options: { registration: string; format?: string; json?: boolean }) =>
        run(async () => {
          const format = formatOption(options.format, options.json);
          const method = verb === 'disable' ? 'Maintenance.Disable' : 'Maintenance.Enable';
          const { registration } = await withClient(io, (c) => c.call(method, { registrationId: options.registration }));
          if (format === 'json') printJson(io, { registration });
          else io.stdout(`${registrationLines(registration).join('\n')}\n`);
          return EXIT.ok;
        }, isJson(options)),
      );
  }
}

/** What `maintenance remove` will do (or did), in words; never a cache path. */
function removalLines(r: Result<'Maintenance.Remove'>): string {
  const cache = r.cache === 'deleted' ? 'the cache file Steward created is deleted' : 'its cache file is kept';
  if (!r.removed) return `Stop maintaining ${r.canonicalRepoId} (${r.registrationId}): it leaves status and is no longer synced; ${cache}.\n`;
  return `${r.replayed ? 'replayed: ' : ''}stopped maintaining ${r.canonicalRepoId} (${r.registrationId}); cache ${r.cache}.\n`;
}

function registerRemove(maintenance: Command, io: CliIo, run: Run): void {
  maintenance
    .command('remove')
    .description('stop maintaining a repository for good: it leaves status and Needs-you (the cache is kept unless --delete-cache)')
    .requiredOption('--registration <id>', 'registration id, legacy id, a unique alias or OWNER/NAME')
    .option('--delete-cache', 'also delete the cache file, only when Steward created it in STEWARD_HOME/caches/')
    .option('--yes', 'confirm without asking')
    .option('--idempotency-key <key>', 'operation key; reuse it on retry')
    .option('--format <format>', 'text or json', 'text')
    .option('--json', 'alias of --format json')
    .action((options: { registration: string; deleteCache?: boolean; yes?: boolean; idempotencyKey?: string; format?: string; json?: boolean }) =>
      run(async () => {
        const format = formatOption(options.format, options.json);
        const request = { registrationId: options.registration, ...(options.deleteCache ? { deleteCache: true } : {}) };
        return withClient(io, async (client) => {
          // The same checks as the removal itself (unknown id, a cache Steward did not create), before asking.
          const plan = await client.call('Maintenance.Remove', { ...request, dryRun: true });
          if (!options.yes) {
            if (!io.confirm || !(io.interactive?.() ?? false)) {
              throw new StewardError('confirmation_required', `Nobody can confirm here: pass --yes to stop maintaining ${plan.canonicalRepoId}.`, { registrationId: plan.registrationId });
            }
            io.stderr(removalLines(plan));
            if (!(await io.confirm('Stop maintaining it?'))) {
              if (format === 'json') printJson(io, { plan, removed: null });
              else io.stdout('Nothing was changed.\n');
              return EXIT.ok;
            }
          }
          const removed = await client.call('Maintenance.Remove', { ...request, ...(options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {}) });
          if (format === 'json') printJson(io, { plan, removed });
          else io.stdout(removalLines(removed));
          return EXIT.ok;
        });
      }, isJson(options)),
    );
}

export function registerMaintenance(program: Command, io: CliIo, run: Run): void {
  registerMaintenanceVerbs(program, io, run);
  registerRemove(program.commands.find((c) => c.name() === 'maintenance')!, io, run);
  registerSetup(program.commands.find((c) => c.name() === 'maintenance')!, io, run);
  registerRepositorySearch(program.commands.find((c) => c.name() === 'maintenance')!, io, run);
}
