import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Core } from '../../../core/index.js';
import type { ForgetKind } from '../../../core/api/index.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

/**
 * An export left open (a first piece given, `next` to come) and a forget meanwhile: the next piece
 * gives nothing more of what was forgotten. A conversation with a long subagent (about 2.9 MB of
 * text, so both its export and the subagent's alone come in several pieces), and another
 * conversation in another project, as long, whose export a forget of the first leaves open.
 */
const PARENT = '7d0e4f1a-2b3c-4d5e-8f60-718293a4b5c6';
const AGENT = 'a1b2c3d4e5f60718';
const SUBAGENT = `${PARENT}:agent-${AGENT}`;
const OTHER = '7d0e4f1a-0000-4d5e-8f60-000000000002';
const TURNS = 420;
const FORGOTTEN_WORD = 'quincelattice';
const uuidOf = (tag: number, n: number) => `7d0e4f1a-${tag.toString(16).padStart(4, '0')}-4000-8000-${n.toString(16).padStart(12, '0')}`;
const long = (n: number, word: string) => `Turn ${n}: ${`the ${word} orchard ledger lists every graft and its rootstock. `.repeat(110)}`;

let home: TempHome;
let core: Core;

beforeAll(async () => {
  home = tempHome('steward-export-forget-');
  const root = join(home.dir, 'roots', 'claude');
  const start = Date.now() - 86_400_000;
  const at = (n: number) => new Date(start + n * 1000);
  const dir = join(root, 'projects', '-work-quince');
  writeJsonl(join(dir, `${PARENT}.jsonl`), [
    claudeLine({ sessionId: PARENT, cwd: '/work/quince', ts: at(0), uuid: uuidOf(1, 0), text: `Survey the ${FORGOTTEN_WORD} rows` }),
    claudeLine({ sessionId: PARENT, cwd: '/work/quince', ts: at(1), type: 'assistant', uuid: uuidOf(1, 1), text: 'Starting a subagent for it.' }),
  ]);
  writeJsonl(
    join(dir, PARENT, 'subagents', `agent-${AGENT}.jsonl`),
    Array.from({ length: TURNS }, (_, n) =>
      claudeLine({ sessionId: PARENT, agentId: AGENT, cwd: '/work/quince', ts: at(2 + n), type: n % 2 === 0 ? 'user' : 'assistant', uuid: uuidOf(2, n), text: long(n, FORGOTTEN_WORD) }),
    ),
  );
  writeJsonl(
    join(root, 'projects', '-work-kept', `${OTHER}.jsonl`),
    Array.from({ length: TURNS }, (_, n) => claudeLine({ sessionId: OTHER, cwd: '/work/kept', ts: at(n), type: n % 2 === 0 ? 'user' : 'assistant', uuid: uuidOf(3, n), text: long(n, 'kept') })),
  );
  home.env.STEWARD_CLAUDE_ROOTS = root;
  core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
});

afterAll(async () => {
  await core?.shutdown();
  home?.cleanup();
});

/** Every test starts with nothing forgotten and everything imported. */
beforeEach(async () => {
  for (const t of (await core.call('Forget.List', {})).tombstones) await core.call('Forget.Lift', { kind: t.kind, id: t.id });
  await core.call('Backfill.Run', { all: true });
});

async function opened(sessionId: string, format: 'markdown' | 'json' = 'markdown'): Promise<string> {
  const first = await core.call('Sessions.Export', { sessionId, format });
  expect(first.content).toContain(FORGOTTEN_WORD);
  expect(first.next).not.toBeNull();
  return first.next!;
}

const forget = (kind: ForgetKind, id: string, scrub = false) =>
  kind === 'session' ? core.call('Forget.Session', { sessionId: id, ...(scrub ? { scrub } : {}) }) : core.call('Forget.Project', { projectKey: id, ...(scrub ? { scrub } : {}) });

const closedForForgetting = { code: 'not_found', message: expect.stringMatching(/this conversation was forgotten/i) as unknown };

describe('an export open when its conversation is forgotten', () => {
  it('Markdown: the next piece says it was forgotten; an export of another conversation goes on', async () => {
    const next = await opened(PARENT);
    const other = (await core.call('Sessions.Export', { sessionId: OTHER })).next!;
    await forget('session', PARENT);
    await expect(core.call('Sessions.ExportNext', { next })).rejects.toMatchObject(closedForForgetting);
    // Asked again, the token is no longer open at all.
    await expect(core.call('Sessions.ExportNext', { next })).rejects.toMatchObject({ code: 'not_found' });
    expect((await core.call('Sessions.ExportNext', { next: other })).content).toContain('kept orchard');
  });

  it('JSON, forgotten with --scrub: a subagent exported alone is closed with its parent', async () => {
    const next = await opened(SUBAGENT, 'json');
    await forget('session', PARENT, true);
    await expect(core.call('Sessions.ExportNext', { next })).rejects.toMatchObject(closedForForgetting);
  });

  it('forgetting a subagent closes the export of the conversation that holds it', async () => {
    const next = await opened(PARENT, 'json');
    await forget('session', SUBAGENT);
    await expect(core.call('Sessions.ExportNext', { next })).rejects.toMatchObject(closedForForgetting);
  });

  it('forgetting the project closes its conversations’ exports, and only theirs', async () => {
    const next = await opened(PARENT);
    const other = (await core.call('Sessions.Export', { sessionId: OTHER })).next!;
    const projectKey = (await core.call('Sessions.Get', { sessionId: PARENT, limit: 1 })).session.projectKey!;
    await forget('project', projectKey, true);
    await expect(core.call('Sessions.ExportNext', { next })).rejects.toMatchObject(closedForForgetting);
    expect((await core.call('Sessions.ExportNext', { next: other })).content).toContain('kept orchard');
  });

  it('a piece being written when the forget comes is not given', async () => {
    const next = await opened(PARENT);
    // Caught at once: it fails while the forget runs, before the expect below awaits it.
    const piece = core.call('Sessions.ExportNext', { next }).catch((error: unknown) => error);
    await forget('session', PARENT);
    expect(await piece).toMatchObject(closedForForgetting);
  });
});
