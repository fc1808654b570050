import type { Result } from '../../../../core/api/index.js';
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
  const provider = /^providers\.([a-z]+)\.(.+)$/.exec(key);
  return provider ? (provider[2] === 'enabled' ? `watching ${provider[1]}` : `${provider[1]}'s folders`) : key;
}

/** "Saved. It applies now." / "…takes effect when Steward next starts." — said beside the Save button. */
export function savedWords(update: Update): string {
  const { appliedNow, atNextStart } = update;
  if (atNextStart.length === 0) return 'Saved to config.json. It applies now.';
  const later = atNextStart.length === update.saved.length ? 'It takes effect' : `${listOf(atNextStart.map(settingWords))} take effect`;
  const now = appliedNow.length > 0 ? ` ${listOf(appliedNow.map(settingWords))} applies now;` : '';
  return `Saved to config.json.${now} ${later} when Steward next starts (quit it and start it again).`;
}

/** The unit a form shows a number in. `minutes`: the config holds milliseconds, the field minutes. */
export type FieldUnit = 'minutes' | 'days' | 'calls';

const MINUTE = 60_000;

/**
 * A limit in the field's unit. A limit of part of a minute (the 1 s least interval) is rounded to what
 * the field can take and said in seconds too: "0.017 minutes" alone is not a number anyone knows.
 */
function limitWords(limit: number, unit: FieldUnit, least: boolean): string {
  if (unit !== 'minutes') return `${formatCount(limit)} ${unit}`;
  const minutes = limit / MINUTE;
  if (Number.isInteger(minutes)) return countOf(minutes, 'minute');
  const typed = (least ? Math.ceil : Math.floor)(minutes * 1000) / 1000;
  return `${formatCount(typed)} minutes (${countOf(limit / 1000, 'second')})`;
}

/** A field's problem in the unit the form shows it in: "at least 1 minute", "at most 36,500 days". */
export function problemWords(problem: Problem | undefined, unit?: FieldUnit): string | undefined {
  if (!problem) return undefined;
  const bound = problem.minimum ?? problem.maximum;
  if (bound === undefined || unit === undefined) return `This ${problem.message}.`;
  const least = problem.minimum !== undefined;
  return `This must be ${least ? 'at least' : 'at most'} ${limitWords(bound, unit, least)}.`;
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
