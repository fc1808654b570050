import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { byRemedy, countOf, failuresOf, PROVIDERS, remedyWords, ROOT_LEFT_OUT_WHY, SKIP_REASONS, SKIP_WORDS, whatIsWrong, type ProviderId, type RootLeftOutReason, type SkipReason, type Result, type StewardClient, type SweepResult } from '../../api/index.js';
import { withClient } from '../connect.js';
import { awaitIndexing } from './indexing.js';
import { EXIT, localTime, printJson, type CliIo, type Run } from '../output.js';

type ProviderResult = SweepResult['providers'][number];

/** The panel's words for each reason (the type says when one is missing). */
const SKIPPED: Record<SkipReason, string> = SKIP_WORDS;

/**
 * What of an agent's history older than the retention window is stored already (an import of
 * everything read it, and no clean-up removes it again): `files`, the files entirely older than the
 * window read whole and unchanged since; `lines`, whether every older message of the newer files is
 * too (none left out, none uncounted). A backfill after `steward backfill --all` leaves these out
 * again, and says they are stored, not that they were left out.
 */
export interface OlderStored {
  files: number;
  lines: boolean;
}

/**
 * The window a run imported from, as a line names it: the retention window (each agent's own, or the
 * cache retention: `days` holds each one's in days when the owner said, so the note never guesses;
 * `stored`, what of the older history each one has, see OlderStored), or the days `--days` asked for.
 */
export type ImportWindow = { kind: 'retention'; days?: Partial<Record<string, number>>; stored?: Partial<Record<string, OlderStored>> } | { kind: 'days'; days: number };

function windowName(window: ImportWindow): string {
  return window.kind === 'days' ? `the last ${countOf(window.days, 'day')}` : 'the retention window';
}

/** `13 lines held nothing to import (10 bookkeeping, 2 that did not parse, 1 too large)`: every such line, by reason, in the panel's words. */
function formatSkipped(p: ProviderResult, window: ImportWindow): string {
  const entries = SKIP_REASONS.map((reason) => [reason, p.skipped?.[reason] ?? 0] as const).filter(([, n]) => n > 0);
  // Unreadable and oversized lines are among the reasons; a result without reasons still says how many.
  if (entries.length === 0) return p.failedLines ? `${countOf(p.failedLines, 'line that did not parse', 'lines that did not parse')}` : '';
  const total = entries.reduce((sum, [, n]) => sum + n, 0);
  // The panel's "older than the window" cannot say which; here the window is named.
  const older = `older than ${windowName(window)}${storedOf(window, p).lines ? ', already stored' : ''}`;
  const words = (reason: SkipReason) => (reason === 'outside_window' ? older : SKIPPED[reason]);
  return `${countOf(total, 'line')} held nothing to import (${entries.map(([reason, n]) => `${n} ${words(reason)}`).join(', ')})`;
}

/** What ran: a sweep leaves files known unreadable and unchanged unopened; a backfill reads every file again. */
export type RunKind = 'sweep' | 'backfill';

/**
 * `3 failed (SQLITE_READONLY ×3)`: why, by code. Files known unreadable and unchanged since are
 * `still unreadable`, not failed (failuresOf: no failure of this run): a sweep did not read them again,
 * a backfill did and they failed as before.
 */
function formatFailed(p: ProviderResult, run: RunKind): string {
  const { failed, stillUnreadable: still } = failuresOf([p]);
  const how = run === 'backfill' ? 'read again, unchanged since' : 'not read again: unchanged since';
  const again = still > 0 ? `; ${failed === 0 ? '' : `${still} `}${how} ${still === 1 ? 'it' : 'they'} failed` : '';
  const codes = p.errors?.length ? ` (${p.errors.map((e) => `${e.code} ×${e.count}`).join(', ')}${again})` : '';
  const counts = [failed > 0 ? `${failed} failed` : '', still > 0 ? `${still} still unreadable` : ''].filter(Boolean);
  return `${counts.join(', ')}${codes}`;
}

type Unreadable = NonNullable<SweepResult['unreadable']>;

/**
 * When a list of unreadable files was true: the list is what the last check found (each check looks
 * at the files' size and time again), not the disk now. `nextCheckAt`: the schedule's next check, if
 * one is scheduled.
 */
export interface UnreadableAsOf {
  checkedAt: number | null;
  nextCheckAt: number | null;
}

