import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../../core/index.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

/**
 * QA: a Claude line written without a `timestamp` moved to the top of its conversation (`sessions
 * show` printed "Assistant · —" before the first request). A part with no time sits where its line is
 * in the file, after the part before it, on every page, in either direction, opened at it, and exported.
 */
const SESSION = '5e000000-0000-4000-8000-000000000001';
const CWD = '/work/ledger';
const WORDS = ['Why does the ledger total drift by a cent?', 'Rounding happens per line instead of once at the end.', 'Can you round once?', 'Done: the total is rounded once, after summing.', 'Run the ledger tests.', 'All 42 ledger tests pass.'];
/** The answer written without a time (the fourth line). */
const UNTIMED = 3;

let home: TempHome;
let core: Core;

beforeAll(async () => {
  home = tempHome('steward-untimed-line-');
  const root = join(home.dir, 'roots', 'claude');
  const start = Date.now() - 86_400_000;
  const lines = WORDS.map((text, i) => {
    const line = claudeLine({ sessionId: SESSION, cwd: CWD, type: i % 2 === 0 ? 'user' : 'assistant', ts: new Date(start + i * 60_000), text });
    if (i === UNTIMED) delete line.timestamp;
    return line;
  });
  writeJsonl(join(root, 'projects', '-work-ledger', `${SESSION}.jsonl`), lines);
  home.env.STEWARD_CLAUDE_ROOTS = root;
  core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
  await core.call('Backfill.Run', { all: true });
});

afterAll(async () => {
  await core?.shutdown();
  home?.cleanup();
});

type Page = Awaited<ReturnType<Core['call']>> & { messages: Array<{ ts: number | null; parts: Array<{ text: string | null; partId: string }> }>; cursor?: string; before?: string };
const get = async (params: Record<string, unknown>) => (await core.call('Sessions.Get', { sessionId: SESSION, ...params } as never)) as Page;
const textsOf = (page: Page) => page.messages.map((m) => m.parts[0]!.text);

describe('a part without a time keeps its place in its file', () => {
  it('reads in file order, its time unknown', async () => {
    const page = await get({});
    expect(textsOf(page)).toEqual(WORDS);
    expect(page.messages[UNTIMED]!.ts).toBeNull();
  });

  it('pages forward and back one message at a time in the same order', async () => {
    const forward: Array<string | null> = [];
    let page = await get({ limit: 1 });
    forward.push(...textsOf(page));
    while (page.cursor) {
      page = await get({ limit: 1, cursor: page.cursor });
      forward.push(...textsOf(page));
    }
    expect(forward).toEqual(WORDS);
    const backward: Array<string | null> = [];
    page = await get({ limit: 1, at: 'end' });
    backward.unshift(...textsOf(page));
    while (page.before) {
      page = await get({ limit: 1, cursor: page.before });
      backward.unshift(...textsOf(page));
    }
    expect(backward).toEqual(WORDS);
  });

  it('opened at it, it stands after the line before it', async () => {
    const partId = (await get({})).messages[UNTIMED]!.parts[0]!.partId;
    const page = await get({ partId, limit: 3 });
    expect(textsOf(page)).toEqual(WORDS.slice(UNTIMED - 2, UNTIMED + 1));
  });

  it('exports in file order', async () => {
    const md = (await core.call('Sessions.Export', { sessionId: SESSION, format: 'markdown' } as never)) as { content: string };
    const at = WORDS.map((w) => md.content.indexOf(w));
    expect(at.every((a) => a >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });
});
