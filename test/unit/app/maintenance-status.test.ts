import { describe, expect, it } from 'vitest';
import type { ConflictView } from '../../../core/api/index.js';
import { failingStage, listOf, okStage, registrationStatus } from '../../support/registration-status.js';
import { failureWords } from '../../../core/api/maintenance-words.js';
import { StatusReporter } from '../../../core/app/reports.js';
import { AppState } from '../../../core/app/status.js';
import { formatApplied } from '../../../core/cli/commands/setup.js';

const ok = okStage;
const failing = failingStage;
const registration = registrationStatus;
const list = listOf;

const conflict = {
  conflictId: 'ic_1',
  kind: 'identity_unresolved',
  state: 'open',
  blockedReason: null,
  cacheUuid: null,
  canonicalRepoId: 'github.com/acme/widgets',
  aliases: [],
  legacyIds: [],
  createdAt: 1,
  candidates: [],
} as unknown as ConflictView;

const waiting = { waitingId: 'w_1', request: { repo: 'acme/tools' }, repo: 'acme/tools', askedAt: 1, needs: ['a service'] };

function reporter() {
  const state = new AppState(() => undefined);
  return { state, report: new StatusReporter(state, () => undefined) };
}

describe('maintenance in the status line', () => {
  it('leaves a paused registration out of the errors: its last failure is not a current problem', () => {
    const { state, report } = reporter();
    const paused = registration('reg_p', 'localhost/acme/gadgets', { enabled: false, disabledReason: 'operator', state: 'disabled', stages: { sync: failing('forge_unavailable'), rag: ok } });
    report.maintenance(list([paused]), []);
    expect(state.status).toMatchObject({ state: 'idle', errors: [] });
  });

  it('says a failure in words, with what to do, never as a raw code', () => {
    const { state, report } = reporter();
    const refused = registration('reg_r', 'github.com/acme/widgets', { stages: { sync: failing('forge_unauthorized'), rag: ok } });
    const gitea = registration('reg_g', 'git.example/acme/tools', { forge: { kind: 'gitea', host: 'git.example' }, stages: { sync: failing('forge_unauthorized'), rag: ok } });
    report.maintenance(list([refused, gitea]), []);
    expect(state.status.state).toBe('error');
    expect(state.status.errors.map((e) => e.text)).toEqual([
      'Updating the github.com/acme/widgets cache failed: the forge refused the token: set a new one with `steward secrets set GITHUB_TOKEN`',
      'Updating the git.example/acme/tools cache failed: the forge refused the token: set a new one with `steward secrets set GITEA_TOKEN`',
    ]);
    for (const line of [state.status.message, ...state.status.details]) expect(line).not.toMatch(/forge_[a-z]/);
  });

  it('puts a conflict and a waiting plan, which need the person, before failures in the headline', () => {
    const { state, report } = reporter();
    const broken = registration('reg_b', 'github.com/acme/gadgets', { stages: { sync: failing('forge_unavailable'), rag: ok } });
    report.maintenance(list([broken]), [conflict]);
    expect(state.status).toMatchObject({ state: 'attention', message: 'A cache conflict over github.com/acme/widgets needs your choice' });
    expect(state.status.details).toContain('Updating the github.com/acme/gadgets cache failed: the forge did not answer');
    report.waitingPlans([waiting]);
    expect(state.status).toMatchObject({ state: 'attention', message: '2 things need you' });
    expect(state.status.attention.map((a) => a.kind)).toEqual(['conflict', 'plan-waiting']);
    report.maintenance(list([broken]), []);
    report.waitingPlans([]);
    expect(state.status).toMatchObject({ state: 'error', message: 'Updating the github.com/acme/gadgets cache failed: the forge did not answer' });
  });
});

describe('failure words', () => {
  it('says each forge failure plainly', () => {
    expect(failureWords('forge_unavailable')).toBe('the forge did not answer');
    expect(failureWords('forge_not_found')).toBe('the forge has no such repository (check the owner and name; the base URL answers as the forge API)');
    expect(failureWords('forge_not_found_unchecked')).toBe('the forge has no such repository (check the name and the base URL)');
    expect(failureWords('forge_unauthorized', { kind: 'gitcode' })).toContain('steward secrets set GITCODE_TOKEN');
    expect(failureWords('rate_limited')).toContain('rate limit');
    expect(failureWords('something_new')).toBe('something new');
  });
});

describe('the first pass in `steward maintenance enable`', () => {
  it('says why a first-pass job failed, in the same words', () => {
    const registrationStatus = registration('reg_r', '127.0.0.1/acme/widgets', {
      state: 'degraded',
      stages: { sync: failing('forge_unauthorized'), rag: ok },
      jobs: [{ jobId: 'job_1', stage: 'sync', lane: 'head', state: 'failed', startedAt: 1, finishedAt: 2, errorClass: 'forge_unauthorized', rescheduledAs: null, rescheduledFrom: null }],
    });
    const text = formatApplied({
      planId: 'plan_1',
      status: 'blocked',
      registrationId: 'reg_r',
      repo: '127.0.0.1/acme/widgets',
      enrollment: { completed: true, created: true, cacheCreated: true, updated: false, replayed: false },
      jobs: [{ jobId: 'job_1', stage: 'sync', lane: 'head', state: 'failed', coalesced: false }],
      detached: false,
      history: 'not_synced',
      serviceInstalled: false,
      modelDownloaded: false,
      smoke: null,
      documentFolders: 0,
      registration: registrationStatus,
    });
    expect(text).toContain('the forge refused the token: set a new one with `steward secrets set GITHUB_TOKEN`');
    expect(text).not.toContain('forge_unauthorized');
  });
});

describe('`steward maintenance status` text', () => {
  it('says a failing stage in words, and a paused one as its last failure', async () => {
    const { formatMaintenance } = await import('../../../core/cli/commands/service.js');
    const refused = registration('reg_r', 'github.com/acme/widgets', { stages: { sync: failing('forge_unauthorized'), rag: ok } });
    const paused = registration('reg_p', 'github.com/acme/gadgets', { enabled: false, disabledReason: 'operator', state: 'disabled', stages: { sync: failing('forge_unavailable'), rag: ok } });
    const text = formatMaintenance(list([refused, paused]));
    expect(text).toContain('sync failing 3 times in a row: the forge refused the token: set a new one with `steward secrets set GITHUB_TOKEN` [forge_unauthorized]');
    expect(text).toContain('sync last failed (before the pause): the forge did not answer [forge_unavailable]');
  });
});

describe('the Maintenance card', () => {
  it('says a failing sync in the same words as the status line', async () => {
    const { summary } = await import('../../../renderer/src/places/maintenance/words.js');
    const refused = registration('reg_r', 'github.com/acme/widgets', { stages: { sync: { ...failing('forge_unauthorized'), nextAttemptAt: null }, rag: ok } });
    expect(summary(refused)).toBe('Sync failed 3 times in a row: the forge refused the token: set a new one with `steward secrets set GITHUB_TOKEN`. Next try soon.');
  });
});
