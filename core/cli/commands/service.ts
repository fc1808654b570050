import type { Command } from 'commander';
import {
  collectionLabel,
  countOf,
  failureWords,
  frontierWords,
  generationWords,
  laneWords,
  policyWords,
  reasonWords,
  STATE_LABELS,
  type CollectionStatus,
  type JobStatus,
  type RegistrationStatus,
  type Result,
  type StartAtLoginView,
} from '../../api/index.js';
import { withClient } from '../connect.js';
import { EXIT, localTime, printJson, type CliIo, type Run } from '../output.js';
import { formatOption, isJson } from './maintenance-options.js';

const MECHANISM_WORDS: Record<StartAtLoginView['mechanism'], string> = { 'login-item': 'a login item', 'xdg-autostart': 'an autostart entry', none: 'nothing' };

/** What is now true about start at login, in one or two lines. */
export function formatStartAtLogin(view: StartAtLoginView): string {
  const what = view.launches === 'headless' ? 'headless `steward serve`' : 'the Steward app';
  const line = view.enabled ? `Steward starts when you log in (${what}, through ${MECHANISM_WORDS[view.mechanism]}).` : 'Steward does not start when you log in.';
  return `${line}
${view.message ? `${view.message}
` : ''}`;
}

function registerStartAtLogin(service: Command, io: CliIo, run: Run): void {
  for (const [verb, enabled, description] of [
    ['install', true, 'start Steward when you log in (the app when it answers this command, else headless `steward serve` on Linux)'],
    ['uninstall', false, 'stop starting Steward when you log in'],
  ] as const) {
    service
      .command(verb)
      .description(description)
      .option('--json', 'print JSON')
      .action((options: { json?: boolean }) =>
        run(async () => {
          const view = await withClient(io, (c) => c.call('Settings.SetStartAtLogin', { enabled }));
          if (options.json) printJson(io, view);
          else io.stdout(formatStartAtLogin(view));
          return EXIT.ok;
        }, options.json),
      );
  }
}

/*
 * `steward service maintenance` in text: the same sanitized facts as --format json (fingerprints and
 * hashes, never paths), said in the panel's words (maintenance-words.ts). What has not happened yet is
 * said so ("not started", "no content yet") or left out: never a "-" placeholder or key=value.
 */

/** A collection as the panel's table says it: items, recent changes, history, and what holds it. */
function collectionLine(c: CollectionStatus): string {
  const head = c.head.state === 'fresh' ? (c.head.freshAt !== null ? `fresh as of ${localTime(c.head.freshAt)}` : 'fresh') : c.head.state === 'catching-up' ? 'catching up' : c.head.state === 'never' ? 'not refreshed yet' : 'recent changes off';
  const tail =
    c.tail.state === 'complete'
      ? 'backfill complete'
      : c.tail.state === 'off'
        ? 'recent only'
        : c.tail.pagesDone === 0
          ? 'history not started'
          : `backfilling, ${c.tail.pagesDone}${c.tail.pagesKnown !== null ? ` of ${countOf(c.tail.pagesKnown, 'page')}` : ` ${c.tail.pagesDone === 1 ? 'page' : 'pages'} so far`}`;
  const extra = [c.tombstones > 0 ? `${c.tombstones} deleted` : '', c.skipped > 0 ? `${c.skipped} unreadable` : '', reasonWords(c.reason)].filter(Boolean).join(', ');
  return `  ${c.collection}: ${countOf(c.items, 'item')} · ${head} · ${tail}${extra ? ` · ${extra}` : ''}`;
}

const stageWords = (stage: 'sync' | 'rag') => (stage === 'rag' ? 'search index' : 'sync');

function jobLine(j: JobStatus): string {
  // The stage lines say a failure in words; a job names only its class, for matching them up.
  return `  job ${j.jobId}: ${stageWords(j.stage)} of ${laneWords(j.lane)} ${j.state}${j.errorClass ? ` [${j.errorClass}]` : ''}, started ${localTime(j.startedAt)}`;
}

/** Why a stage fails now, or, for a paused registration, why it last failed (nothing is retried now). */
function stageLines(r: RegistrationStatus): string[] {
  const lines: string[] = [];
  for (const stage of ['sync', 'rag'] as const) {
    const st = r.stages[stage];
    if (!st.errorClass) continue;
    const words = `${failureWords(st.errorClass, r.forge)} [${st.errorClass}]`;
    if (!r.enabled) lines.push(`  ${stage} last failed (before the pause): ${words}`);
    else lines.push(`  ${stage} failing ${countOf(st.failures, 'time')} in a row: ${words}, next attempt ${st.nextAttemptAt !== null ? localTime(st.nextAttemptAt) : 'on the next pass'}`);
  }
  return lines;
}

