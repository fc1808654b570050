import { describe, expect, it } from 'vitest';
import type { RegistrationStatus } from '../../../core/api/index.js';
import { failureWords, frontierWords, generationWords } from '../../../core/api/maintenance-words.js';
import { StatusReporter } from '../../../core/app/reports.js';
import { AppState } from '../../../core/app/status.js';
import { formatMaintenance } from '../../../core/cli/commands/service.js';
import { summary } from '../../../renderer/src/places/maintenance/words.js';
import { failingStage, listOf, okStage, registrationStatus } from '../../support/registration-status.js';

const ok = okStage;
const failing = (errorClass: string) => ({ ...failingStage(errorClass), nextAttemptAt: null });
const list = listOf;

/** A github.com repository not synced yet, with history backfilled. */
function registration(over: Partial<RegistrationStatus> = {}): RegistrationStatus {
  return registrationStatus('reg_1', 'github.com/acme/widgets', { policy: { sync: 'head-and-backfill', collections: ['issues'], rag: 'off', profile: 'default' }, state: 'pending', generations: { content: null, covered: null }, ...over });
}

describe('a forge that answers 404 for a repository', () => {
  const enterprise = { kind: 'github' as const, host: 'ghe.example.com' };
  const selfHosted = [enterprise, { kind: 'gitea', host: 'git.example:3000' }];

  it('names the API root a self-hosted forge needs when Steward could not check the root', () => {
    expect(failureWords('forge_not_found_unchecked', enterprise)).toContain("then the forge's API address (base URL): GitHub Enterprise needs https://ghe.example.com/api/v3");
    expect(failureWords('forge_not_found_unchecked', { kind: 'gitea', host: 'git.example:3000' })).toContain("then the forge's API address (base URL): Gitea needs https://git.example:3000/api/v1");
  });

  it('names the setting, not a command-line flag: the words reach MCP and the panel too', () => {
    for (const errorClass of ['forge_not_found', 'forge_not_found_unchecked', 'forge_api_root']) {
      for (const forge of [...selfHosted, { kind: 'github', host: 'github.com' }, { kind: 'gitea' }, null]) expect(failureWords(errorClass, forge)).not.toMatch(/--|base_url/);
    }
    expect(failureWords('forge_api_root', null)).toBe("the base URL is not the forge's API root: check the forge's API address (base URL)");
  });

  it('says nothing of --base-url when the root answered as the API root: only the name can be wrong', () => {
    for (const forge of selfHosted) {
      expect(failureWords('forge_not_found', forge)).not.toContain('--base-url');
      expect(failureWords('forge_not_found', forge)).toBe('the forge has no such repository (check the owner and name; the base URL answers as the forge API)');
    }
  });

  it('leaves the hint out where the base URL is Steward’s own', () => {
    for (const forge of [{ kind: 'github', host: 'github.com' }, { kind: 'gitcode', host: 'gitcode.com' }, null]) {
      expect(failureWords('forge_not_found', forge)).not.toContain('--base-url');
      expect(failureWords('forge_not_found_unchecked', forge)).not.toContain('--base-url');
    }
  });

  it('says the hint in the status line, within its bound, only when the root was not checked', () => {
    const state = new AppState(() => undefined);
    const broken = (errorClass: string) => registration({ canonicalRepoId: 'ghe.example.com/acme/widgets', forge: enterprise, state: 'degraded', stages: { sync: failing(errorClass), rag: ok } });
    new StatusReporter(state, () => undefined).maintenance(list([broken('forge_not_found_unchecked')]), []);
    expect(state.status.message).toContain('GitHub Enterprise needs https://ghe.example.com/api/v3');
    new StatusReporter(state, () => undefined).maintenance(list([broken('forge_not_found')]), []);
    expect(state.status.message).not.toContain('GitHub Enterprise needs');
  });
});

describe('a paused registration on the Maintenance card', () => {
  it('still says why its last sync failed, marked as from before the pause', () => {
    const paused = registration({ enabled: false, disabledReason: 'operator', state: 'disabled', stages: { sync: failing('forge_unavailable'), rag: failing('embedder_unavailable') } });
    expect(summary(paused)).toBe(
      'Paused: nothing is scheduled until you resume it. Before the pause, the last sync failed: the forge did not answer; the last search index run failed: the embedding service did not answer.',
    );
  });

  it('a blocked one too, and one that never failed says only that it is paused', () => {
    const blocked = registration({ enabled: false, disabledReason: 'config_snapshot_invalid', state: 'blocked', stages: { sync: failing('forge_unauthorized'), rag: ok } });
    expect(summary(blocked)).toBe('Blocked: config snapshot invalid. Before it was blocked, the last sync failed: the forge refused the token: set a new one with `steward secrets set GITHUB_TOKEN`.');
    expect(summary(registration({ enabled: false, disabledReason: 'operator', state: 'disabled' }))).toBe('Paused: nothing is scheduled until you resume it.');
  });
});

describe('`steward service maintenance` text', () => {
  const fresh = registration({
    frontiers: [
      { collection: 'issues', lane: 'tail', nextPage: null, watermark: null, complete: false },
      { collection: 'issues', lane: 'head', nextPage: 3, watermark: null, complete: false },
    ],
    collections: [{ collection: 'issues', items: 0, tombstones: 0, skipped: 0, head: { state: 'never', freshAt: null }, tail: { state: 'backfilling', pagesDone: 0, pagesKnown: null, verifiedAt: null }, reason: 'token_missing' }],
  });

  it('says what has not happened yet in words, never a "-" placeholder or key=value', () => {
    const text = formatMaintenance(list([fresh]));
    expect(text).not.toMatch(/(^|\s)-(\s|$)/m);
    expect(text).not.toMatch(/\w=\S/);
    expect(text).toContain('Issues, history: not started');
    expect(text).toContain('Issues, recent changes: next page 3');
    expect(text).toContain('content generation: no content yet');
    expect(text).toContain('Not synced yet');
    expect(text).toContain('no token');
    expect(text).not.toContain('token_missing');
  });

  it('says the frontier and generation as the panel’s Details do', () => {
    expect(frontierWords({ collection: 'wiki', lane: 'tail', nextPage: null, complete: false })).toBe('Wiki, history: not started');
    expect(frontierWords({ collection: 'pulls', lane: 'head', nextPage: null, complete: true })).toBe('Pull requests, recent changes: complete');
    expect(generationWords({ content: 4, covered: null }, 'maintain')).toBe('4 (not indexed yet)');
    expect(generationWords({ content: 4, covered: 3 }, 'maintain')).toBe('4 (indexed up to 3)');
    expect(generationWords({ content: 4, covered: 4 }, 'maintain')).toBe('4 (indexed)');
    expect(generationWords({ content: 4, covered: null }, 'off')).toBe('4 (search index off)');
  });

  it('keeps a paused registration’s last failure, in words with its class for scripts', () => {
    const paused = registration({ enabled: false, disabledReason: 'operator', state: 'disabled', stages: { sync: failing('forge_unavailable'), rag: ok } });
    expect(formatMaintenance(list([paused]))).toContain('sync last failed (before the pause): the forge did not answer [forge_unavailable]');
  });
});
