import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appendJsonl, writeJsonl } from '../../support/transcripts.js';
import { byProvider, captureHarness, type CaptureHarness } from './harness.js';

const FIXTURE = join(import.meta.dirname, '..', '..', 'fixtures', 'capture', 'agentsview', 'claude-code', 'valid_session.jsonl');
const SESSION = 'aaaaaaaa-0000-4000-8000-000000000001';
/** The Claude parser before message lines without a uuid carried a content key. */
const BEFORE_KEYS = 9;

let h: CaptureHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** The agentsview fixture is from 2024: an open window reads it. */
function harness(): CaptureHarness {
  h = captureHarness({ query: { cache: { retention: { default_days: 0 } } } });
  return h;
}

const claude = async (c: CaptureHarness) => byProvider(await c.driver.tick(), 'claude');
const backfill = async (c: CaptureHarness) => (await c.driver.backfill({ all: true }))[0];
const partsOf = (c: CaptureHarness, sessionId: string) => c.count('SELECT COUNT(*) FROM parts WHERE session_id = ?', sessionId);
const texts = (c: CaptureHarness, sessionId: string) =>
  c.db.prepare('SELECT text FROM parts WHERE session_id = ? ORDER BY ts, part_id').pluck().all(sessionId) as string[];

/** What Claude Code (or a tool) does to a transcript: a summary line put before everything the file held. */
function prependSummary(path: string): void {
  const summary = JSON.stringify({ type: 'summary', summary: 'Login bug', leafUuid: 'not-in-this-file' });
  writeFileSync(path, `${summary}\n${readFileSync(path, 'utf8')}`);
}

function copyFixture(c: CaptureHarness): string {
  const dir = join(c.claudeRoot, 'projects', '-Users-alice-code-my-app');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${SESSION}.jsonl`);
  copyFileSync(FIXTURE, path);
  return path;
}

describe('Claude: a rewrite that moves message lines without a uuid stores nothing again', () => {
  it('a summary line put at the top adds no part; a line appended after it is the only new one', async () => {
    const c = harness();
    const path = copyFixture(c);
    expect(readFileSync(path, 'utf8')).not.toContain('"uuid"');
    expect(await backfill(c)).toMatchObject({ read: 1, partsWritten: 5 });

    prependSummary(path);
    expect(await backfill(c)).toMatchObject({ read: 1, partsWritten: 0 });
    expect(partsOf(c, SESSION)).toBe(5);

    appendJsonl(path, [{ type: 'user', timestamp: '2024-01-01T10:06:00Z', message: { content: 'Thanks' } }]);
    expect(await claude(c)).toMatchObject({ read: 1, partsWritten: 1 });
    expect(partsOf(c, SESSION)).toBe(6);
    // A full re-read of the rewritten file adds nothing either.
    expect(await backfill(c)).toMatchObject({ read: 1, partsWritten: 0 });
    expect(partsOf(c, SESSION)).toBe(6);
  });

  it('"yes" typed twice is two messages, before and after the rewrite', async () => {
    const c = harness();
    const path = join(c.claudeRoot, 'projects', 'p', 'yes-twice.jsonl');
    const yes = (ts: string) => ({ type: 'user', timestamp: ts, message: { role: 'user', content: 'yes' } });
    const ok = (ts: string) => ({ type: 'assistant', timestamp: ts, message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }] } });
    writeJsonl(path, [yes('2024-01-01T10:00:00Z'), ok('2024-01-01T10:00:01Z'), yes('2024-01-01T10:01:00Z'), ok('2024-01-01T10:01:01Z')]);
    expect(await claude(c)).toMatchObject({ partsWritten: 4 });
    prependSummary(path);
    expect(await claude(c)).toMatchObject({ partsWritten: 0 });
    expect(texts(c, 'yes-twice')).toEqual(['yes', 'ok', 'yes', 'ok']);
  });

  it('lines with no time keep their own ids: a "yes" far after another (more lines between than the count keeps) is still stored', async () => {
    const c = harness();
    const path = join(c.claudeRoot, 'projects', 'p', 'no-time.jsonl');
    const said = (text: string) => ({ type: 'user', message: { role: 'user', content: text } });
    writeJsonl(path, [said('yes'), ...Array.from({ length: 300 }, (_, i) => said(`step ${i}`)), said('yes')]);
    expect(await claude(c)).toMatchObject({ partsWritten: 302 });
    expect(texts(c, 'no-time').filter((t) => t === 'yes')).toHaveLength(2);
  });

  it('byte-identical lines are told apart by how often they came before: a rewrite adds none, an append of the same bytes adds one', async () => {
    const c = harness();
    const path = join(c.claudeRoot, 'projects', 'p', 'twice.jsonl');
    // As Claude Code 1.0 wrote a repeated prompt: the same bytes twice, no uuid, no sessionId.
    const line = '{"type":"user","timestamp":"2024-01-01T10:00:00Z","message":{"role":"user","content":"continue"}}';
    writeJsonl(path, [line, line]);
    expect(await claude(c)).toMatchObject({ partsWritten: 2 });
    prependSummary(path);
    expect(await claude(c)).toMatchObject({ partsWritten: 0 });
    // An append is read from where the last read stopped: the count of earlier copies carries over.
    appendJsonl(path, [line]);
    expect(await claude(c)).toMatchObject({ partsWritten: 1 });
    expect(await backfill(c)).toMatchObject({ partsWritten: 0 });
    expect(texts(c, 'twice')).toEqual(['continue', 'continue', 'continue']);
  });
});

describe('Claude: a store the older parser wrote is not doubled by the upgrade', () => {
  /** As that parser left it: the same part ids, no content key, every Claude file checkpointed by it. */
  function writtenByTheOlderParser(c: CaptureHarness): void {
    c.db.prepare("UPDATE parts SET content_key = NULL WHERE provider = 'claude'").run();
    c.db.prepare("UPDATE file_checkpoints SET parser_version = ? WHERE provider = 'claude'").run(BEFORE_KEYS);
  }

  it("the upgrade's re-read gives stored parts their key in place; a rewrite after it stores nothing again", async () => {
    const c = harness();
    const path = copyFixture(c);
    expect(await claude(c)).toMatchObject({ partsWritten: 5 });
    writtenByTheOlderParser(c);
    const ids = c.db.prepare('SELECT part_id FROM parts WHERE session_id = ? ORDER BY part_id').pluck().all(SESSION);

    await c.restart();
    expect(await claude(c)).toMatchObject({ read: 1, partsWritten: 0 });
    expect(c.db.prepare('SELECT part_id FROM parts WHERE session_id = ? ORDER BY part_id').pluck().all(SESSION)).toEqual(ids);
    expect(c.count('SELECT COUNT(*) FROM parts WHERE session_id = ? AND content_key IS NULL', SESSION)).toBe(0);

    prependSummary(path);
    expect(await claude(c)).toMatchObject({ read: 1, partsWritten: 0 });
    expect(partsOf(c, SESSION)).toBe(5);
  });
});
