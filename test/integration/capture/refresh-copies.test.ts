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
