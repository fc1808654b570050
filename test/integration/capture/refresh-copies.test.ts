import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';
import { captureHarness, type CaptureHarness } from './harness.js';

let h: CaptureHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const S = 'aaaaaaaa-0000-4000-8000-000000000001';
const T = 'bbbbbbbb-0000-4000-8000-000000000002';
const U = 'cccccccc-0000-4000-8000-000000000003';

describe('a refreshing first read and copies of a line in other files', () => {
  it('a copy of a line in another file read later in the same run never replaces the version first stored', async () => {
    h = captureHarness({ query: { cache: { retention: { default_days: 0 } } } });
    const dir = join(h.claudeRoot, 'projects', '-work-p');
    const ts = new Date(Date.now() - 3_600_000);
    writeJsonl(join(dir, `${S}.jsonl`), [claudeLine({ sessionId: S, cwd: '/work/p', uuid: U, ts, text: 'the whole original message, long and complete' })]);
    // A resumed conversation's file carries the line again (here, differently): read after S's, in path order.
    writeJsonl(join(dir, `${T}.jsonl`), [claudeLine({ sessionId: S, cwd: '/work/p', uuid: U, ts, text: 'cut' }), claudeLine({ sessionId: T, cwd: '/work/p', text: 'resumed' })]);
    await h.driver.tick();
    const texts = h.db.prepare('SELECT text FROM parts WHERE session_id = ?').pluck().all(S);
    expect(texts).toEqual(['the whole original message, long and complete']);
  });
});

describe('a refreshing first read over a part another file stored in an earlier run', () => {
  const setup = () => {
    h = captureHarness({ query: { cache: { retention: { default_days: 0 } } } });
    const dir = join(h.claudeRoot, 'projects', '-work-p');
    const ts = new Date(Date.now() - 3_600_000);
    writeJsonl(join(dir, `${S}.jsonl`), [claudeLine({ sessionId: S, cwd: '/work/p', uuid: U, ts, text: 'the whole original message, long and complete' })]);
    return { dir, ts, h };
  };
  const textsOf = (session: string) => h!.db.prepare('SELECT text FROM parts WHERE session_id = ?').pluck().all(session);

  it('a new file carrying a differing copy leaves the stored version as the file holding it wrote it', async () => {
    const { dir, ts } = setup();
    await h!.driver.tick();
    // Next tick: a resumed conversation's new file (never read, so read from its start) carries the line again, cut.
    writeJsonl(join(dir, `${T}.jsonl`), [claudeLine({ sessionId: S, cwd: '/work/p', uuid: U, ts, text: 'cut' }), claudeLine({ sessionId: T, cwd: '/work/p', text: 'resumed' })]);
    await h!.driver.tick();
    expect(textsOf(S)).toEqual(['the whole original message, long and complete']);
    expect(textsOf(T)).toEqual(['resumed']);
    // Nor does the copy say what the conversation asked first (its name in every list).
    expect(h!.db.prepare('SELECT first_request FROM sessions WHERE session_id = ?').pluck().get(S)).toBe('the whole original message, long and complete');
  });

  it('the file that holds the conversation still rewrites it when read from its start again', async () => {
    const { dir, ts } = setup();
    await h!.driver.tick();
    // Its checkpoint gone (as a parser upgrade leaves it), the file is read from its start: what it now says wins.
    writeJsonl(join(dir, `${S}.jsonl`), [claudeLine({ sessionId: S, cwd: '/work/p', uuid: U, ts, text: 'edited' })]);
    h!.db.prepare('DELETE FROM file_checkpoints').run();
    await (await h!.restart()).tick();
    expect(textsOf(S)).toEqual(['edited']);
  });

  it('the copy still does not speak for it when both files are read again from their start, whichever comes first', async () => {
    const { dir, ts } = setup();
    await h!.driver.tick();
    // A resumed conversation's file whose name sorts before the original's: read first on every later run.
    const first = '00000000-0000-4000-8000-000000000009';
    writeJsonl(join(dir, `${first}.jsonl`), [claudeLine({ sessionId: S, cwd: '/work/p', uuid: U, ts, text: 'cut' }), claudeLine({ sessionId: first, cwd: '/work/p', text: 'resumed' })]);
    await h!.driver.tick();
    expect(textsOf(S)).toEqual(['the whole original message, long and complete']);
    // Every checkpoint gone (a parser upgrade, an Unforget's lift): both files are read again from their start.
    h!.db.prepare('DELETE FROM file_checkpoints').run();
    await (await h!.restart()).tick();
    expect(textsOf(S)).toEqual(['the whole original message, long and complete']);
  });

  it('the conversation’s own file speaks for it even when a copy is read before it in the same first import, and the copy never does after', async () => {
    h = captureHarness({ query: { cache: { retention: { default_days: 0 } } } });
    const dir = join(h.claudeRoot, 'projects', '-work-p');
    const ts = new Date(Date.now() - 3_600_000);
    const first = '00000000-0000-4000-8000-000000000009';
    writeJsonl(join(dir, `${S}.jsonl`), [claudeLine({ sessionId: S, cwd: '/work/p', uuid: U, ts, text: 'the whole original message, long and complete' })]);
    // A resumed conversation's file whose name sorts first: read before the original on the first import.
    const copy = join(dir, `${first}.jsonl`);
    writeJsonl(copy, [claudeLine({ sessionId: S, cwd: '/work/p', uuid: U, ts, text: 'cut' }), claudeLine({ sessionId: first, cwd: '/work/p', text: 'resumed' })]);
    await h.driver.tick();
    expect(textsOf(S)).toEqual(['the whole original message, long and complete']);
    expect(h.db.prepare('SELECT first_request FROM sessions WHERE session_id = ?').pluck().get(S)).toBe('the whole original message, long and complete');
    // Later the copy alone is read again from its start (its checkpoint gone): it still does not speak.
    h.db.prepare('DELETE FROM file_checkpoints WHERE path = ?').run(copy);
    await (await h.restart()).tick();
    expect(textsOf(S)).toEqual(['the whole original message, long and complete']);
  });
});
