import type { Result } from '../../../../core/api/index.js';
import { useCall, useEvent, type CallState } from '../../hooks.js';

type Survey = Result<'Providers.Survey'>;

/**
 * What the agents' folders hold (Providers.Survey: a walk of every watched folder), for the badges that
 * say whether a found folder holds conversations. Asked again only after a check whose walk found a
 * number of files the survey does not say: a check's own stats carry that number (`discovered`), so an
 * open Home or Settings does not walk every folder a second time after every check.
 */
export function useFolderSurvey(): CallState<Survey> {
  const survey = useCall('Providers.Survey', {});
  useEvent('sweep.tick', (tick) => {
    const counted = survey.data?.providers;
    if (counted === undefined || tick.providers.some((p) => counted.find((s) => s.provider === p.provider)?.files !== p.discovered)) survey.reload();
  });
  return survey;
}
