import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runIn } from '../../support/cli.js';
import { coreHome } from '../../support/core.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

/**
 * QA 45u B4: after a CLI-only upgrade `steward info` said "200,000 messages" with nothing saying they
 * were pending migration 22's recount (150,000), which only a running Steward's walk finishes.
 */
const temp = coreHome('steward-info-recount-');

/** A store with one conversation of two messages, closed: the CLI opens it itself. */
async function storeWithHistory(): Promise<NodeJS.ProcessEnv> {
  const roots = join(temp.home.dir, 'claude-roots');
  const sessionId = '6b1e4c2a-0d9f-4a37-8e15-2c7b9d0f4a61';
  const at = Date.now() - 3_600_000;
  writeJsonl(join(roots, 'projects', '-work-p', `${sessionId}.jsonl`), [
    claudeLine({ sessionId, cwd: '/work/p', ts: new Date(at), text: 'what is left?' }),
    claudeLine({ sessionId, cwd: '/work/p', ts: new Date(at + 1000), type: 'assistant', text: 'the rota' }),
  ]);
  const c = temp.open({ env: { STEWARD_CLAUDE_ROOTS: roots } });
  await c.call('Backfill.Run', { all: true });
  await temp.close();
  return { ...temp.home.env, STEWARD_CLAUDE_ROOTS: roots };
}

/** Marks the recount pending, as migration 22 does over an old store (walkEveryIndexedPart). */
function markRecountPending(): void {
  const db = new Database(join(temp.home.dir, 'gateway.db'));
  try {
    const set = db.prepare('INSERT INTO search_state (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value');
    set.run('recount_cursor', 0);
    set.run('recount_upto', 1_000);
  } finally {
    db.close();
  }
}

describe('steward info while the message counts wait for a recount', () => {
  it('says so beside the counts, and that starting Steward finishes it (a sweep does not)', async () => {
    const env = await storeWithHistory();
    markRecountPending();
    const { code, out } = await runIn(env, 'info');
    expect(code).toBe(0);
    const lines = out.split('\n');
    const stored = lines.findIndex((line) => line.startsWith('  Stored: 2 messages'));
    expect(stored).toBeGreaterThan(0);
    expect(lines[stored + 1]).toBe('  Message counts may still change: the search index is being updated (0% checked), and the counts are brought up to date with it.');
    expect(lines[stored + 2]).toBe('  No Steward is running to finish it, so asking again will not change this: starting Steward (`steward serve`) finishes it in the background.');

    const json = JSON.parse((await runIn(env, 'info', '--json')).out) as { indexing: unknown };
    expect(json.indexing).toEqual({ phase: 'retag', indexedParts: 0, totalParts: 1_000 });
  });

  it('says nothing of it when every count is up to date', async () => {
    const env = await storeWithHistory();
    const { out } = await runIn(env, 'info');
    expect(out).toMatch(/^ {2}Stored: 2 messages/m);
    expect(out).not.toContain('Message counts');
    expect((JSON.parse((await runIn(env, 'info', '--json')).out) as { indexing?: unknown }).indexing).toBeNull();
  });
});
