import type { Handlers } from '../api/index.js';
import type { History } from './history.js';

type HistoryMethods = 'Search.Query' | 'Search.Indexing' | 'Sessions.List' | 'Sessions.Get' | 'Sessions.Export' | 'Sessions.ExportNext' | 'Forget.Session' | 'Forget.Project' | 'Forget.Scrub' | 'Forget.ScrubStatus' | 'Forget.List' | 'Forget.Of' | 'Forget.Lost' | 'Forget.Lift';

/** History's part of the contract: search, reading and exporting conversations, forgetting. */
export function historyHandlers(history: History): Pick<Handlers, HistoryMethods> {
  return {
    'Search.Query': (params) => history.search.query(params),
    'Search.Indexing': () => history.indexing(),
    'Sessions.List': (params) => history.sessions.list(params),
    'Sessions.Get': (params) => history.sessions.get(params),
    'Sessions.Export': ({ sessionId, format, raw }) => history.exporter.export(sessionId, format ?? 'markdown', raw ?? false),
    'Sessions.ExportNext': ({ next }) => history.exporter.next(next),
    'Forget.Session': ({ sessionId, ...asked }) => history.forgetting.session(sessionId, asked),
    'Forget.Project': ({ projectKey, ...asked }) => history.forgetting.project(projectKey, asked),
    'Forget.Scrub': () => history.forgetting.scrub(),
    'Forget.ScrubStatus': () => history.forgetting.scrubStatus(),
    'Forget.List': async () => ({ tombstones: await history.forgetting.list() }),
    'Forget.Of': async ({ sessionId }) => ({ record: await history.forgetting.of(sessionId) }),
    'Forget.Lost': ({ kind, id }) => history.forgetting.lost(kind, id),
    'Forget.Lift': ({ kind, id }) => history.forgetting.unforget(kind, id),
  };
}
