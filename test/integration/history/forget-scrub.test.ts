import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Core, EventPayload } from '../../../core/index.js';
import { Checkpointer, DiskScrub, SearchIndex, type ScrubGate } from '../../../core/gateway/index.js';
import { runIn } from '../../support/cli.js';
import { coreHome } from '../../support/core.js';
import { expectIndexExact } from '../../support/search-index.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

/** The words only the conversations to forget hold (each also looked for by its tail: FTS5 shares a term's start with the one before it). */
const FIRST = ['quixoticzebra', 'marmaladeoctopus', 'velvetcrocodile'];
const SECOND = ['tangerinewalrus', 'obsidianpelican', 'lavenderbadger'];
const FIRST_ID = 'aaaaaaaa-0000-4000-8000-000000000001';
const SECOND_ID = 'aaaaaaaa-0000-4000-8000-000000000002';
const THIRD_ID = 'aaaaaaaa-0000-4000-8000-000000000003';
const FOURTH_ID = 'aaaaaaaa-0000-4000-8000-000000000004';
/** Conversations kept: enough text that the index has segments of many pages, and the wipe takes many pieces. */
const KEPT = 40;
const LINES = 30;

const temp = coreHome('steward-scrub-');

/** Words of 3–9 letters from a fixed seed: every run writes the same transcripts. */
function wordsFrom(seed: number): () => string {
  let state = seed;
  const next = () => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    return state / 2 ** 32;
  };
  return () => {
    const letters = 3 + Math.floor(next() * 7);
    let word = '';
    for (let i = 0; i < letters; i += 1) word += 'etaoinshrdlucmfwypvbgk'[Math.floor(next() * 22)];
    return word;
  };
}

function writeStore(root: string): void {
  const word = wordsFrom(7);
  const text = (n: number) => Array.from({ length: n }, word).join(' ');
  const session = (sessionId: string, secret: readonly string[] | null, n: number) => {
    const start = Date.now() - 5 * 86_400_000 + n * 60_000;
    const lines = Array.from({ length: LINES }, (_, i) =>
      claudeLine({
        sessionId,
        cwd: '/work/scrub-project',
        type: i % 2 === 0 ? 'user' : 'assistant',
        text: `${text(150)}${secret && i % 5 === 0 ? ` ${secret.join(' ')} ` : ' '}${secret ? '' : 'keptword'}`,
        ts: new Date(start + i * 1000),
      }),
    );
    writeJsonl(join(root, 'projects', '-work-scrub-project', `${sessionId}.jsonl`), lines);
  };
  for (let n = 0; n < KEPT; n += 1) session(`bbbbbbbb-0000-4000-8000-${String(n).padStart(12, '0')}`, null, n);
  session(FIRST_ID, FIRST, KEPT);
  session(SECOND_ID, SECOND, KEPT + 1);
}

/** The home's environment with its transcripts, written on first use. */
function homeEnv(): NodeJS.ProcessEnv {
  const roots = join(temp.home.dir, 'claude');
  if (!existsSync(roots)) writeStore(roots);
  return { ...temp.home.env, STEWARD_CLAUDE_ROOTS: roots };
}

const open = (schedule = false): Core => temp.open({ env: homeEnv(), schedule });

/** How many times the words (or their tails) are in the raw bytes of gateway.db and its WAL. */
function copiesOf(words: readonly string[]): number {
  let found = 0;
  for (const file of ['gateway.db', 'gateway.db-wal']) {
    const path = join(temp.home.dir, file);
    if (!existsSync(path)) continue;
    const bytes = readFileSync(path);
    for (const probe of words.flatMap((w) => [w, w.slice(4)])) {
      for (let at = bytes.indexOf(probe); at >= 0; at = bytes.indexOf(probe, at + 1)) found += 1;
    }
  }
  return found;
}

async function imported(): Promise<Core> {
  const c = open();
  await c.call('Backfill.Run', { all: true });
  await c.history.whenIndexed();
  return c;
}

/** The kept conversations are found, the forgotten words are not, and the index holds exactly the parts. */
async function expectSearchWorks(c: Core, forgotten: readonly string[]): Promise<void> {
  expect((await c.call('Search.Query', { query: 'keptword', limit: 100 })).hits.length).toBeGreaterThanOrEqual(KEPT);
  for (const word of forgotten) expect((await c.call('Search.Query', { query: word })).hits).toEqual([]);
  expectIndexExact(c.gateway);
}

