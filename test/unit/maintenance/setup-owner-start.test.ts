import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { StewardError, type SetupRequest } from '../../../core/api/index.js';
import type { PlanFacts } from '../../../core/maintenance/index.js';
import { DEFAULT_CONFIG_SNAPSHOT } from '../../../core/maintenance/schema.js';
import { fixture, type Fixture } from './support.js';

/** A machine whose owner a test starts: `enable` confirms a plan with no owner, then starts one and applies. */
function machine() {
  const state = { ownerRunning: false };
  const facts: PlanFacts = {
    service: {
      get ownerRunning() {
        return state.ownerRunning;
      },
      startAtLogin: () => ({ enabled: false, supported: false }),
      installStartAtLogin: () => undefined,
    },
    profiles: {
      profiles: () => ({ default: DEFAULT_CONFIG_SNAPSHOT }),
      boundary: () => ({ boundary: 'local_process', host: null }),
      model: async () => ({ present: true, revision: 'none' }),
      download: async () => undefined,
      smoke: async () => ({ dimensions: 0 }),
    },
    tokenPresent: () => true,
  };
  return { state, facts };
}

async function codeOf(work: () => unknown): Promise<string> {
  try {
    await work();
  } catch (error) {
    return error instanceof StewardError ? error.code : `untyped:${String(error)}`;
  }
  return 'no error';
}

describe('maintenance setup: the plan a person confirmed before Steward ran is the plan applied', () => {
  let f: Fixture;
  afterEach(() => {
    f?.home.cleanup();
    if (f) rmSync(f.caches, { recursive: true, force: true });
  });

  const request: SetupRequest = { repo: 'acme/widgets', policy: { sync: 'off' } };

  it('applies the confirmed id once enable started Steward, names it in the result, and refuses it to an agent', async () => {
    f = fixture();
    const { state, facts } = machine();
    const m = f.open({ planFacts: facts });
    const confirmed = await m.planSetup(request);
    expect(confirmed.effects.map((e) => e.description).join(' ')).toContain('Starts Steward in the background');

    // `enable` starts the owner between the person's yes and the apply: the confirmed plan's own effect.
    state.ownerRunning = true;
    expect(await codeOf(() => m.applySetup({ ...request, planId: confirmed.planId, idempotencyKey: 'agent', confirmedBy: 'agent' }))).toBe('stale_plan');
    const applied = await m.applySetup({ ...request, planId: confirmed.planId, idempotencyKey: 'person', confirmedBy: 'person' });
    expect(applied.planId).toBe(confirmed.planId);
    expect(applied.enrollment).toMatchObject({ completed: true, created: true });
  });

  it('never applies a plan that did not say it would start Steward where Steward must be started', async () => {
    f = fixture();
    const { state, facts } = machine();
    const m = f.open({ planFacts: facts });
    state.ownerRunning = true;
    const withOwner = await m.planSetup(request);
    state.ownerRunning = false;
    const without = await m.planSetup(request);
    expect(without.planId).not.toBe(withOwner.planId);
    expect(without.basis).toBe(withOwner.basis);
  });
});
