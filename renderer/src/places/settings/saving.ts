import type { Result } from '../../../../core/api/index.js';
import { rootKinds } from '../../../../core/api/registry.js';
import { countOf, formatCount, listOf } from '../../components/index.js';
import { fieldErrors, useAction } from '../../hooks.js';

type Update = Result<'Settings.Update'>;
export type ConfigView = Result<'Settings.Config'>;
export type Problem = { message: string; minimum?: number; maximum?: number };

/** What people call each setting the panel changes (the dotted names stay in config.json). */
export function settingWords(key: string): string {
  const fixed: Record<string, string> = {
    'query.cache.retention.default_days': 'the retention window',
    'sweep.interval_ms': 'how often folders are checked',
    'capture.exclude': 'the folders never imported',
    'sweeper.ignore': 'the folders without notes',
    'sweeper.daily_model_calls': 'the daily budget',
    'log.level': 'the log level',
  };
  if (fixed[key]) return fixed[key];
  const folders = rootKinds().find((r) => `providers.${r.provider}.${r.key}` === key);
  if (folders) return `the ${folders.kind.label} folders`;
  const provider = /^providers\.([a-z]+)\.(.+)$/.exec(key);
  return provider ? (provider[2] === 'enabled' ? `watching ${provider[1]}` : `${provider[1]}'s folders`) : key;
}

const sentence = (words: string) => words.charAt(0).toUpperCase() + words.slice(1);
const verb = (keys: string[], one: string, more: string) => `${listOf(keys.map(settingWords))} ${keys.length === 1 ? one : more}`;
const AT_NEXT_START = 'when Steward next starts (quit it and start it again).';

/**
 * When saved settings apply: "It applies now.", "It takes effect when…", or each named when they
 * differ (or when an environment variable's sentence follows, which would blur an "It").
 */
function whenWords(saved: string[], appliedNow: string[], atNextStart: string[], named: boolean): string | undefined {
  if (saved.length === 0) return undefined;
  if (!named && atNextStart.length === 0) return 'It applies now.';
  if (!named && atNextStart.length === saved.length) return `It takes effect ${AT_NEXT_START}`;
  if (atNextStart.length === 0) return `${sentence(verb(appliedNow, 'applies', 'apply'))} now.`;
  const now = appliedNow.length > 0 ? `${verb(appliedNow, 'applies', 'apply')} now; ` : '';
  return sentence(`${now}${verb(atNextStart, 'takes', 'take')} effect ${AT_NEXT_START}`);
}

/**
 * What a save did, said beside the Save button. A setting an environment variable decides waits for
 * that variable, not for the next start (a restart with it still set changes nothing): it is named.
 */
export function savedWords(update: Update): string {
  const byEnv = update.config.environment.filter((e) => update.saved.includes(e.key));
  const free = (keys: string[]) => keys.filter((key) => !byEnv.some((e) => e.key === key));
  const envWords = byEnv.map((e) => `${e.env} is set in Steward’s environment and decides ${settingWords(e.key)} while it is set; what you saved applies once it is unset and Steward starts again.`);
  const when = whenWords(free(update.saved), free(update.appliedNow), free(update.atNextStart), byEnv.length > 0);
  return ['Saved to config.json.', ...(when === undefined ? [] : [when]), ...envWords].join(' ');
}

/** The unit a form shows a number in. `interval`: the config holds milliseconds, the field a duration in words ("5 minutes"). */
export type FieldUnit = 'interval' | 'days' | 'calls';

const SECOND = 1_000;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** The units a typed interval may name ("90 s", "5 min", "1 hour", "1 day"); a bare number is minutes, as the field always took. */
const INTERVAL_UNITS: ReadonlyArray<[RegExp, number]> = [
  [/^(s|secs?|seconds?)$/, SECOND],
  [/^(|m|mins?|minutes?)$/, MINUTE],
  [/^(h|hrs?|hours?)$/, HOUR],
  [/^(d|days?)$/, DAY],
];

/** What the interval box says when what was typed is no duration (the config would only say it must be a number). */
export const INTERVAL_FORMAT = 'Write it as seconds, minutes, hours or days, such as 90 seconds or 5 minutes.';

/**
 * An interval in plain words, in the largest unit it is a whole number of ("2 hours", "5 minutes", "90
 * seconds"), never a fraction of a minute. Read back by intervalMs to the same milliseconds.
 */
export function intervalWords(ms: number): string {
  if (ms > 0 && ms % DAY === 0) return countOf(ms / DAY, 'day');
  if (ms > 0 && ms % HOUR === 0) return countOf(ms / HOUR, 'hour');
  return ms % MINUTE === 0 ? countOf(ms / MINUTE, 'minute') : countOf(ms / SECOND, 'second');
}