/**
 * The files that could not be read, each by its path (the person's own file, shown to them here and
 * nowhere in status, telemetry or logs), grouped by what to do about them in the panel's words
 * (byRemedy, remedyWords: one caught mid-write is waited for, never called damaged). Each keeps its
 * code after the words: a terminal has no Details to hold it, and it is what a report quotes.
 * `asOf`: the list was remembered, not found by the run it follows (`steward info`): says when it
 * was found, and that a file replaced or moved since stays listed until the next check. `still`: how
 * many of them the run met known and unchanged since they failed (not read again): said still
 * unreadable, not as failing now.
 */
export function formatUnreadable(files: Unreadable, total = files.length, asOf?: UnreadableAsOf, still = 0, run: RunKind = 'sweep'): string {
  if (files.length === 0) return '';
  const one = total === 1;
  const when = asOf?.checkedAt ? `At the last check (${localTime(asOf.checkedAt)}), ` : '';
  const groups = byRemedy(files).map(
    (group) => `${remedyWords(group.remedy, group.files.length)}\n${group.files.map((f) => `  ${f.path} (${labelOf(f.provider)}: ${whatIsWrong(f.code)}, ${f.code})\n`).join('')}`,
  );
  const more = total > files.length ? `  … and ${countOf(total - files.length, 'more file')}\n` : '';
  // The panel's "import history on request": a backfill reads every file, changed or not (after one, said of none).
  const backfill = run === 'backfill' ? '' : `\`steward backfill\` tries ${one ? 'it' : 'them'} again now, without waiting for ${one ? 'it' : 'one'} to change.\n`;
  const next = asOf?.nextCheckAt ? ` (${localTime(asOf.nextCheckAt)})` : '';
  const since = asOf ? `A file replaced or moved since then is still listed until the next check${next} looks at it again; \`steward sweep\` checks now.\n` : '';
  return `${when}${unreadableHead(total, still)}:\n${groups.join('')}${more}${backfill}${since}`;
}

/** `1 transcript file could not be read`, `1 transcript file is still unreadable, unchanged since it failed`, or both. */
function unreadableHead(total: number, still: number): string {
  const files = countOf(total, 'transcript file');
  const since = `unchanged since ${still === 1 ? 'it' : 'they'} failed`;
  if (still <= 0) return `${files} could not be read`;
  if (still >= total) return `${files} ${total === 1 ? 'is' : 'are'} still unreadable, ${since}`;
  return `${files} could not be read (${still} of them still unreadable, ${since})`;
}

/** `cancelled after 30 of 60 transcript files`; a run cancelled while queued (or while listing) listed none. */
function formatCancelled(p: ProviderResult): string {
  if (p.discovered === 0) return 'cancelled before any transcript file was listed';
  return `cancelled after ${p.discovered - (p.notReached ?? 0)} of ${countOf(p.discovered, 'transcript file')}`;
}

/**
 * What became of the files: `4 transcript files, 1 read, 2 already up to date, 1 older than the
 * retention window, not read`. A file outside the window was never opened, so it is never "up to date".
 */
function formatFiles(all: ProviderResult, window: ImportWindow, folders: string | undefined, run: RunKind): string {
  const p = filesAlone(all);
  const closed = formatFoldersFailed(all);
  if (foundNothing(p)) return [folders ? `no transcript files found: ${folders}` : 'no transcript files found', closed].filter(Boolean).join('; ');
  return [formatFileCounts(p, window, run), closed].filter(Boolean).join('; ');
}

/**
 * A run's result with only its files' failures (`failed`, `errors`): the folders its walk could not
 * open (`foldersFailed`) are no transcript file, and are said apart (formatFoldersFailed).
 */
function filesAlone(p: ProviderResult): ProviderResult {
  const folders = p.foldersFailed ?? [];
  if (folders.length === 0) return p;
  const byCode = new Map(folders.map((f) => [f.code, f.count]));
  const errors = (p.errors ?? []).map((e) => ({ code: e.code, count: e.count - (byCode.get(e.code) ?? 0) })).filter((e) => e.count > 0);
  const failed = p.failed - folders.reduce((n, f) => n + f.count, 0);
  const alone: ProviderResult = { ...p, failed };
  if (errors.length > 0) alone.errors = errors;
  else delete alone.errors;
  return alone;
}

/** `1 folder could not be read (EACCES ×1)`: what the walk could not open, by code. */
function formatFoldersFailed(p: ProviderResult): string {
  const folders = p.foldersFailed ?? [];
  if (folders.length === 0) return '';
  const total = folders.reduce((n, f) => n + f.count, 0);
  return `${countOf(total, 'folder')} could not be read (${folders.map((f) => `${f.code} ×${f.count}`).join(', ')})`;
}

