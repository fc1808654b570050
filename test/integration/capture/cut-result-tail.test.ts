import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SearchIndex } from '../../../core/gateway/index.js';
import { bound, TOOL_RESULT_CAP } from '../../../core/transcripts/bounds.js';
import { CLAUDE_PARSER_VERSION } from '../../../core/transcripts/providers/claude/provider.js';
import { expectIndexExact } from '../../support/search-index.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';
import { byProvider, captureHarness, type CaptureHarness } from './harness.js';

/*
 * A long tool output stored by a parser that kept only its first 8 KB gains its end when its file is
 * read again by the parser that keeps both ends (the version bump), and its end is found by search.
 * A copy of it in another file, read before its own file then, is the same output in other words of
 * the cut, not a copy in other words: compared by its whole's hash, it is not counted `differing_copy`.
 */

const S = 'aaaaaaaa-0000-4000-8000-0000000000c1';
/** A resumed conversation's file that copies S's lines: its name sorts before S's, so it is read first. */
const EARLY = '00000000-0000-4000-8000-0000000000c9';
const USE = 'cccccccc-0000-4000-8000-0000000000c3';
const RESULT = 'cccccccc-0000-4000-8000-0000000000c4';
const CWD = '/work/cut';

/** A test run's output: 3,000 lines of progress, then its summary, whose last word is in no other line. */
const run = (middle = '') =>
  `${Array.from({ length: 3_000 }, (_, i) => `  ✓ case ${String(i).padStart(4, '0')} passes${i === 1_500 ? middle : ''}`).join('\n')}\n Tests  1 failed | 2999 passed (3000) zebrafinch\n`;
const LAST_LINE = ' Tests  1 failed | 2999 passed (3000) zebrafinch';

let h: CaptureHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const openWindow = () => captureHarness({ query: { cache: { retention: { default_days: 0 } } } });
const claude = async (c: CaptureHarness) => byProvider(await c.driver.tick(), 'claude');
const found = (c: CaptureHarness, word: string) => c.db.prepare('SELECT COUNT(*) FROM search_fts WHERE search_fts MATCH ?').pluck().get(word) as number;
const stored = (c: CaptureHarness) => c.db.prepare("SELECT rowid, text, meta FROM parts WHERE kind = 'tool_result'").get() as { rowid: number; text: string; meta: string };

/** S's lines: the call and its long result, under fixed uuids (a copy carries the same). */
function lines(sessionId: string, output: string) {
  const ts = Date.now() - 3_600_000;
  return [
    claudeLine({ sessionId, cwd: CWD, uuid: USE, ts: new Date(ts), type: 'assistant', content: [{ type: 'tool_use', id: 'toolu_run', name: 'Bash', input: { command: 'npm test' } }] }),
    claudeLine({ sessionId, cwd: CWD, uuid: RESULT, ts: new Date(ts + 1_000), content: [{ type: 'tool_result', tool_use_id: 'toolu_run', content: output }] }),
  ];
}

const writeOwn = (c: CaptureHarness, output = run()) => writeJsonl(join(c.claudeRoot, 'projects', '-work-cut', `${S}.jsonl`), lines(S, output));
const writeCopy = (c: CaptureHarness, output = run()) =>
  writeJsonl(join(c.claudeRoot, 'projects', '-work-cut', `${EARLY}.jsonl`), [...lines(S, output), claudeLine({ sessionId: EARLY, cwd: CWD, text: 'and now fix the failing case' })]);

/**
 * The store as the parser before this one left it: the result's first TOOL_RESULT_CAP characters and
 * the whole's facts, indexed as such, and every Claude file checkpointed by that version.
 */
function storeAsPrefixCut(c: CaptureHarness, output: string): void {
  const { rowid, meta } = stored(c);
  const old = bound(output, TOOL_RESULT_CAP);
  const oldMeta = { ...(JSON.parse(meta) as Record<string, unknown>), truncated: old.truncated };
  new SearchIndex(c.db).rewriteParts([rowid], () => c.db.prepare('UPDATE parts SET text = ?, meta = ? WHERE rowid = ?').run(old.text, JSON.stringify(oldMeta), rowid));
  c.db.prepare("UPDATE file_checkpoints SET parser_version = ? WHERE provider = 'claude'").run(CLAUDE_PARSER_VERSION - 1);
}

describe('a long tool result stored by the prefix cut, after the parser keeps both ends', () => {
  it('is read again on the next tick: its text ends with the output’s last line, and search finds a word only there', async () => {
    const c = (h = openWindow());
    writeOwn(c);
    await claude(c);
    storeAsPrefixCut(c, run());
    expect(stored(c).text.endsWith(LAST_LINE)).toBe(false);
    expect(found(c, 'zebrafinch')).toBe(0);

    await c.restart();
    expect(await claude(c)).toMatchObject({ read: 1, partsWritten: 0 });
    const now = stored(c);
    expect(now.text.endsWith(`${LAST_LINE}\n`)).toBe(true);
    expect(now.text.length).toBeLessThanOrEqual(TOOL_RESULT_CAP);
    expect(JSON.parse(now.meta)).toMatchObject({ truncated: { length: run().length, head: 6 * 1024 } });
    expect(found(c, 'zebrafinch')).toBe(1);
    expectIndexExact(c.db);
    // Read once: the next tick reads nothing.
    expect(await claude(c)).toMatchObject({ read: 0 });
  });

  it('a copy read before its own file is no copy in other words: nothing counted, and the part gains its end', async () => {
    const c = (h = openWindow());
    writeOwn(c);
    writeCopy(c);
    expect((await claude(c)).skipped ?? {}).toEqual({});
    storeAsPrefixCut(c, run());

    await c.restart();
    const again = await claude(c);
    expect(again).toMatchObject({ read: 2, partsWritten: 0 });
    expect(again.skipped ?? {}).toEqual({});
    expect(stored(c).text.endsWith(`${LAST_LINE}\n`)).toBe(true);
    expect(found(c, 'zebrafinch')).toBe(1);
    expectIndexExact(c.db);
  });

  it('a copy whose long output differs only in the middle both cuts left out is counted, once', async () => {
    const c = (h = openWindow());
    writeOwn(c);
    writeCopy(c, run(' (retried)'));
    expect(await claude(c)).toMatchObject({ read: 2, skipped: { differing_copy: 1 } });
    // Its own file's words are kept.
    expect(JSON.parse(stored(c).meta)).toMatchObject({ truncated: { length: run().length } });
  });
});