/** The grouping and decimal marks formatCount writes (this locale's), so a number it wrote ("10,080") reads back. */
const MARKS = Object.fromEntries(new Intl.NumberFormat(undefined).formatToParts(12_345.6).map((part) => [part.type, part.value]));
const escaped = (mark: string) => mark.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const GROUPING = new RegExp(`(?<=\\d)${escaped(MARKS.group ?? ',')}(?=\\d{3}(?!\\d))`, 'g');
const unitOf = (word: string) => INTERVAL_UNITS.find(([words]) => words.test(word.toLowerCase()))?.[1];

/**
 * The milliseconds a typed interval says ("90 seconds", "5 min", "5", "1 minute 30 seconds"), or
 * undefined when it says none. In more than one piece, each names its unit, once, and none is negative.
 */
export function intervalMs(text: string): number | undefined {
  const plain = text.trim().replace(GROUPING, '').replaceAll(MARKS.decimal ?? '.', '.');
  const typed = /^(-?\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(plain);
  if (typed) {
    const unit = unitOf(typed[2]!);
    return unit === undefined ? undefined : Math.round(Number(typed[1]) * unit);
  }
  const pieces = plain.split(/\s*,\s*|\s+(?=\d)/);
  let ms = 0;
  // A unit named twice ("1 min 1 min") is a slip, not a sum: it is refused, never added up silently.
  const named = new Set<number>();
  for (const piece of pieces) {
    const part = /^(\d+(?:\.\d+)?)\s*([a-z]+)$/i.exec(piece);
    const unit = part ? unitOf(part[2]!) : undefined;
    if (!part || unit === undefined || named.has(unit)) return undefined;
    named.add(unit);
    ms += Number(part[1]) * unit;
  }
  return Math.round(ms);
}

/** A limit in the field's unit: the interval in the words the field shows it in, however the schema counts (milliseconds, `interval_ms`). */
function limitWords(limit: number, unit: FieldUnit): string {
  return unit === 'interval' ? intervalWords(limit) : `${formatCount(limit)} ${unit}`;
}

/** A field's problem in the unit the form shows it in: "at least 1 minute", "at most 36,500 days". */
export function problemWords(problem: Problem | undefined, unit?: FieldUnit): string | undefined {
  if (!problem) return undefined;
  const bound = problem.minimum ?? problem.maximum;
  // The box takes words: a refusal of its type means what was typed is no duration.
  if (bound === undefined && unit === 'interval') return INTERVAL_FORMAT;
  if (bound === undefined || unit === undefined) return `This ${problem.message}.`;
  return `This must be ${problem.minimum !== undefined ? 'at least' : 'at most'} ${limitWords(bound, unit)}.`;
}

/**
 * A list field's refusal said by the lines the person typed: the config names an entry by its dotted,
 * zero-based key among the lines sent (`providers.claude.roots.1`, blank lines dropped), so each is
 * told as "Line 3 (relative/path)", counted in `sent` as typed. A problem of the list itself stays whole.
 */
export function linesProblemWords(key: string, sent: string, problems: Record<string, Problem>): string | undefined {
  const typed = sent.split('\n').flatMap((line, at) => (line.trim() === '' ? [] : [{ number: at + 1, value: line.trim() }]));
  const byMessage = new Map<string, string[]>();
  typed.forEach((line, index) => {
    const problem = problems[`${key}.${index}`];
    if (problem) byMessage.set(problem.message, [...(byMessage.get(problem.message) ?? []), `line ${line.number} (${line.value})`]);
  });
  const said = [...byMessage].map(([message, named]) => `${sentence(listOf(named))} ${named.length > 1 ? message.replace(/^must /, 'must each ') : message}.`);
  const whole = problemWords(problems[key]);
  return [whole, ...said].filter((words) => words !== undefined).join(' ') || undefined;
}

/** Settings.Update with its refusal split by field, and what was saved said in words. */
export function useSave(onSaved: () => void) {
  const update = useAction('Settings.Update');
  const errors = fieldErrors(update.error);
  return {
    // Save stays pressable while a save runs (it keeps the focus, see SaveRow): a second press waits for none.
    save: (changes: Record<string, unknown>) => {
      if (update.busy) return;
      void update.run({ changes: changes as never }).then((result) => result && onSaved());
    },
    busy: update.busy,
    /** Puts away what the last save said or refused: a new attempt that asks first (a retention window) starts clean. */
    clear: update.reset,
    /** The field's problem, by its dotted key or any key under it (`providers.claude.roots.0`). */
    problem: (key: string): Problem | undefined => errors[key] ?? Object.entries(errors).find(([k]) => k.startsWith(`${key}.`))?.[1],
    /** Every refused key's problem, for a list field that says each of its lines (linesProblemWords). */
    problems: errors,
    error: update.error,
    said: update.data ? savedWords(update.data) : undefined,
  };
}

/** One entry per line; blank lines dropped. */
export function lines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}
