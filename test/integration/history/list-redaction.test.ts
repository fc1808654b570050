import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../core/core.js';
import { coreHome } from '../../support/core.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

/**
 * `redact` on the lists (Sessions.List, Projects.List), which the panel and the CLI ask for: a title and
 * a first request are redacted, the request read whole before it is cut, so a token capture's first
 * request (200 characters) was cut through shows none of it. Without `redact` the names are as stored.
 */
const TOKEN = `ghp_${'Zq7Lm2Xw9K'.repeat(4).slice(0, 36)}`;
/** Any run of the token's characters long enough to be part of it, not chance. */
const TOKEN_PIECE = TOKEN.slice(0, 10);
const CUT = 'c07c07c0-0000-4000-8000-000000000001';
const TITLED = 'c07c07c0-0000-4000-8000-000000000002';
/** Conversations of a long list, each first request a few thousand characters (redacted a chunk at a time). */
const MANY = 60;

const temp = coreHome('steward-list-redaction-', { shared: true });
let core: Core;

beforeAll(async () => {
  const { home } = temp;
  const root = join(home.dir, 'roots', 'claude');
  const t = Date.now() - 3_600_000;
  const at = (s: number) => new Date(t + s * 1_000);
  // Older than the rest, so each is the latest of a project of its own.
  writeJsonl(join(root, 'projects', '-work-cut', `${CUT}.jsonl`), [claudeLine({ sessionId: CUT, cwd: '/work/cut', ts: at(0), text: `${'word '.repeat(38)}${TOKEN} opens the door` })]);
  writeJsonl(join(root, 'projects', '-work-titled', `${TITLED}.jsonl`), [
    { type: 'custom-title', customTitle: `Rotate ${TOKEN}`, sessionId: TITLED },
    claudeLine({ sessionId: TITLED, cwd: '/work/titled', ts: at(1), text: 'Rotate the key' }),
  ]);
  for (let i = 0; i < MANY; i += 1) {
    const id = `c07c07c0-1111-4000-8000-${i.toString(16).padStart(12, '0')}`;
    writeJsonl(join(root, 'projects', '-work-many', `${id}.jsonl`), [claudeLine({ sessionId: id, cwd: '/work/many', ts: at(10 + i), text: `Question ${i}: ${'lorem ipsum '.repeat(300)}` })]);
  }
  home.env.STEWARD_CLAUDE_ROOTS = root;
  home.env.STEWARD_OPENCLAW_ROOTS = '';
  core = temp.open();
  await core.call('Backfill.Run', { all: true });
}, 60_000);

describe('Sessions.List with redact', () => {
  it('redacts titles and first requests, a request before it is cut; without redact the labels are as stored', async () => {
    const raw = await core.call('Sessions.List', { limit: 200 });
    expect(raw.sessions.find((s) => s.sessionId === TITLED)!.title).toBe(`Rotate ${TOKEN}`);
    expect(raw.sessions.find((s) => s.sessionId === CUT)!.firstRequest).toContain(TOKEN_PIECE);
    const redacted = await core.call('Sessions.List', { limit: 200, redact: true });
    expect(redacted.sessions.map((s) => s.sessionId)).toEqual(raw.sessions.map((s) => s.sessionId));
    expect(JSON.stringify(redacted)).not.toContain(TOKEN_PIECE);
    expect(redacted.sessions.find((s) => s.sessionId === TITLED)).toMatchObject({ title: 'Rotate [REDACTED]', firstRequest: 'Rotate the key' });
    expect(redacted.sessions.find((s) => s.sessionId === CUT)!.firstRequest).toMatch(/^word word .*\[REDACTED\] opens the door$/);
  });

  it('yields the event loop while it redacts a long page, and its cursor goes on with a raw listing too', async () => {
    let turns = 0;
    let counting = true;
    const count = () => {
      turns += 1;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const page = await core.call('Sessions.List', { limit: MANY, redact: true });
    counting = false;
    expect(page.sessions).toHaveLength(MANY);
    // 60 first requests of about 3,600 characters: several secretlint passes, a turn of the loop after each.
    expect(turns).toBeGreaterThan(3);
    const rest = await core.call('Sessions.List', { limit: MANY, cursor: page.cursor! });
    expect(rest.sessions.map((s) => s.sessionId).sort()).toEqual([CUT, TITLED].sort());
  });
});

describe('Projects.List with redact', () => {
  it('names each latest conversation with its secrets redacted, a first request before it is cut; without redact, as stored', async () => {
    const byCwd = (projects: Array<{ cwd: string; latestSession?: { name: string | null } | null }>, cwd: string) => projects.find((p) => p.cwd === cwd)!.latestSession!.name;
    const raw = (await core.call('Projects.List', {})).projects;
    expect(byCwd(raw, '/work/titled')).toBe(`Rotate ${TOKEN}`);
    expect(byCwd(raw, '/work/cut')).toContain(TOKEN_PIECE);
    const redacted = (await core.call('Projects.List', { redact: true })).projects;
    expect(redacted.map((p) => p.projectKey)).toEqual(raw.map((p) => p.projectKey));
    expect(JSON.stringify(redacted)).not.toContain(TOKEN_PIECE);
    expect(byCwd(redacted, '/work/titled')).toBe('Rotate [REDACTED]');
    expect(byCwd(redacted, '/work/cut')).toMatch(/^word word .*\[REDACTED\] opens the door$/);
    expect(byCwd(redacted, '/work/many')).toMatch(/^Question 59: lorem ipsum/);
  });
});

describe('Forget.List', () => {
  it('keeps a forgotten conversation’s label redacted, in the list and in the store; a label kept raw before is listed redacted', async () => {
    await core.call('Forget.Session', { sessionId: TITLED });
    await core.call('Forget.Session', { sessionId: CUT });
    // A tombstone written before labels were redacted.
    const OLD = 'c07c07c0-2222-4000-8000-000000000001';
    core.gateway.prepare('INSERT INTO history_tombstones (kind, id, label, created_at) VALUES (?, ?, ?, ?)').run('session', OLD, `Paste ${TOKEN} here`, Date.now());

    const { tombstones } = await core.call('Forget.List', {});
    const label = (id: string) => tombstones.find((t) => t.id === id)!.label;
    expect(JSON.stringify(tombstones)).not.toContain(TOKEN_PIECE);
    expect(label(TITLED)).toBe('Rotate [REDACTED]');
    // Redacted whole, then cut to a label's 200 characters.
    expect(label(CUT)).toMatch(/^word word .*\[RED/);
    expect(label(OLD)).toBe('Paste [REDACTED] here');
    // The label outlives the conversation: the store keeps none of the secret of what was forgotten.
    const stored = core.gateway.prepare('SELECT label FROM history_tombstones WHERE id IN (?, ?)').pluck().all(TITLED, CUT) as string[];
    expect(stored).toHaveLength(2);
    expect(stored.join(' ')).not.toContain(TOKEN_PIECE);
  });
});
