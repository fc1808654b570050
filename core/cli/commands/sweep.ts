import type { Command } from 'commander';
import { countOf, SKIP_REASONS, SKIP_WORDS, WITHHELD_WORDS, type SkipReason, type SweepResult } from '../../api/index.js';
import { withClient } from '../connect.js';
import { EXIT, printJson, type CliIo, type Run } from '../output.js';

type ProviderResult = SweepResult['providers'][number];

/** The panel's words for each reason (the type says when one is missing). */
const SKIPPED: Record<SkipReason, string> = SKIP_WORDS;

/** `13 lines held nothing to import (10 bookkeeping, 2 unreadable, 1 too large)`: every such line, by reason, in the panel's words. */
function formatSkipped(p: ProviderResult): string {
  const entries = SKIP_REASONS.map((reason) => [reason, p.skipped?.[reason] ?? 0] as const).filter(([, n]) => n > 0);
  // Unreadable and oversized lines are among the reasons; a result without reasons still says how many.
  if (entries.length === 0) return p.failedLines ? `${countOf(p.failedLines, 'unreadable line')}` : '';
  const total = entries.reduce((sum, [, n]) => sum + n, 0);
  return `${countOf(total, 'line')} held nothing to import (${entries.map(([reason, n]) => `${n} ${SKIPPED[reason]}`).join(', ')})`;
}

/** `3 failed (SQLITE_READONLY ×3)`: why, by code. */
function formatFailed(p: ProviderResult): string {
  const codes = p.errors?.length ? ` (${p.errors.map((e) => `${e.code} ×${e.count}`).join(', ')})` : '';
  return `${p.failed} failed${codes}`;
}

/** `cancelled after 30 of 60 transcript files`; a run cancelled while queued (or while listing) listed none. */
function formatCancelled(p: ProviderResult): string {
  if (p.discovered === 0) return 'cancelled before any transcript file was listed';
  return `cancelled after ${p.discovered - (p.notReached ?? 0)} of ${countOf(p.discovered, 'transcript file')}`;
}

/**
 * What became of the files: `4 transcript files, 1 read, 2 already up to date, 1 older than the
 * window, not read`. A file outside the window was never opened, so it is never "up to date".
 */
function formatFiles(p: ProviderResult): string {
  if (!p.cancelled && p.discovered === 0 && p.failed === 0) return 'no transcript files found';
  const files = p.cancelled ? formatCancelled(p) : countOf(p.discovered, 'transcript file');
  if (!p.cancelled && p.unchanged === p.discovered && p.failed === 0) return `${files}, already up to date`;
  const outside = p.outsideWindow ?? 0;
  const what = [
    p.read > 0 ? `${p.read} read` : '',
    p.unchanged > 0 ? `${p.unchanged} already up to date` : '',
    outside > 0 ? `${outside} older than the window, not read` : '',
    p.vanished ? `${p.vanished} gone before ${p.vanished === 1 ? 'it was' : 'they were'} read` : '',
    p.failed > 0 ? formatFailed(p) : '',
  ];
  return [files, ...what.filter(Boolean)].join(', ');
}

/** What the files brought: `12 new messages (37 parts)`, or `nothing new`. */
function formatWritten(p: ProviderResult): string {
  if (p.partsWritten === 0) return 'nothing new';
  if (p.messagesWritten === undefined) return countOf(p.partsWritten, 'new part');
  return `${countOf(p.messagesWritten, 'new message')} (${countOf(p.partsWritten, 'part')})`;
}

/** Parts held back on purpose: `5 parts held back (3 of what you forgot, 2 in excluded folders)`; a reason with none is left out. */
function formatWithheld(p: ProviderResult): string {
  const entries = (['forgotten', 'excluded'] as const).map((why) => [why, p.withheld?.[why] ?? 0] as const).filter(([, n]) => n > 0);
  if (entries.length === 0) return '';
  const held = entries.reduce((sum, [, n]) => sum + n, 0);
  return `${countOf(held, 'part')} held back (${entries.map(([why, n]) => `${n} ${WITHHELD_WORDS[why]}`).join(', ')})`;
}

/**
 * One line per provider, in words: counts only, never paths. A provider whose files were all unchanged
 * is "already up to date"; a cancelled one says how far it got.
 */
/**
 * A run that did not do all it was asked exits 1, whatever it printed: a file that failed, or a run
 * cancelled part-way (what it read stays imported). A script then knows to look, or to run it again.
 */
export function sweepExit(result: SweepResult): number {
  return result.providers.some((p) => p.failed > 0 || p.cancelled === true) ? EXIT.failure : EXIT.ok;
}

export function formatSweepResult(result: SweepResult): string {
  return result.providers
    .map((p) => {
      // Parts can land with no file read: rows an older version left in the spool, drained by this run.
      const read = p.read > 0 || p.failed > 0 || (p.vanished ?? 0) > 0 || p.partsWritten > 0;
      const parts = [formatFiles(p), read ? formatWritten(p) : '', formatWithheld(p), formatSkipped(p)].filter(Boolean);
      return `${p.provider}: ${parts.join('; ')} (${p.durationMs} ms)\n`;
    })
    .join('');
}

export function registerSweep(program: Command, io: CliIo, run: Run): void {
  program
    .command('sweep')
    .description('run one scheduled transcript sweep tick now')
    .option('--json', 'print JSON')
    .action((options: { json?: boolean }) =>
      run(async () => {
        return withClient(io, async (client) => {
          const result = await client.call('Sweep.Tick', {});
          if (options.json) printJson(io, result);
          else io.stdout(formatSweepResult(result));
          return sweepExit(result);
        });
      }, options.json),
    );
}
