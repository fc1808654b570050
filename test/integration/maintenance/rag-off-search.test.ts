import { afterEach, describe, expect, it } from 'vitest';
import { DEGRADED_TEXT, degradedText } from '../../../core/api/index.js';
import { ragRig, type RagRig } from './rag-rig.js';

const NEW_ISSUE = {
  id: 2199999998,
  number: 998,
  title: 'Spellcheck underlines every word after switching dictionaries',
  body: 'Switching the spellcheck dictionary from English to German leaves every word underlined until a restart.',
  state: 'open',
  labels: [{ name: 'bug' }],
  user: { login: 'zoe-q' },
  comments: 0,
  created_at: '2024-06-02T10:00:00Z',
  updated_at: '2024-06-02T10:00:00Z',
  closed_at: null,
  html_url: 'https://github.com/inkwell-app/inkwell/issues/998',
};

describe('repository search where search indexing is off', () => {
  let rig: RagRig | undefined;
  afterEach(() => {
    rig?.cleanup();
    rig = undefined;
  });

  it('says indexing is off and how to turn it on, not that a first run is pending', async () => {
    rig = ragRig({ issues: 5, wiki: false, policy: { rag: 'off' } });
    await rig.maintenance.reconcile();
    const answer = await rig.search('blank window');
    expect(answer.degraded).toBe('rag_off');
    expect(DEGRADED_TEXT.rag_off).toMatch(/search indexing is off for this repository/);
    expect(DEGRADED_TEXT.rag_off).not.toMatch(/first index run/);
    // The command names this repository, not a placeholder.
    expect(answer.remedy).toBe('steward rag enable --repo inkwell-app/inkwell');
    expect(degradedText(answer)).toBe('search indexing is off for this repository; turn it on with `steward rag enable --repo inkwell-app/inkwell`');
  });

  it('keeps the word matches of an index built before indexing was turned off, and says no run will come', async () => {
    rig = ragRig({ issues: 12, wiki: false });
    await rig.maintenance.reconcile();
    rig.reconfigure(rig.registration().configSnapshot, { rag: 'off' });
    const w = rig.writer();
    w.issue(NEW_ISSUE);
    w.close();
    const answer = await rig.search('blank window wayland');
    expect(answer.degraded).toBe('rag_off');
    expect(answer.hits.length).toBeGreaterThan(0);
    expect(answer.hits.every((h) => h.matchedBy.includes('words') && !h.matchedBy.includes('meaning'))).toBe(true);
  });
});
