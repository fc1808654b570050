import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { projectPaths } from '../../../core/sweeper/index.js';
import { readState } from '../../../core/sweeper/state.js';
import { FIXTURES, harness, tempHome } from '../../integration/sweeper/helpers.js';
import { expectGolden } from '../../support/golden.js';

const GOLDEN = join(FIXTURES, 'golden', 'offline');


describe('offline extractive curator', () => {
  const homes: Array<() => void> = [];
  afterEach(() => homes.splice(0).forEach((c) => c()));

  it('matches the golden OVERVIEW.md and CHANGELOG.md byte for byte, and never writes CLAUDE.md', async () => {
    const home = tempHome();
    homes.push(home.cleanup);
    const { sweeper, fixture } = harness(home.dir);
    const result = await sweeper.run(fixture.project.projectKey);
    expect(result).toMatchObject({ outcome: 'ok', mode: 'offline', calls: 0, overview: 'written', changelog: 'appended', factsAdded: 0 });
    const paths = projectPaths(home.dir, fixture.project.slug);
    expectGolden(GOLDEN, 'OVERVIEW.md', readFileSync(paths.overview, 'utf8'));
    expectGolden(GOLDEN, 'CHANGELOG.md', readFileSync(paths.changelog, 'utf8'));
    expect(existsSync(paths.claude)).toBe(false);
  });

  it("says in its header that a person's own lines are kept, without writing a manual marker of its own", async () => {
    const home = tempHome();
    homes.push(home.cleanup);
    const { sweeper, fixture } = harness(home.dir);
    await sweeper.run(fixture.project.projectKey);
    const text = readFileSync(projectPaths(home.dir, fixture.project.slug).overview, 'utf8');
    expect(text.split('\n')[2]).toMatch(/lines you add .* are kept/);
    expect(text).not.toContain('<!--');
  });

  it('is deterministic: a second home gets identical bytes', async () => {
    const a = tempHome();
    const b = tempHome();
    homes.push(a.cleanup, b.cleanup);
    const first = harness(a.dir);
    const second = harness(b.dir);
    await first.sweeper.run(first.fixture.project.projectKey);
    await second.sweeper.run(second.fixture.project.projectKey);
    const read = (home: string) => readFileSync(projectPaths(home, first.fixture.project.slug).overview, 'utf8');
    expect(read(a.dir)).toBe(read(b.dir));
  });

  it('a forced sweep with nothing new since the last one redoes the overview but adds no changelog entry', async () => {
    const home = tempHome();
    homes.push(home.cleanup);
    const { sweeper, source, fixture } = harness(home.dir);
    const key = fixture.project.projectKey;
    const paths = projectPaths(home.dir, fixture.project.slug);
    await sweeper.run(key);
    const changelog = readFileSync(paths.changelog, 'utf8');
    const { watermark } = readState(paths.state);
    // Sweep anyway (the panel's button, `steward sweeper run --force`) right after a sweep.
    await expect(sweeper.run(key, { force: true })).resolves.toMatchObject({ outcome: 'nochange', reason: 'nothing-new', overview: 'unchanged', changelog: 'none' });
    expect(readFileSync(paths.changelog, 'utf8')).toBe(changelog);
    // The newest conversation is forgotten: the last remaining activity is a day older than the watermark.
    source.entries.get(key)!.sessions.shift();
    await expect(sweeper.run(key, { force: true })).resolves.toMatchObject({ outcome: 'ok', reason: 'nothing-new', overview: 'written', changelog: 'none' });
    expect(readFileSync(paths.overview, 'utf8')).not.toContain('frost-date lookup');
    expect(readFileSync(paths.changelog, 'utf8')).toBe(changelog);
    expect(readState(paths.state).watermark).toBe(watermark);
  });

  it('redacts every fixture secret from what it writes', async () => {
    const home = tempHome();
    homes.push(home.cleanup);
    const { sweeper, fixture } = harness(home.dir);
    await sweeper.run(fixture.project.projectKey);
    const paths = projectPaths(home.dir, fixture.project.slug);
    const written = readFileSync(paths.overview, 'utf8') + readFileSync(paths.changelog, 'utf8');
    for (const secret of Object.entries(fixture.secrets).filter(([k]) => k !== 'envName').map(([, v]) => v)) expect(written).not.toContain(secret);
  });
});
