import type { Result } from '../../../../core/api/index.js';
import { listOf, providerLabel } from '../../components/index.js';
import { narrowerSaved, narrowerScope, spanWords, windowWords } from './window.js';

type Survey = Result<'Providers.Survey'>;
type ConfigView = Pick<Result<'Settings.Config'>, 'saved' | 'running'>;

/**
 * The cache retention saved in config.json that the running Steward does not use yet (it takes effect
 * at the next start, from Settings or Home alike), or undefined. Home reads it from the configuration,
 * not from its own last save, so it still says so after a save in Settings or a reload.
 */
export function savedForNextStart(config: ConfigView | undefined): number | undefined {
  if (config === undefined || config.saved.retentionDays === config.running.retentionDays) return undefined;
  return config.saved.retentionDays;
}

/**
 * The choice Home starts on: the setting in force, never an action not taken yet. The window saved for
 * the next start when it is one offered, else "keep" (keepWords: the window as it is, or as saved).
 */
export function startingChoice<D extends number>(saved: number | undefined, offered: readonly D[]): 'keep' | `${D}` {
  const match = offered.find((days) => days === saved);
  return match === undefined ? 'keep' : (`${match}` as `${D}`);
}

/** The choice that changes nothing: the window in use, or the one saved for the next start (not offered among the narrower ones). */
export function keepWords(survey: Survey, saved: number | undefined): string {
  if (saved !== undefined) return `As saved: ${spanWords(saved)}, from the next start`;
  return `As it is: ${windowWords(survey) ?? spanWords(365)}`;
}

/** What Home says of a window saved for the next start. */
export function savedWindowSentence(days: number, survey: Survey): string {
  if (days > 0) return narrowerSaved(days, survey);
  const { follow, own } = narrowerScope(survey);
  return `Saved: from the next start Steward keeps all of their history${own.length > 0 ? ` for ${listOf(follow.map((p) => providerLabel(p.provider)))}` : ''}.`;
}

/**
 * What a window saved for the next start removes again of what importing everything brings in now
 * (it cleans up from that start on), for Everything's words; undefined when it removes nothing.
 */
export function savedCleanUpWords(days: number, survey: Survey): string | undefined {
  const { follow, own } = narrowerScope(survey);
  if (days === 0 || follow.length === 0) return undefined;
  const whom = own.length === 0 ? '' : ` for ${listOf(follow.map((p) => providerLabel(p.provider)))}`;
  return `from the next start, the ${days}-day window you saved removes again what is older than that${whom}`;
}
