import { describe, expect, it } from 'vitest';
import { mergeSession, type CommittedSession, type SessionUpdate } from '../../../core/gateway/sessions.js';
import { blankSession } from '../../../core/transcripts/index.js';

const held: CommittedSession = {
  source: '/root',
  project_key: null,
  cwd: null,
  project_cwd: null,
  parent_session_id: null,
  parent_kind: null,
  agent_type: null,
  title: null,
  title_source: null,
  model: null,
  first_request: 'original prompt walrus',
  first_ts: 1_000,
  last_ts: 2_000,
};

const read = (firstRequest: string, firstTs: number, more: Partial<SessionUpdate> = {}): SessionUpdate => ({
  ...blankSession('s', 'claude', '/root'),
  firstRequest,
  firstTs,
  lastTs: 2_000,
  ...more,
});

describe('mergeSession: the first request against the parts a read leaves stored', () => {
  it('a read that does not refresh parts keeps the request held when it met no earlier line', () => {
    expect(mergeSession(read('changed prompt seal', 1_000), held, true)?.firstRequest).toBe('original prompt walrus');
  });

  it('a line earlier than any held gives the request, refreshing or not', () => {
    expect(mergeSession(read('earlier prompt', 500), held, true)?.firstRequest).toBe('earlier prompt');
  });

  it('a refreshing read that met the earliest line held rewrites the request with the parts', () => {
    const reread = { firstRequest: 'changed prompt seal', firstTs: 1_000, lastTs: 2_000 };
    expect(mergeSession(read('changed prompt seal', 1_000, { reread }), held, true)?.firstRequest).toBe('changed prompt seal');
    // Not spanning the session (a later line held elsewhere) but meeting its start: still the read's.
    const partial = { ...reread, lastTs: 1_500 };
    expect(mergeSession(read('changed prompt seal', 1_000, { reread: partial, lastTs: 1_500 }), held, true)?.firstRequest).toBe('changed prompt seal');
  });

  it('a session held without a request takes the read\'s', () => {
    expect(mergeSession(read('first words', 1_000), { ...held, first_request: null }, true)?.firstRequest).toBe('first words');
  });
});
