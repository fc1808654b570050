import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openGateway } from '../../../core/gateway/index.js';
import { HistoryReader } from '../../../core/gateway/history-read.js';
import type { Db } from '../../../core/store/index.js';
import { tempHome, type TempHome } from '../../support/home.js';

/**
 * The call a tool output answers is one walk over its conversation's calls, nearest first, that stops
 * at the first naming the output's call id (a search reads it for each tool-output hit): the id is read
 * in SQL, no further calls are read than the one that answers, and no more than the limit are looked at.
 */
const SESSION = 'calls-1';
const BASE = Date.UTC(2026, 0, 1);

let home: TempHome;
let db: Db;
let reader: HistoryReader;

beforeAll(() => {
  home = tempHome('steward-call-answering-');
  db = openGateway(home.dir);
  const part = db.prepare("INSERT INTO parts (part_id, session_id, provider, role, kind, ts, text, meta) VALUES (?, ?, 'claude', 'assistant', ?, ?, ?, ?)");
  db.transaction(() => {
    part.run('cc:calls:0', SESSION, 'tool_use', BASE, '{"command":"ls"}', JSON.stringify({ name: 'Bash', toolUseId: 'call_a' }));
    // A later call reusing the id (a replayed line): the nearest before the output answers it.
    part.run('cc:calls:1', SESSION, 'tool_use', BASE + 1000, '{"command":"pwd"}', JSON.stringify({ name: 'Bash', toolUseId: 'call_a' }));
    part.run('cc:calls:2', SESSION, 'tool_use', BASE + 2000, '{"file_path":"/x"}', 'not json call_b');
    part.run('cc:calls:3', SESSION, 'tool_use', BASE + 3000, '{"file_path":"/y"}', JSON.stringify({ name: 'Read', toolUseId: 7 }));
    part.run('cc:calls:4', SESSION, 'text', BASE + 4000, 'call_a', JSON.stringify({ toolUseId: 'call_c' }));
    part.run('cc:calls:5', SESSION, 'tool_use', BASE + 9000, '{"command":"late"}', JSON.stringify({ name: 'Bash', toolUseId: 'call_late' }));
    part.run('cc:other:0', 'other-1', 'tool_use', BASE + 5000, '{"command":"other"}', JSON.stringify({ name: 'Bash', toolUseId: 'call_o' }));
  })();
  reader = new HistoryReader(db);
});

afterAll(() => {
  db?.close();
  home?.cleanup();
});

describe('the call a tool output answers', () => {
  it('is the nearest call at or before the output naming its id, with its name and text', () => {
    expect(reader.callAnswering(SESSION, BASE + 5000, 'call_a', 50)).toEqual({ partId: 'cc:calls:1', meta: JSON.stringify({ name: 'Bash', toolUseId: 'call_a' }), text: '{"command":"pwd"}' });
    expect(reader.callAnswering(SESSION, BASE + 500, 'call_a', 50)?.partId).toBe('cc:calls:0');
  });

  it('is none past the limit, after the output, in another conversation, or for a meta that is no JSON, a non-text id or a part that is no call', () => {
    expect(reader.callAnswering(SESSION, BASE + 5000, 'call_a', 2)).toBeUndefined();
    expect(reader.callAnswering(SESSION, BASE + 5000, 'call_a', 3)?.partId).toBe('cc:calls:1');
    expect(reader.callAnswering(SESSION, BASE + 5000, 'call_late', 50)).toBeUndefined();
    expect(reader.callAnswering(SESSION, BASE + 9000, 'call_o', 50)).toBeUndefined();
    expect(reader.callAnswering(SESSION, BASE + 9000, 'call_b', 50)).toBeUndefined();
    expect(reader.callAnswering(SESSION, BASE + 9000, '7', 50)).toBeUndefined();
    expect(reader.callAnswering(SESSION, BASE + 9000, 'call_c', 50)).toBeUndefined();
  });

  it('leaves the connection free for the next read once it has answered', () => {
    expect(reader.callAnswering(SESSION, BASE + 9000, 'call_late', 50)?.partId).toBe('cc:calls:5');
    expect(reader.partKey('cc:calls:5')?.sessionId).toBe(SESSION);
  });
});
