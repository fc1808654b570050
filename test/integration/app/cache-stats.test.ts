import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { coreHome } from '../../support/core.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/transcripts/codex/', import.meta.url));
/** A Codex rollout and a fork of it (a branch: a conversation of its own, which names its parent). */
const ROLLOUTS = ['rollout-2026-07-13T18-41-30-019f5c5a-eb02-7ff0-90af-653b66eba9f4.jsonl', 'rollout-2026-07-13T19-20-00-019f5c7e-2b10-7a44-8c01-9d8e7f6a5b4c.jsonl'];

const temp = coreHome('steward-cache-stats-');

describe('the conversations Steward says it holds', () => {
  it('are the ones it lists: a fork counts as a conversation in the totals as in every list', async () => {
    const codexRoot = join(temp.home.dir, 'codex');
    const day = join(codexRoot, 'sessions', '2026', '07', '13');
    mkdirSync(day, { recursive: true });
    for (const name of ROLLOUTS) copyFileSync(join(FIXTURES, name), join(day, name));
    const core = temp.open({ env: { STEWARD_CODEX_ROOTS: codexRoot } });
    await core.call('Backfill.Run', { all: true });
    const listed = (await core.call('Sessions.List', { limit: 50 })).sessions;
    expect(listed.map((s) => s.parentKind ?? null).sort()).toEqual(['branch', null]);
    const projects = (await core.call('Projects.List', {})).projects;
    expect((await core.call('Cache.Stats', {})).conversations).toBe(listed.length);
    expect(projects.reduce((n, p) => n + p.sessions, 0)).toBe(listed.length);
  });
});
