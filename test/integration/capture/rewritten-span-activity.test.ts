import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EventPayload } from '../../../core/api/index.js';
import { coreHome } from '../../support/core.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

/*
 * A conversation's own file written again shorter narrows its span (FileCheckpoints' whole clean
 * re-read, beside the sink's write): what depends on that span follows it, as it follows a widening.
 * The project's last activity is read from its conversations' spans (ProjectStore's toRecord), not
 * from the row the sink raises, and the check that narrowed it is told to subscribers (sweep.tick) as
 * any check that read a file. (A guard: this held before the narrowing was questioned.)
 */
const SESSION = '8e2f3a4b-5c6d-4e7f-8a9b-0c1d2e3f4a51';
const CWD = '/home/ana/src/narrowed';
const PROJECT = '-home-ana-src-narrowed';
const BASE = Math.floor((Date.now() - 60 * 60_000) / 1000) * 1000;
const inLastHour = (minutes: number) => new Date(BASE + minutes * 60_000);
const owned = coreHome('steward-narrowed-activity-');

const lines = (minutes: number[]) =>
  minutes.map((m) => claudeLine({ sessionId: SESSION, cwd: CWD, type: m % 2 === 0 ? 'user' : 'assistant', text: `turn ${m}`, ts: inLastHour(m), uuid: `00000000-0000-4000-8000-6d00000000${String(m).padStart(2, '0')}` }));

describe('a conversation rewritten shorter', () => {
  it('its project last activity is its new last line, and a subscriber is told', async () => {
    const { home } = owned;
    const root = join(home.dir, 'roots', 'claude');
    const file = join(root, 'projects', PROJECT, `${SESSION}.jsonl`);
    writeJsonl(file, lines([2, 3, 4, 5, 6]));
    home.env.STEWARD_CLAUDE_ROOTS = root;
    const core = owned.open();
    await core.call('Sweep.Tick', {});
    const { projects } = await core.call('Projects.List', {});
    expect(projects).toHaveLength(1);
    expect(projects[0]).toMatchObject({ lastActivityAt: inLastHour(6).getTime() });

    const ticks: Array<EventPayload<'sweep.tick'>> = [];
    core.events.subscribe((name, payload) => name === 'sweep.tick' && ticks.push(payload as EventPayload<'sweep.tick'>));
    writeJsonl(file, lines([2, 3, 4]));
    await core.call('Sweep.Tick', {});
    expect((await core.call('Sessions.Get', { sessionId: SESSION })).session).toMatchObject({ lastAt: inLastHour(4).getTime() });
    const after = (await core.call('Projects.List', {})).projects;
    expect(after[0]).toMatchObject({ lastActivityAt: inLastHour(4).getTime(), latestSession: { sessionId: SESSION, lastAt: inLastHour(4).getTime() } });
    expect(ticks.some((t) => t.providers.some((p) => p.provider === 'claude' && p.read === 1))).toBe(true);
  });
});