/** A registration in the status text's words (also what `maintenance disable` and `resume` print). */
export function registrationLines(r: RegistrationStatus): string[] {
  const blocked = r.disabledReason !== null && r.disabledReason !== 'operator' ? ` (${reasonWords(r.disabledReason)})` : '';
  const collections = r.policy.collections.length > 0 ? r.policy.collections.map(collectionLabel).join(', ') : 'no collections';
  const nextRun = r.nextRunAt !== null ? `next run ${localTime(r.nextRunAt)}` : r.enabled ? 'next run on the next pass' : 'nothing scheduled while paused';
  const w = r.waiting;
  return [
    `${r.registrationId}  ${r.canonicalRepoId}  ${STATE_LABELS[r.state] ?? r.state}${blocked}`,
    `  cache ${r.cacheUuid}  path ${r.pathFingerprint}  config ${r.configHash.slice(0, 16)}${r.forge ? `  forge ${r.forge.kind} ${r.forge.host}` : ''}`,
    `  policy: ${policyWords(r.policy)} · ${collections}`,
    ...(r.aliases.length > 0 ? [`  aliases ${r.aliases.join(', ')}`] : []),
    ...(r.legacyIds.length > 0 ? [`  legacy ${r.legacyIds.join(', ')}`] : []),
    ...(r.degraded.length > 0 ? [`  needs attention: ${r.degraded.map(reasonWords).join(', ')}`] : []),
    ...(w ? [`  waiting: ${reasonWords(w.reason)}${w.host ? ` for ${w.host}` : ''}${w.until !== null ? ` until ${localTime(w.until)}` : ''}`] : []),
    ...r.collections.map(collectionLine),
    `  content generation: ${generationWords(r.generations, r.policy.rag)} · ${nextRun}`,
    ...r.frontiers.map((f) => `  ${frontierWords(f)}`),
    ...stageLines(r),
    ...r.jobs.slice(0, 3).map(jobLine),
  ];
}

export function formatMaintenance(status: Result<'Maintenance.List'>): string {
  const state = status.registry.state === 'missing' ? 'not created yet' : status.registry.state;
  const lines = [`registry: ${state}${status.registry.reason ? ` (${reasonWords(status.registry.reason)})` : ''}, version ${status.registry.version}`];
  if (status.registrations.length === 0) lines.push('no registrations');
  for (const r of status.registrations) lines.push(...registrationLines(r));
  for (const c of status.conflicts) lines.push(`conflict ${c.conflictId}  ${c.kind}  ${c.state}  ${countOf(c.candidates, 'candidate')}`);
  if (status.retired > 0) lines.push(`retired registrations: ${status.retired}`);
  return `${lines.join('\n')}\n`;
}

/** `steward service maintenance|reconcile|install|uninstall`: the operator's view of the running service. */
export function registerService(program: Command, io: CliIo, run: Run): void {
  const service = program.command('service').description('operator diagnostics of the running service, and start at login');
  registerStartAtLogin(service, io, run);
  service
    .command('maintenance')
    .description('sanitized maintenance status: per-collection figures, waiting reasons, cache UUIDs, path fingerprints, repos, policy, jobs, degraded state')
    .option('--format <format>', 'text or json', 'text')
    .option('--json', 'alias of --format json')
    .action((options: { format?: string; json?: boolean }) =>
      run(async () => {
        const format = formatOption(options.format, options.json);
        const status = await withClient(io, (c) => c.call('Maintenance.List', {}));
        if (format === 'json') printJson(io, status);
        else io.stdout(formatMaintenance(status));
        return status.registry.state === 'degraded' ? EXIT.failure : EXIT.ok;
      }, isJson(options)),
    );
  service
    .command('reconcile')
    .description('the immediate pass: every enabled lane with work runs now, the head whatever its interval')
    .option('--format <format>', 'text or json', 'text')
    .option('--json', 'alias of --format json')
    .action((options: { format?: string; json?: boolean }) =>
      run(async () => {
        const format = formatOption(options.format, options.json);
        const result = await withClient(io, (c) => c.call('Maintenance.Reconcile', {}));
        if (format === 'json') printJson(io, result);
        else {
          io.stdout(`reconciled ${result.visited} registrations: ${result.jobs.length} jobs, ${result.skipped.length} skipped\n`);
          for (const j of result.jobs) io.stdout(`  ${j.registrationId} ${j.stage}/${j.lane} ${j.state}${j.coalesced ? ' (coalesced)' : ''}${j.errorClass ? ` ${j.errorClass}` : ''}\n`);
          for (const s of result.skipped)
            io.stdout(`  ${s.registrationId}${s.stage ? ` ${s.stage}${s.lane ? `/${s.lane}` : ''}` : ''} skipped: ${s.reason}${s.nextAttemptAt ? ` until ${localTime(s.nextAttemptAt)}` : ''}\n`);
        }
        return EXIT.ok;
      }, isJson(options)),
    );
}
