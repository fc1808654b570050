import { describe, expect, it } from 'vitest';
import type { EventPayload, StatusItem } from '../../../core/api/index.js';
import { countingWorkEnded, walkEnded } from '../../../renderer/src/places/home/totals.js';

/**
 * QA 45u B3: after an upgrade the owner recounted messages in the background (the index's re-tag
 * walk); Home kept the old total for more than 30 s after "Up to date", until a reload. Its figures
 * were asked again only on a tick or a forget, neither of which the walk's end is.
 */
type Status = EventPayload<'app.status'>;
const item = (kind: StatusItem['kind'], subject: string | null = null): StatusItem => ({ kind, subject, text: 'words', place: null });
const status = (...working: StatusItem[]): Status => ({
  state: working.length > 0 ? 'working' : 'idle',
  message: working.length > 0 ? 'Working' : 'Up to date',
  paused: false,
  working,
  attention: [],
  errors: [],
  details: [],
});
const progress = (complete: boolean): EventPayload<'search.indexing'> => ({ phase: 'retag', indexedParts: complete ? 0 : 39, totalParts: complete ? 0 : 100, complete });

describe("Home's totals are asked again when what counts them ends", () => {
  it("when the index's walk (and the recount riding on it) reports its end, not at each step of it", () => {
    expect(walkEnded(progress(true))).toBe(true);
    expect(walkEnded(progress(false))).toBe(false);
  });

  it('when the status drops the index walk, an import or a forget (working to idle, or to other work)', () => {
    expect(countingWorkEnded(status(item('index')), status())).toBe(true);
    expect(countingWorkEnded(status(item('index'), item('curate', 'p1')), status(item('curate', 'p1')))).toBe(true);
    expect(countingWorkEnded(status(item('import', 'claude')), status(item('import', 'codex')))).toBe(true);
    expect(countingWorkEnded(status(item('forget', 'p2')), status())).toBe(true);
  });

  it('not while the same work goes on, nor when work that counts nothing ends, nor on the first status', () => {
    expect(countingWorkEnded(status(item('index')), status(item('index')))).toBe(false);
    expect(countingWorkEnded(status(), status(item('index')))).toBe(false);
    expect(countingWorkEnded(status(item('curate', 'p1')), status())).toBe(false);
    expect(countingWorkEnded(status(), status())).toBe(false);
    expect(countingWorkEnded(undefined, status())).toBe(false);
  });
});
