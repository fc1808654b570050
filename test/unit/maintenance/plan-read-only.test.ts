import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SetupRequest } from '../../../core/api/index.js';
import { createMemoryLogger } from '../../../core/log/index.js';
import { planReadOnly, type PlanFacts } from '../../../core/maintenance/index.js';
import { SECRET_FILE } from '../../../core/maintenance/hashing.js';
import { DEFAULT_CONFIG_SNAPSHOT } from '../../../core/maintenance/schema.js';
import { fixture, WIDGETS, type Fixture } from './support.js';

const facts: PlanFacts = {
  service: { ownerRunning: false, startAtLogin: () => ({ enabled: false, supported: true }), installStartAtLogin: () => undefined },
  profiles: {
    profiles: () => ({ default: DEFAULT_CONFIG_SNAPSHOT }),
    boundary: () => ({ boundary: 'local_process', host: null }),
    model: async () => ({ present: true, revision: 'hash' }),
    download: async () => undefined,
    smoke: async () => ({ dimensions: 8 }),
  },
  tokenPresent: () => true,
};

/** Every file under a folder with its bytes and modification time: "nothing changed" made checkable. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const file = join(dir, name);
    const stat = statSync(file);
    out[name] = stat.isFile() ? `${stat.mtimeMs}:${readFileSync(file, 'base64')}` : 'dir';
  }
  return out;
}

describe('maintenance plans read-only, without an owner', () => {
  let f: Fixture;
  afterEach(() => {
    f?.home.cleanup();
    if (f) rmSync(f.caches, { recursive: true, force: true });
  });

  const request: SetupRequest = { repo: 'acme/widgets' };

  it('plans for a home that does not exist without creating it, as the coordinator would plan it', async () => {
    f = fixture();
    const absent = join(f.home.dir, 'not-yet');
    const plan = await planReadOnly(absent, facts, request, createMemoryLogger());
    expect(existsSync(absent)).toBe(false);
    expect(plan).toMatchObject({ action: 'create', status: 'confirmation_required', registrationId: null, blocker: null });
    expect(plan.effects.map((e) => e.description).join(' ')).toContain('Starts Steward in the background');
    expect(await f.open({ planFacts: facts }).planSetup(request)).toEqual(plan);
  });

  it('plans from an existing registry without writing a byte, with the id the coordinator gives', async () => {
    f = fixture();
    const m = f.open({ planFacts: facts });
    m.enroll({ cachePath: f.cache('a.db', [WIDGETS]), repo: 'acme/widgets', idempotencyKey: 'e1' });
    const change: SetupRequest = { ...request, policy: { sync: 'off' } };
    const expected = await m.planSetup(change);
    const before = snapshot(f.home.dir);
    const plan = await planReadOnly(f.home.dir, facts, change, createMemoryLogger());
    expect(plan).toEqual(expected);
    expect(plan).toMatchObject({ action: 'update', registrationId: expect.stringMatching(/^reg_/), blocker: null });
    expect(snapshot(f.home.dir)).toEqual(before);
  });

  it('reads a version-1 registry as the owner would migrate it, leaving the file (and no backup) as it was', async () => {
    f = fixture();
    const gizmos = f.cache('g.db', [{ repoId: 'github.com/acme/gizmos', aliases: ['acme/gizmos'] }]);
    const fixtures = join(import.meta.dirname, '..', '..', 'fixtures', 'maintenance');
    const values: Record<string, string> = { CACHE_A: f.cache('a.db', [WIDGETS]), CACHE_B: gizmos, CACHE_C: f.cache('c.db', []), MISSING: join(f.caches, 'none.db') };
    values.CACHE_C_COPY = f.copy(values.CACHE_C!, 'c-copy.db');
    const text = readFileSync(join(fixtures, 'registry-v1.json'), 'utf8').replace(/\$\{([A-Z_]+)\}/g, (_, key: string) => values[key]!);
    writeFileSync(join(f.home.dir, SECRET_FILE), 'ab'.repeat(32));
    writeFileSync(join(f.home.dir, 'managed-caches.json'), text);
    const before = snapshot(f.home.dir);
    const change: SetupRequest = { repo: 'acme/gizmos', policy: { sync: 'off' } };
    const plan = await planReadOnly(f.home.dir, facts, change, createMemoryLogger());
    expect(snapshot(f.home.dir)).toEqual(before);
    expect(existsSync(join(f.home.dir, 'managed-caches.json.v1.bak'))).toBe(false);
    expect(await f.open({ planFacts: facts }).planSetup(change)).toEqual(plan);
  });
});