describe('wiping what a forget deleted from the disk', () => {
  it('a forget with scrub leaves none of its words in gateway.db or its WAL (one without leaves them); search still works', async () => {
    const c = await imported();
    expect(copiesOf(FIRST)).toBeGreaterThan(0);
    expect(copiesOf(SECOND)).toBeGreaterThan(0);

    // Without scrub the rows go, the bytes stay: in free pages, beside the index's delete markers, in the WAL.
    expect((await c.call('Forget.Session', { sessionId: FIRST_ID })).scrubbed).toBeUndefined();
    expect(copiesOf(FIRST)).toBeGreaterThan(0);
    expect((await c.call('Forget.ScrubStatus', {})).pending).toBe(false);

    const progress: Array<EventPayload<'forget.scrub'>> = [];
    c.events.subscribe((name, payload) => {
      if (name === 'forget.scrub') progress.push(payload as EventPayload<'forget.scrub'>);
    });
    const result = await c.call('Forget.Session', { sessionId: SECOND_ID, scrub: true });
    expect(result).toMatchObject({ kind: 'session', id: SECOND_ID, removedParts: LINES, scrubbed: true });
    // The wipe takes what earlier forgets left too.
    expect(copiesOf(SECOND)).toBe(0);
    expect(copiesOf(FIRST)).toBe(0);
    expect(progress.map((p) => p.phase)).toEqual(expect.arrayContaining(['index', 'free', 'journal']));
    // The index's pages, read from FTS5's structure record: the fold's progress counts up to them.
    const folded = progress.filter((p) => p.phase === 'index');
    expect(folded[0]!.total).toBeGreaterThan(10);
    expect(folded.at(-1)).toMatchObject({ done: folded[0]!.total, total: folded[0]!.total });
    expect(progress.at(-1)).toEqual({ phase: 'journal', done: 1, total: 1, complete: true });
    expect(await c.call('Forget.ScrubStatus', {})).toEqual({ pending: false, running: false, progress: null, lastWipedAt: expect.any(Number), failed: null, estimatedMs: expect.any(Number) });
    await expectSearchWorks(c, [...FIRST, ...SECOND]);

    // The owner's last checkpoint at its stop brings none back.
    await temp.close();
    expect(copiesOf([...FIRST, ...SECOND])).toBe(0);
  });

  it('Forget.Scrub alone wipes what earlier forgets deleted, and the status says about how long it takes', async () => {
    const c = await imported();
    await c.call('Forget.Session', { sessionId: FIRST_ID });
    const status = await c.call('Forget.ScrubStatus', {});
    expect(status).toMatchObject({ pending: false, running: false });
    expect(status.estimatedMs).toBeGreaterThan(0);
    expect(copiesOf(FIRST)).toBeGreaterThan(0);

    const wiped = await c.call('Forget.Scrub', {});
    expect(wiped).toEqual({ complete: true, durationMs: expect.any(Number) });
    expect(copiesOf(FIRST)).toBe(0);
    expect(copiesOf(SECOND)).toBeGreaterThan(0);
    await expectSearchWorks(c, FIRST);
    expect((await c.call('Search.Query', { query: SECOND[0]! })).hits.length).toBeGreaterThan(0);
  });

  it('a stop mid-way leaves the wipe owed (the call says scrubbed: false), and the next start finishes it', async () => {
    let c = await imported();
    let stopping: Promise<void> | undefined;
    c.events.subscribe((name, payload) => {
      // Stop once the index is being folded: between two of its pieces.
      if (name === 'forget.scrub' && (payload as EventPayload<'forget.scrub'>).phase === 'index') stopping ??= temp.close();
    });
    const result = await c.call('Forget.Session', { sessionId: FIRST_ID, scrub: true });
    expect(result.scrubbed).toBe(false);
    await stopping;

    c = open();
    expect(await c.call('Forget.ScrubStatus', {})).toMatchObject({ pending: true, running: false });
    expect(c.gateway.prepare("SELECT value FROM search_state WHERE key = 'scrub_pending'").pluck().get()).toBe(1);
    await temp.close();

    // The owner's next start finishes it in the background.
    c = open(true);
    const finished = new Promise<void>((resolve) =>
      c.events.subscribe((name, payload) => {
        if (name === 'forget.scrub' && (payload as EventPayload<'forget.scrub'>).complete) resolve();
      }),
    );
    await finished;
    expect(copiesOf(FIRST)).toBe(0);
    expect((await c.call('Forget.ScrubStatus', {})).pending).toBe(false);
    await expectSearchWorks(c, FIRST);
  });

  it('runs in pieces inside the disk gate, each short, with a turn of the event loop between any two', async () => {
    const c = await imported();
    await c.call('Forget.Session', { sessionId: FIRST_ID });
    const checkpointer = Checkpointer.of(c.gateway);
    let turns = 0;
    let ticking = true;
    const tick = () => {
      turns += 1;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const pieces: Array<{ turn: number; ms: number }> = [];
    let entered = 0;
    const gate: ScrubGate = {
      start: () => checkpointer.start(),
      enter: (force) => {
        const ok = checkpointer.enter(force);
        if (ok) entered = performance.now();
        return ok;
      },
      leave: () => {
        pieces.push({ turn: turns, ms: performance.now() - entered });
        checkpointer.leave();
      },
      settle: () => checkpointer.settle(),
      truncate: () => checkpointer.truncate(),
    };
    expect(await new DiskScrub(c.gateway, new SearchIndex(c.gateway), gate).run()).toBe(true);
    ticking = false;

    expect(pieces.length).toBeGreaterThan(10);
    expect(Math.max(...pieces.map((p) => p.ms))).toBeLessThan(50);
    for (let i = 1; i < pieces.length; i += 1) expect(pieces[i]!.turn).toBeGreaterThan(pieces[i - 1]!.turn);
    expect(copiesOf(FIRST)).toBe(0);
    await expectSearchWorks(c, FIRST);
  });

  it('keeps no word of it in the forget record either: a scrub forget names it by app, day and project, and a wipe drops the name an earlier forget kept', async () => {
    // Two untitled conversations: each one's name is its first request, these words first.
    const named = (sessionId: string, words: readonly string[], at: Date) =>
      writeJsonl(join(homeEnv().STEWARD_CLAUDE_ROOTS!, 'projects', '-work-scrub-project', `${sessionId}.jsonl`), [
        claudeLine({ sessionId, cwd: '/work/scrub-project', ts: at, text: `${words.join(' ')} before the frost` }),
        claudeLine({ sessionId, cwd: '/work/scrub-project', ts: new Date(at.getTime() + 1000), type: 'assistant', text: 'Noted.' }),
      ]);
    const KEPT_NAME = ['periwinkleaardvark', 'saffronnarwhal'];
    const WIPED_NAME = ['cinnabarmarmoset', 'juniperquokka'];
    const started = new Date(2026, 10, 2, 9, 30);
    named(THIRD_ID, KEPT_NAME, started);
    named(FOURTH_ID, WIPED_NAME, started);
    const c = await imported();
    const names = [...KEPT_NAME, ...WIPED_NAME].map((w) => [w]);
    for (const word of names) expect(copiesOf(word)).toBeGreaterThan(0);

    // Without scrub the name stays (redacted), as the conversation's bytes do.
    await c.call('Forget.Session', { sessionId: THIRD_ID });
    const label = async (id: string) => (await c.call('Forget.List', {})).tombstones.find((t) => t.id === id)?.label;
    expect(await label(THIRD_ID)).toBe(`${KEPT_NAME.join(' ')} before the frost`);

    expect((await c.call('Forget.Session', { sessionId: FOURTH_ID, scrub: true })).scrubbed).toBe(true);
    expect(await label(FOURTH_ID)).toBe('Claude Code conversation of 2 Nov 2026 in scrub-project');
    // The wipe takes the name the earlier forget kept: the list names that one by its id.
    expect(await label(THIRD_ID)).toBeNull();
    // Forgotten again with a wipe, nothing stored to build a label from: the label built of facts stays.
    expect((await c.call('Forget.Session', { sessionId: FOURTH_ID, scrub: true })).scrubbed).toBe(true);
    expect(await label(FOURTH_ID)).toBe('Claude Code conversation of 2 Nov 2026 in scrub-project');
    for (const word of names) expect(copiesOf(word)).toBe(0);
    await temp.close();
    for (const word of names) expect(copiesOf(word)).toBe(0);
  });

  it('steward forget --scrub wipes as it forgets, and steward forget --scrub alone wipes what earlier forgets left', async () => {
    await imported();
    await temp.close();
    const env = homeEnv();

    const forgot = await runIn(env, 'forget', '--session', FIRST_ID);
    expect(forgot.code).toBe(0);
    expect(copiesOf(FIRST)).toBeGreaterThan(0);
    const scrubbed = await runIn(env, 'forget', '--session', SECOND_ID, '--scrub');
    expect(scrubbed).toMatchObject({ code: 0, err: '' });
    expect(scrubbed.out).toContain('Wiped from the disk too');
    expect(copiesOf([...FIRST, ...SECOND])).toBe(0);

    const alone = await runIn(env, 'forget', '--scrub', '--json');
    expect(JSON.parse(alone.out)).toEqual({ complete: true, durationMs: expect.any(Number) });
    expect((await runIn(env, 'forget', '--list', '--scrub')).code).toBe(2);
  });
});
