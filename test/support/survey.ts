import type { ProviderId, Result } from '../../core/api/index.js';

export type SurveyedAgent = Result<'Providers.Survey'>['providers'][number];

/** One agent of a Providers.Survey as Home's listing reads it: six small files, nothing older than the default window, unless `over` says otherwise. */
export const surveyedAgent = (over: Partial<SurveyedAgent> = {}): SurveyedAgent => ({
  provider: 'claude' as ProviderId,
  files: 6,
  bytes: 69 * 1024,
  oldestAt: null,
  newestAt: null,
  windowDays: 365,
  windowFrom: 'default',
  cleanUpDays: 0,
  older: { files: 0, bytes: 0, imported: { files: 0, bytes: 0 } },
  olderMessages: 0,
  olderUncounted: 0,
  failed: 0,
  ...over,
});