function formatFileCounts(p: ProviderResult, window: ImportWindow, run: RunKind): string {
  const files = p.cancelled ? formatCancelled(p) : countOf(p.discovered, 'transcript file');
  if (!p.cancelled && p.unchanged === p.discovered && p.failed === 0) return `${files}, already up to date`;
  const outside = p.outsideWindow ?? 0;
  const what = [
    p.read > 0 ? `${p.read} read` : '',
    p.unchanged > 0 ? `${p.unchanged} already up to date` : '',
    outside > 0 ? formatOlderFiles(outside, Math.min(outside, storedOf(window, p).files), window) : '',
    p.vanished ? `${p.vanished} gone before ${p.vanished === 1 ? 'it was' : 'they were'} read` : '',
    p.failed > 0 ? formatFailed(p, run) : '',
  ];
  return [files, ...what.filter(Boolean)].join(', ');
}

/** The run's files older than the window, `stored` of them imported already: `2 older than the retention window (1 already stored, 1 not read)`. */
function formatOlderFiles(outside: number, stored: number, window: ImportWindow): string {
  const older = `${outside} older than ${windowName(window)}`;
  if (stored === 0) return `${older}, not read`;
  return stored === outside ? `${older}, already stored` : `${older} (${stored} already stored, ${outside - stored} not read)`;
}

/** What of a provider's older history is stored already; nothing when the owner did not say. */
function storedOf(window: ImportWindow, p: ProviderResult): OlderStored {
  return (window.kind === 'retention' ? window.stored?.[p.provider] : undefined) ?? { files: 0, lines: false };
}

/** Whether all a provider's run left out as older than the window is stored already: nothing to import with --all. */
function allStored(window: ImportWindow, p: ProviderResult): boolean {
  const stored = storedOf(window, p);
  return stored.files >= (p.outsideWindow ?? 0) && (stored.lines || (p.skipped?.outside_window ?? 0) === 0);
}

/**
 * What the files brought, in messages: `12 new messages`, or `nothing new`. Parts (a message's text,
 * each tool call and result) are how Steward stores them, not what a person counts; parts with no new
 * message grew messages already stored (a result that arrived after its call).
 */
function formatWritten(p: ProviderResult): string {
  if (p.partsWritten === 0) return 'nothing new';
  // An owner from before messages were counted says only that something came.
  if (p.messagesWritten === undefined) return 'new content imported';
  if (p.messagesWritten === 0) return 'added to messages already stored';
  return countOf(p.messagesWritten, 'new message');
}

/**
 * What was held back on purpose: `kept out what you forgot and what is in excluded folders`. The
 * contract counts it in parts only, which a person does not count, so it is said without a number.
 */
function formatWithheld(p: ProviderResult): string {
  const why = (['forgotten', 'excluded'] as const).filter((reason) => (p.withheld?.[reason] ?? 0) > 0);
  if (why.length === 0) return '';
  return `kept out ${why.map((reason) => WITHHELD_WHAT[reason]).join(' and ')}`;
}

/** Each reason as what was kept out (the panel's WITHHELD_WORDS count parts: "4 of what you forgot"). */
const WITHHELD_WHAT = { forgotten: 'what you forgot', excluded: 'what is in excluded folders' } as const;

/**
 * A run that did not do all it was asked exits 1, whatever it printed: a file that failed in this run,
 * or a run cancelled part-way (what it read stays imported). A script then knows to look, or to run it
 * again. A file known unreadable and unchanged since is no failure of this run (failuresOf): it is said
 * still unreadable, and exits 0, as the panel marks it a warning.
 */
export function sweepExit(result: SweepResult): number {
  const cancelled = result.providers.some((p) => p.cancelled === true);
  return cancelled || failuresOf(result.providers).failed > 0 ? EXIT.failure : EXIT.ok;
}

/** Whether a provider's line names the window: files or lines older than it. */
function leftOutByWindow(p: ProviderResult): boolean {
  return (p.outsideWindow ?? 0) > 0 || (p.skipped?.outside_window ?? 0) > 0;
}

/** Where the retention window is set, and how to import the rest. */
const RETENTION_WHERE =
  "Settings → Importing conversations, or query.cache.retention.default_days in config.json; one agent's own is providers.<id>.backfill.window_days";

/** An agent as everything else names it (`Codex CLI`, not `codex`). */
function labelOf(provider: string): string {
  return provider in PROVIDERS ? PROVIDERS[provider as ProviderId].label : provider;
}

