import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openGateway } from '../../../core/gateway/index.js';
import { expectIndexExact } from '../../support/search-index.js';
import { captureHarness, type CaptureHarness } from './harness.js';

/*
 * Gemini parser 7 named a call in a message's `content` by its place among the parts (`c{i}`); parser 8
 * names it as its `toolCalls` entry does (`tu-{callId}`, one sent without an id `tu-c{rank}`) and its
 * version bump reads every Gemini file again from its start. Gateway step 33 renames the parts parser 7
 * left, so the re-read finds each call stored under the name it gives it: one part per call, not two.
 * The store parser 7 left is made here from the one parser 8 writes, each call put back under `c{i}`.
 */
const SID = '5d0c9a51-2f4e-4b8a-9c61-7e3f0d2a8b14';
const ts = (second: number) => `2026-06-02T10:00:${String(second).padStart(2, '0')}.000Z`;
const header = { sessionId: SID, projectHash: 'site', startTime: ts(0), lastUpdated: ts(0), kind: 'main' };
const u1 = { id: 'u1', timestamp: ts(1), type: 'user', content: [{ text: 'what does the script do?' }] };
const call = (id: string | undefined, path: string) => ({ functionCall: { ...(id === undefined ? {} : { id }), name: 'read_file', args: { absolute_path: path } } });
const reply = (content: unknown[], extra: Record<string, unknown> = {}) => ({ id: 'g1', timestamp: ts(5), type: 'gemini', content, model: 'gemini-2.5-pro', ...extra });
const jsonl = (records: unknown[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;
const BEFORE_33 = 32;

let h: CaptureHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

function write(harness: CaptureHarness, records: unknown[]): void {
  const path = join(harness.geminiRoot, 'tmp', 'site', 'chats', 'session-2026-06-02T10-00-5d0c9a51.jsonl');
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, jsonl(records));
}

const part = (key: string) => `gm:${SID}:g1:${key}`;
const uses = (harness: CaptureHarness) =>
  harness.db.prepare("SELECT part_id AS id, text FROM parts WHERE session_id = ? AND kind = 'tool_use' ORDER BY rowid").all(SID) as { id: string; text: string }[];
const found = (harness: CaptureHarness, word: string) => harness.db.prepare('SELECT COUNT(*) FROM search_fts WHERE search_fts MATCH ?').pluck().get(word) as number;

/** The store as parser 7 left it: each part `from` under its place `to` (`c{i}`), its files read by parser 7, the schema before step 33. */
function asParser7Left(harness: CaptureHarness, renames: Record<string, string>): void {
  const rename = harness.db.prepare('UPDATE parts SET part_id = ? WHERE part_id = ?');
  for (const [from, to] of Object.entries(renames)) expect(rename.run(part(to), part(from)).changes).toBe(1);
  harness.db.prepare("UPDATE file_checkpoints SET parser_version = 7 WHERE provider = 'gemini'").run();
  harness.db.pragma(`user_version = ${BEFORE_33}`);
}

/** The upgrade: the gateway opened again (its pending steps run), then a new owner reads every Gemini file again. */
async function upgrade(harness: CaptureHarness): Promise<void> {
  openGateway(harness.home.dir).close();
  await harness.restart();
  await harness.driver.tick();
}

describe('gateway step 33: a Gemini call parser 7 stored from a content under its place', () => {
  it.each([
    ['with an id', 'read_file__1716390000-1', 'tu-read_file__1716390000-1'],
    ['with an id holding a colon', 'read_file:1716390000:1', 'tu-read_file_1716390000_1'],
    ['without an id', undefined, 'tu-c0'],
  ])('takes the name parser 8 gives it (%s): one call part after the re-read, same words, found once', async (_, id, key) => {
    h = captureHarness({ query: { cache: { retention: { default_days: 0 } } } });
    write(h, [header, u1, reply([{ text: 'Let me look.' }, call(id, '/p/quinceberry.sh')])]);
    await h.driver.tick();
    expect(uses(h).map((u) => u.id)).toEqual([part(key)]);
    const text = uses(h)[0]!.text;
    asParser7Left(h, { [key]: 'c1' });

    await upgrade(h);
    expect(uses(h)).toEqual([{ id: part(key), text }]);
    expect(found(h, 'quinceberry')).toBe(1);
    expectIndexExact(h.db);
  });

  it('names calls sent without an id by their rank among the content calls', async () => {
    h = captureHarness({ query: { cache: { retention: { default_days: 0 } } } });
    write(h, [header, u1, reply([{ text: 'Two files.' }, call(undefined, '/p/quinceberry.sh'), { text: 'and' }, call(undefined, '/p/medlar.sh')])]);
    await h.driver.tick();
    expect(uses(h).map((u) => u.id)).toEqual([part('tu-c0'), part('tu-c1')]);
    const before = uses(h);
    asParser7Left(h, { 'tu-c0': 'c1', 'tu-c1': 'c3' });

    await upgrade(h);
    expect(uses(h)).toEqual(before);
    expect(found(h, 'quinceberry')).toBe(1);
    expect(found(h, 'medlar')).toBe(1);
    expectIndexExact(h.db);
  });

  it('leaves a call whose new name is already stored as it is, beside it (parser 7 stored both)', async () => {
    const ID = 'read_file__1716390000-1';
    h = captureHarness({ query: { cache: { retention: { default_days: 0 } } } });
    // The entry's record: parser 7 stored the entry's `tu-{id}` and, read before it, the content's copy as `c1`.
    write(h, [header, u1, reply([{ text: 'Let me look.' }, call(ID, '/p/quinceberry.sh')], { toolCalls: [{ id: ID, name: 'read_file', args: { absolute_path: '/p/quinceberry.sh' }, status: 'executing', timestamp: ts(6) }] })]);
    await h.driver.tick();
    expect(uses(h).map((u) => u.id)).toEqual([part(`tu-${ID}`)]);
    h.db
      .prepare(
        `INSERT INTO parts (part_id, session_id, provider, role, kind, ts, ts_inferred, text, meta, is_meta, is_compact_summary, is_sidechain, genuine_user_turn, content_key)
         SELECT ?, session_id, provider, role, kind, ts, ts_inferred, text, meta, is_meta, is_compact_summary, is_sidechain, genuine_user_turn, content_key FROM parts WHERE part_id = ?`,
      )
      .run(part('c1'), part(`tu-${ID}`));
    asParser7Left(h, {});

    await upgrade(h);
    expect(uses(h).map((u) => u.id).sort()).toEqual([part('c1'), part(`tu-${ID}`)].sort());
  });

  it('leaves an id-less call whose rank it cannot tell (a part before it not stored)', async () => {
    h = captureHarness({ query: { cache: { retention: { default_days: 0 } } } });
    write(h, [header, u1, reply([{ text: 'Two files.' }, call(undefined, '/p/quinceberry.sh')])]);
    await h.driver.tick();
    // As if c0 were a call an entry held (parser 7 stored none of it): the rank is not c1's place less one.
    h.db.prepare('UPDATE parts SET part_id = ? WHERE part_id = ?').run(part('c7'), part('c0'));
    asParser7Left(h, { 'tu-c0': 'c2' });
    openGateway(h.home.dir).close();
    expect(uses(h).map((u) => u.id)).toEqual([part('c2')]);
  });
});
