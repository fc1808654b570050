import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { Core } from '../../../core/core.js';
import { HistoryReader } from '../../../core/gateway/history-read.js';
import { openGateway } from '../../../core/gateway/index.js';
import { coreHome } from '../../support/core.js';
import { appendJsonl, claudeLine, writeJsonl } from '../../support/transcripts.js';

/**
 * A Claude Code line without a `timestamp` is stored with no time. Capture stores its place in the
 * conversation as it writes it (the time of the line before it in its file, marked inferred), so it is
 * read where the file has it: not first in the conversation, not last in a newest-first search, never
 * the conversation's first request. Nothing shows that place as its time: its time stays unknown.
 */
const SID = '5e0c7d1e-3f0a-4d7e-9c61-2a8f0b9e4c11';
const CWD = '/work/orchard';
const T0 = Date.now() - 86_400_000;
const at = (minutes: number) => new Date(T0 + minutes * 60_000);
const U1 = '5e0c7d1e-0000-4000-8000-000000000001';
const A1 = '5e0c7d1e-0000-4000-8000-000000000002';
const UNTIMED = '5e0c7d1e-0000-4000-8000-000000000003';
const A2 = '5e0c7d1e-0000-4000-8000-000000000004';
const LATE = '5e0c7d1e-0000-4000-8000-000000000005';

/** A line as Claude Code writes one it gave no time: the same envelope, no `timestamp`. */
function untimed(line: Record<string, unknown>): Record<string, unknown> {
  const { timestamp: _dropped, ...rest } = line;
  return rest;
}

const owned = coreHome('steward-untimed-');

function captured(): { file: string; root: string } {
  const { home } = owned;
  const root = join(home.dir, 'roots', 'claude');
  const file = join(root, 'projects', '-work-orchard', `${SID}.jsonl`);
  writeJsonl(file, [
    claudeLine({ sessionId: SID, cwd: CWD, ts: at(0), uuid: U1, text: 'Plant the orchard rows along the fence' }),
    claudeLine({ sessionId: SID, cwd: CWD, ts: at(1), uuid: A1, type: 'assistant', text: 'Planting the orchard rows now.' }),
    untimed(claudeLine({ sessionId: SID, cwd: CWD, uuid: UNTIMED, text: 'Also water the orchard saplings' })),
    claudeLine({ sessionId: SID, cwd: CWD, ts: at(2), uuid: A2, type: 'assistant', text: 'Watered the orchard saplings.' }),
  ]);
  return { file, root };
}

const open = (root: string): Core => owned.open({ env: { STEWARD_CLAUDE_ROOTS: root } });

const messageIds = (messages: ReadonlyArray<{ messageId: string }>) => messages.map((m) => m.messageId);

describe('a line without a timestamp', () => {
  it('is read where its file has it, its time still unknown, and is not the first request', async () => {
    const { root } = captured();
    const c = open(root);
    await c.call('Backfill.Run', { all: true });
    const got = await c.call('Sessions.Get', { sessionId: SID });
    expect(messageIds(got.messages)).toEqual([`cc:${U1}`, `cc:${A1}`, `cc:${UNTIMED}`, `cc:${A2}`]);
    expect(got.messages[2]!.ts).toBeNull();
    expect(got.session.firstRequest).toBe('Plant the orchard rows along the fence');

    // Newest first: by its place, after the line before it, never last.
    const newest = await c.call('Search.Query', { query: 'orchard', sort: 'newest' });
    expect(newest.hits.map((h) => h.partId)).toEqual([`cc:${A2}:0`, `cc:${UNTIMED}:0`, `cc:${A1}:0`, `cc:${U1}:0`]);
    expect(newest.hits[1]!.ts).toBeNull();

    // A page at a time, each page after the last part read: every message once, in file order.
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await c.call('Sessions.Get', { sessionId: SID, limit: 1, ...(cursor ? { cursor } : {}) });
      seen.push(...messageIds(page.messages));
      cursor = page.cursor;
    } while (cursor !== undefined);
    expect(seen).toEqual(messageIds(got.messages));

    const markdown = await c.call('Sessions.Export', { sessionId: SID, format: 'markdown' });
    const text = JSON.stringify(markdown);
    expect(text.indexOf('Also water the orchard saplings')).toBeGreaterThan(text.indexOf('Planting the orchard rows now.'));
  });

  it('gives the first request from the first line the person wrote, whatever the store kept of it', async () => {
    const { root } = captured();
    await open(root).call('Backfill.Run', { all: true });
    await owned.close();
    const db = openGateway(owned.home.dir);
    try {
      const first = new HistoryReader(db).firstUserTexts(SID, 12).find((p) => p.text !== null);
      expect(first?.text).toBe('Plant the orchard rows along the fence');
    } finally {
      db.close();
    }
  });

  it('keeps its place when the lines stored before it are forgotten', async () => {
    const { root } = captured();
    const c = open(root);
    await c.call('Backfill.Run', { all: true });
    const db = new Database(join(owned.home.dir, 'gateway.db'));
    try {
      db.prepare('DELETE FROM parts WHERE part_id = ?').run(`cc:${A1}:0`);
    } finally {
      db.close();
    }
    const got = await c.call('Sessions.Get', { sessionId: SID });
    expect(messageIds(got.messages)).toEqual([`cc:${U1}`, `cc:${UNTIMED}`, `cc:${A2}`]);
  });

  it('appended alone to a file read before, is read after what the conversation held', async () => {
    const { root, file } = captured();
    const c = open(root);
    await c.call('Backfill.Run', { all: true });
    appendJsonl(file, [untimed(claudeLine({ sessionId: SID, cwd: CWD, uuid: LATE, text: 'One more orchard thing' }))]);
    await c.call('Sweep.Tick', {});
    const got = await c.call('Sessions.Get', { sessionId: SID });
    expect(messageIds(got.messages)).toEqual([`cc:${U1}`, `cc:${A1}`, `cc:${UNTIMED}`, `cc:${A2}`, `cc:${LATE}`]);
    expect(got.messages[4]!.ts).toBeNull();
  });

  it('stored before its place was, still reads with no time, first, every part once', () => {
    const db = openGateway(owned.home.dir);
    try {
      const part = db.prepare("INSERT INTO parts (part_id, session_id, provider, role, kind, ts, text) VALUES (?, 'old-1', 'claude', 'user', 'text', ?, 'x')");
      part.run('cc:old:t1', T0);
      part.run('cc:old:u', null);
      part.run('cc:old:t2', T0 + 1000);
      const reader = new HistoryReader(db);
      const all = reader.partsAfter('old-1', null, 10);
      expect(all.map((p) => [p.partId, p.ts])).toEqual([
        ['cc:old:u', null],
        ['cc:old:t1', T0],
        ['cc:old:t2', T0 + 1000],
      ]);
      const walked: string[] = [];
      for (let after = null as { ts: number | null; rowid: number } | null; ; ) {
        const [next] = reader.partsAfter('old-1', after, 1);
        if (!next) break;
        walked.push(next.partId);
        after = { ts: next.place, rowid: next.rowid };
      }
      expect(walked).toEqual(all.map((p) => p.partId));
    } finally {
      db.close();
    }
  });
});