/** `the last 90 days`; 0 is no window at all. */
function lastDays(days: number): string {
  return days === 0 ? 'everything' : `the last ${countOf(days, 'day')}`;
}

/** `a`, `a and b`, `a, b and c`. */
function joined(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)!}`;
}

/**
 * Under lines that name the retention window: what it is for the agents whose lines name it (each
 * one's when they differ, none when the owner did not say: a number that may be wrong is worse than
 * none), where it is set, and how to import the rest.
 */
function retentionNote(providers: readonly ProviderResult[], window: ImportWindow & { kind: 'retention' }): string {
  const leftOut = providers.filter(leftOutByWindow);
  const named = leftOut.map((p) => ({ label: labelOf(p.provider), days: window.days?.[p.provider] }));
  // After an import of everything, what the window leaves out is stored: --all would bring nothing.
  const rest = leftOut.every((p) => allStored(window, p)) ? 'what is older was imported already, by an import of everything, and stays stored' : '`steward backfill --all` imports everything';
  const tail = ` (${RETENTION_WHERE}); ${rest}.\n`;
  if (named.some((n) => n.days === undefined)) return `The retention window is set in ${RETENTION_WHERE}; ${rest}.\n`;
  const distinct = [...new Set(named.map((n) => n.days!))];
  if (distinct.length === 1) return `The retention window is ${lastDays(distinct[0]!)}${tail}`;
  const groups = distinct.map((d) => `${lastDays(d)} for ${joined(named.filter((n) => n.days === d).map((n) => n.label))}`);
  return `The retention window is ${joined(groups)}${tail}`;
}

/** A run of a provider that listed no file at all. */
function foundNothing(p: ProviderResult): boolean {
  return !p.cancelled && p.discovered === 0 && p.failed === 0;
}

/** What the person set to be read that is no folder, per agent: `/x does not exist (set by STEWARD_CODEX_ROOTS)`. */
export type FolderNotes = Partial<Record<string, string>>;

type ProviderRoots = Result<'Providers.Roots'>['providers'][number];
type RootsKind = ProviderRoots['roots'][number];

/** The setting that chose a kind's folders: `STEWARD_CODEX_ROOTS`, or `providers.codex.roots in config.json`; null for the defaults. */
function settingOf(provider: ProviderId, kind: RootsKind): string | null {
  if (kind.source === 'default') return null;
  return kind.source === 'environment' ? kind.env : `providers.${provider}.${kind.key} in config.json`;
}

/** Where a kind's folders come from, as a note says it: `set by STEWARD_CODEX_ROOTS`, `by default`. */
export function setBy(provider: ProviderId, kind: RootsKind): string {
  const setting = settingOf(provider, kind);
  return setting ? `set by ${setting}` : 'by default';
}

/** `relative/path was left out because it is not a full path`: a run's result and `steward info` say it alike. */
export function leftOutWhy(folder: { path: string; reason: RootLeftOutReason }): string {
  return `${folder.path} was left out because ${ROOT_LEFT_OUT_WHY[folder.reason]}`;
}

/**
 * Why a watched path is no folder: the owner says only that it is not one; a path not there at all
 * (the likelier typo) is told apart from a file here, on the same computer, for the person's own terminal.
 */
export function whyNoFolder(path: string): 'does not exist' | 'is not a folder' {
  return existsSync(path) ? 'is not a folder' : 'does not exist';
}

/**
 * Why an agent whose folders the person set found nothing, when it is the folders: one that does not
 * exist or is a file (a typo), or a setting that names none (an empty STEWARD_*_ROOTS, which turns
 * the agent's reading off: said, so that one set empty by mistake is seen). Default folders that do
 * not exist say only that the agent is not installed here: left unsaid. Where something is said, a
 * folder of another kind that is there says it holds no transcript files, so the note is true of each
 * kind (an empty Claude Code folder is not blamed on an empty Desktop setting); alone, it is unsaid.
 */
function setButMissing(provider: ProviderRoots): string {
  const wrong = provider.roots.flatMap((kind) => wrongWith(provider.provider, kind));
  if (wrong.length === 0) return '';
  return provider.roots
    .flatMap((kind) => [
      ...kind.watched.filter((w) => w.exists).map((w) => `${w.path} holds no transcript files (${setBy(provider.provider, kind)})`),
      ...wrongWith(provider.provider, kind),
    ])
    .join('; ');
}

/** What is wrong with one kind's folders as the person set them (see setButMissing); none for the defaults. */
function wrongWith(provider: ProviderId, kind: RootsKind): string[] {
  const setting = settingOf(provider, kind);
  if (setting === null) return [];
  const leftOut = (kind.leftOut ?? []).map((f) => `${leftOutWhy(f)} (${setBy(provider, kind)})`);
  // A setting whose every folder was left out names some: said why, not that it names none.
  if (kind.watched.length === 0 && leftOut.length === 0) return [`${setting} names no folder`];
  return [...kind.watched.filter((w) => !w.exists).map((w) => `${w.path} ${whyNoFolder(w.path)} (${setBy(provider, kind)})`), ...leftOut];
}

/** For the agents a run found no file of, what is wrong with the folders the person set (see setButMissing). */
export async function folderNotes(client: StewardClient, result: SweepResult): Promise<FolderNotes> {
  const empty = new Set(result.providers.filter(foundNothing).map((p) => p.provider));
  if (empty.size === 0) return {};
  try {
    const { providers } = await client.call('Providers.Roots', {});
    const notes = providers.filter((p) => empty.has(p.provider)).map((p) => [p.provider, setButMissing(p)] as const);
    return Object.fromEntries(notes.filter(([, note]) => note !== ''));
  } catch {
    // Secondary to the result in hand: an owner that cannot say (an older one) leaves it unsaid.
    return {};
  }
}

/**
 * Each provider's retention window in days, from the owner (`Providers.Survey`), asked only when a
 * line will name the window; undefined when the owner cannot say, so the note states no number.
 */
export async function retentionWindow(client: StewardClient, result: SweepResult): Promise<ImportWindow> {
  if (!result.providers.some(leftOutByWindow)) return { kind: 'retention' };
  try {
    const survey = await client.call('Providers.Survey', {});
    // Stored only where no clean-up removes it again (as the panel's Import earlier history counts `imported`).
    const stored = survey.providers.map((p) => [p.provider, { files: p.cleanUpDays === 0 ? p.older.imported.files : 0, lines: p.cleanUpDays === 0 && p.olderMessages === 0 && p.olderUncounted === 0 }] as const);
    return { kind: 'retention', days: Object.fromEntries(survey.providers.map((p) => [p.provider, p.windowDays])), stored: Object.fromEntries(stored) };
  } catch {
    // The note is secondary to the result in hand: an owner that cannot say (an older one) leaves the number out.
    return { kind: 'retention' };
  }
}

/**
 * One line per provider, in words: counts, and the folders the person set that are none (FolderNotes),
 * by path. A provider whose files were all unchanged is "already up to date"; a cancelled one says how
 * far it got. `window`: what the run imported from.
 * Below them, the files that could not be read, by path, with what to do.
 */
export function formatSweepResult(result: SweepResult, window: ImportWindow = { kind: 'retention' }, folders: FolderNotes = {}, run: RunKind = 'sweep'): string {
  const lines = result.providers.map((p) => {
    // Parts can land with no file read: rows an older version left in the spool, drained by this run.
    const read = p.read > 0 || p.failed > 0 || (p.vanished ?? 0) > 0 || p.partsWritten > 0;
    const parts = [formatFiles(p, window, folders[p.provider], run), read ? formatWritten(p) : '', formatWithheld(p), formatSkipped(p, window)].filter(Boolean);
    return `${p.provider}: ${parts.join('; ')} (${p.durationMs} ms)\n`;
  });
  const note = window.kind === 'retention' && result.providers.some(leftOutByWindow) ? retentionNote(result.providers, window) : '';
  const unreadable = result.providers.reduce((n, p) => n + (p.unreadable ?? []).reduce((sum, e) => sum + e.count, 0), 0);
  const still = failuresOf(result.providers).stillUnreadable;
  return `${lines.join('')}${note}${formatUnreadable(result.unreadable ?? [], Math.max(unreadable, result.unreadable?.length ?? 0), undefined, still, run)}`;
}

export function registerSweep(program: Command, io: CliIo, run: Run): void {
  program
    .command('sweep')
    .description('run one scheduled transcript sweep tick now')
    .option('--json', 'print JSON')
    .action((options: { json?: boolean }) =>
      run(async () => {
        return withClient(io, async (client, via) => {
          const result = await client.call('Sweep.Tick', {});
          if (options.json) printJson(io, result);
          else io.stdout(formatSweepResult(result, await retentionWindow(client, result), await folderNotes(client, result)));
          await awaitIndexing(io, client, via);
          return sweepExit(result);
        });
      }, options.json),
    );
}
