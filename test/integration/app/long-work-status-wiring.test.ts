import { beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../core/index.js';
import { coreHome } from '../../support/core.js';

/**
 * The owner tells its status what the rooms report of long work: the index's walk (`search.indexing`)
 * and a forget's erasing (`forget.progress`, ended by its last progress or by a lift). Without this
 * wiring the status said "Up to date" for the half minute a large project's forget ran.
 */
const temp = coreHome('steward-long-work-status-', { shared: true });
let core: Core;

beforeAll(() => {
  core = temp.open();
});

const working = async () => (await core.call('App.Info', {})).status.working.map((i) => i.kind);

describe('the owner’s status while long work runs', () => {
  it('lists the index walk until it completes', async () => {
    core.events.emit('search.indexing', { phase: 'index', indexedParts: 10, totalParts: 40, complete: false });
    expect(await working()).toContain('index');
    core.events.emit('search.indexing', { phase: 'index', indexedParts: 40, totalParts: 40, complete: true });
    expect(await working()).not.toContain('index');
  });

  it('lists a forget until its last progress, or until it is lifted', async () => {
    core.events.emit('forget.progress', { kind: 'project', id: 'p_0123456789abcdef', sessionsDone: 1, sessionsTotal: 9, removedParts: 3, complete: false });
    expect(await working()).toContain('forget');
    core.events.emit('forget.progress', { kind: 'project', id: 'p_0123456789abcdef', sessionsDone: 9, sessionsTotal: 9, removedParts: 27, complete: true });
    expect(await working()).not.toContain('forget');

    core.events.emit('forget.progress', { kind: 'session', id: 's-1', sessionsDone: 0, sessionsTotal: 1, removedParts: 0, complete: false });
    expect(await working()).toContain('forget');
    core.events.emit('history.changed', { kind: 'session', id: 's-1', change: 'forgotten' });
    expect(await working()).toContain('forget');
    core.events.emit('history.changed', { kind: 'session', id: 's-1', change: 'lifted' });
    expect(await working()).not.toContain('forget');
  });
});
