import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EventPayload } from '../../../core/api/index.js';
import { StatusReporter } from '../../../core/app/reports.js';
import { AppState } from '../../../core/app/status.js';
import type { DiskScrub, EraseOptions, SessionEraser, Tombstones } from '../../../core/gateway/index.js';
import { Forgetting } from '../../../core/history/forget.js';
import type { SessionsView } from '../../../core/history/sessions.js';

afterEach(() => vi.restoreAllMocks());

/**
 * Forgetting billing-api over an eraser that deletes 1,200 of its 2,025 sessions (said after the half
 * second progress waits for) and then throws, its events routed to the status as the owner routes them.
 */
function failingForget() {
  const state = new AppState(() => undefined);
  const reporter = new StatusReporter(state, (key) => (key === 'p_billing' ? 'billing-api' : undefined));
  const progress: EventPayload<'forget.progress'>[] = [];
  let now = 0;
  vi.spyOn(performance, 'now').mockImplementation(() => now);
  const eraser = {
    projectHasSessions: () => true,
    eraseProject: async (_key: string, _limit: unknown, options: EraseOptions) => {
      now += 600;
      options.onProgress?.({ sessionsDone: 1_200, sessionsTotal: 2_025, parts: 9 });
      expect(state.status.working.map((i) => i.kind)).toEqual(['forget']);
      throw Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' });
    },
  } as unknown as SessionEraser;
  const tombstones = { add: () => true, keepHashFolderNames: () => undefined, has: () => true } as unknown as Tombstones;
  const forgetting = new Forgetting({
    tombstones,
    eraser,
    scrub: {} as DiskScrub,
    sessions: {} as SessionsView,
    projects: { describe: () => ({ name: 'billing-api', slug: 'billing-api' }), remove: () => true },
    removeNotes: async () => false,
    redactor: () => ({}) as never,
    // As the owner routes them (Core's #followRooms).
    emit: (name, payload) => {
      if (name === 'forget.progress') progress.push(payload as EventPayload<'forget.progress'>);
      if (name === 'forget.progress') reporter.forgetting(payload as EventPayload<'forget.progress'>);
      else if (name === 'history.changed' && (payload as EventPayload<'history.changed'>).change === 'lifted') reporter.forgetEnded(payload as EventPayload<'history.changed'>);
    },
  });
  return { state, forgetting, progress };
}

describe('a forget that fails part-way', () => {
  it('leaves no "Forgetting" item in the status once it has failed', async () => {
    const { state, forgetting, progress } = failingForget();
    await expect(forgetting.project('p_billing')).rejects.toThrow('disk I/O error');
    // Its last word says it failed, so nothing reads it as erased (the panel's wipe waits for an erase).
    expect(progress.at(-1)).toMatchObject({ complete: true, failed: true, sessionsDone: 1_200 });
    expect(state.status.working).toEqual([]);
    expect(state.status.message).not.toMatch(/Forgetting/);
  });
});
