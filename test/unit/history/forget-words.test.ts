import { describe, expect, it } from 'vitest';
import { localDay } from '../../../core/api/index.js';
import { formatForget } from '../../../core/cli/commands/forget.js';
import { formatUnforget } from '../../../core/cli/commands/unforget.js';

const KEY = 'p_ea4ed61882dcc46a';

describe('steward forget: what went, in a person’s words', () => {
  it('a conversation: its subagents only when it had some, and never a count of parts', () => {
    const alone = formatForget({ kind: 'session', id: 's1', removedParts: 5, removedSessions: 1, notesRemoved: false });
    expect(alone).toBe('Forgot conversation s1: deleted it from Steward. It stays out of future imports; `steward unforget --session s1` lifts that.\n');
    expect(formatForget({ kind: 'session', id: 's1', removedParts: 11, removedSessions: 3, notesRemoved: false })).toMatch(/^Forgot conversation s1: deleted it and its 2 subagents from Steward\. /);
    for (const text of [alone]) expect(text).not.toMatch(/\bparts?\b|subagents included/);
  });

  it('a project by its name, its key beside it, counting conversations and the subagents with them', () => {
    const result = { kind: 'project', id: KEY, removedParts: 40, removedSessions: 5, notesRemoved: true } as const;
    expect(formatForget(result, { name: 'notes', conversations: 3 })).toBe(
      `Forgot project notes (${KEY}): deleted its 3 conversations (with 2 subagents) and its notes from Steward. It stays out of future imports; \`steward unforget --project ${KEY}\` lifts that.\n`,
    );
    expect(formatForget({ ...result, removedSessions: 1, notesRemoved: false }, { name: 'notes', conversations: 1 })).toMatch(/^Forgot project notes \(p_ea4ed61882dcc46a\): deleted its 1 conversation from Steward\. /);
    // A key no project listed: no name to give, and its rows counted as they were stored.
    expect(formatForget(result)).toMatch(/^Forgot project p_ea4ed61882dcc46a: deleted its 5 sessions and its notes from Steward\. /);
    expect(formatForget({ ...result, removedSessions: 0, notesRemoved: false })).toMatch(/^Forgot project p_ea4ed61882dcc46a: nothing was stored\. /);
  });

  it('a listed project that held no conversation: its row went, said so, not "nothing was stored"', () => {
    const empty = { kind: 'project', id: KEY, removedParts: 0, removedSessions: 0, notesRemoved: false } as const;
    expect(formatForget(empty, { name: 'notes', conversations: 0 })).toBe(
      `Removed the empty project notes (${KEY}); it held no conversations. It stays out of future imports; \`steward unforget --project ${KEY}\` lifts that.\n`,
    );
    expect(formatForget({ ...empty, notesRemoved: true }, { name: 'notes', conversations: 0 })).toMatch(/^Removed the empty project notes \(p_ea4ed61882dcc46a\) and its notes; it held no conversations\. /);
  });
});

describe('steward unforget: what lifting did, in a person’s words', () => {
  const at = Date.UTC(2026, 10, 4, 12);

  it('a project unforgotten while its forget was erasing: its notes went with the forget it cut short, and how they come back', () => {
    expect(formatUnforget({ lifted: true, notesRemoved: true }, { kind: 'project', id: KEY }, 'project key')).toBe(
      `Lifted: \`steward backfill --all\` imports that project. Its notes (OVERVIEW.md, CHANGELOG.md) were removed when the forget this cut short began, and do not come back with it: the sweeper writes them again at the project's next sweep, best after that backfill (\`steward sweeper run ${KEY}\` runs one now).\n`,
    );
    expect(formatUnforget({ lifted: true }, { kind: 'project', id: KEY }, 'project key')).toBe('Lifted: `steward backfill --all` imports that project.\n');
    expect(formatUnforget({ lifted: false }, { kind: 'project', id: 'orchard' }, 'project name')).toBe('Nothing was forgotten under that project name.\n');
  });

  it('a conversation another record still keeps out: whose record, and the way back through it', () => {
    const project = { kind: 'project', id: KEY, label: 'orchard', createdAt: at, via: 'project' } as const;
    expect(formatUnforget({ lifted: true, stillOut: project }, { kind: 'session', id: 's1' }, 'conversation id')).toMatch(
      new RegExp(`^Lifted this conversation's own forget, but it stays out of future imports: you forgot the project orchard \\(${KEY}\\) this conversation was in on ${localDay(at)}; \`steward unforget --project ${KEY}\` brings it back\\.\n$`),
    );
    const parent = { kind: 'session', id: 'p1', label: null, createdAt: at, via: 'parent' } as const;
    expect(formatUnforget({ lifted: true, stillOut: parent }, { kind: 'session', id: 'p1:agent-a' }, 'conversation id')).toContain(
      'it stays out of future imports: you forgot the conversation this subagent belongs to (p1) on',
    );
    expect(formatUnforget({ lifted: true }, { kind: 'session', id: 's1' }, 'conversation id')).toBe('Lifted: `steward backfill --all` imports that conversation.\n');
  });
});
