import type { SkipReason } from '../../../core/api/index.js';
import { SKIP_WORDS } from '../../../core/api/import-words.js';
import { formatCount } from './format.js';

const rules = new Intl.PluralRules(undefined);

/** A noun's forms; English needs two, other languages more (`few`, `many`), which fall back to `other`. */
export type NounForms = { one: string; other: string } & Partial<Record<Intl.LDMLPluralRule, string>>;

function formsOf(noun: string | NounForms): NounForms {
  return typeof noun === 'string' ? { one: noun, other: `${noun}s` } : noun;
}

/** The noun for `n`, chosen by Intl.PluralRules: "file" or "files". */
export function nounFor(n: number, noun: string | NounForms): string {
  const forms = formsOf(noun);
  return forms[rules.select(n)] ?? forms.other;
}

/** "1 file", "1,204 messages": the count formatted for the reader's locale and the noun in agreement. */
export function countOf(n: number, noun: string | NounForms): string {
  return `${formatCount(n)} ${nounFor(n, noun)}`;
}

const byteUnits = ['bytes', 'KB', 'MB', 'GB', 'TB'] as const;

/** 830 bytes, 12.4 MB: one decimal below ten units, none above. */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < byteUnits.length - 1) {
    value /= 1024;
    unit += 1;
  }
  if (unit === 0) return countOf(bytes, { one: 'byte', other: 'bytes' });
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${byteUnits[unit]}`;
}

/** "a, b and c" in the reader's language. */
export function listOf(items: readonly string[]): string {
  return new Intl.ListFormat(undefined, { style: 'long', type: 'conjunction' }).format(items);
}

/**
 * Text from the owner (status lines, plan notes, server messages) may carry Markdown's inline code
 * marks; the panel shows words, not markup.
 */
export function plainText(text: string): string {
  return text.replace(/`([^`]*)`/g, '$1').replace(/\*\*([^*]+)\*\*/g, '$1');
}

/** Why a transcript line held nothing to import, in words (one per SKIP_REASONS entry: the type says when one is missing). */
/**
 * "1,204 lines held no conversation: 1,190 bookkeeping, 14 unreadable", summed over a run's providers;
 * empty when every line held one. Import results and the Telemetry rows say it the same way.
 */
export function skippedLines(providers: ReadonlyArray<{ skipped?: Partial<Record<SkipReason, number>> | undefined }>): string {
  const totals = (Object.keys(SKIP_WORDS) as SkipReason[]).map((reason) => [reason, providers.reduce((n, p) => n + (p.skipped?.[reason] ?? 0), 0)] as const).filter(([, n]) => n > 0);
  if (totals.length === 0) return '';
  const all = totals.reduce((n, [, count]) => n + count, 0);
  return `${countOf(all, 'line')} held no conversation: ${totals.map(([reason, n]) => `${formatCount(n)} ${SKIP_WORDS[reason]}`).join(', ')}`;
}
