import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newRunToken, runBackfillProvider } from '../../../core/backfill/index.js';
import { CommitWindow, Materializer, Sink, Spool } from '../../../core/gateway/index.js';
import { createMemoryLogger } from '../../../core/log/index.js';
import { ClaudeProvider } from '../../../core/transcripts/providers/claude/index.js';
import { appendJsonl, claudeLine, claudeSession, writeJsonl } from '../../support/transcripts.js';
import { byProvider, captureHarness, type CaptureHarness } from './harness.js';

let h: CaptureHarness;
beforeEach(() => {
  h = captureHarness();
});
afterEach(async () => {
  await h.close();
});

const claude = async () => byProvider(await h.driver.tick(), 'claude');

describe('Claude provider, scheduled passes', () => {
  it('reads zero files on an unchanged second pass, then exactly the appended file', async () => {
    const a = claudeSession(h.claudeRoot, 'sess-a', 4);
    claudeSession(h.claudeRoot, 'sess-b', 3);
    const first = await claude();
    expect(first).toMatchObject({ discovered: 2, read: 2, unchanged: 0, failed: 0, partsWritten: 7 });

    const second = await claude();
    expect(second).toMatchObject({ discovered: 2, read: 0, unchanged: 2, partsWritten: 0 });

    appendJsonl(a, [claudeLine({ sessionId: 'sess-a', text: 'one more' })]);
    const third = await claude();
    expect(third).toMatchObject({ discovered: 2, read: 1, unchanged: 1, partsWritten: 1 });
    expect(h.count('SELECT COUNT(*) FROM parts')).toBe(8);
  });

  it('imports a partial last line once, after it is completed', async () => {
    const file = join(h.claudeRoot, 'projects', 'p', 'sess-p.jsonl');
    const done = claudeLine({ sessionId: 'sess-p', text: 'complete' });
    const partial = JSON.stringify(claudeLine({ sessionId: 'sess-p', text: 'in flight' }));
    writeJsonl(file, [done]);
    writeFileSync(file, `${JSON.stringify(done)}\n${partial.slice(0, 40)}`);
    expect((await claude()).partsWritten).toBe(1);
    writeFileSync(file, `${JSON.stringify(done)}\n${partial}\n`);
    expect((await claude()).partsWritten).toBe(1);
    expect((await claude()).partsWritten).toBe(0);
    expect(h.count('SELECT COUNT(*) FROM parts WHERE session_id = ?', 'sess-p')).toBe(2);
  });

  it('counts and skips malformed complete lines', async () => {
    const file = join(h.claudeRoot, 'projects', 'p', 'sess-m.jsonl');
    const good = JSON.stringify(claudeLine({ sessionId: 'sess-m' }));
    writeJsonl(file, [good, '{"type":"user","uuid":"broken', good.replace(/"uuid":"[^"]+"/, '"uuid":"other-uuid"')]);
    const stats = await claude();
    expect(stats).toMatchObject({ read: 1, failed: 0, partsWritten: 2, failedLines: 1 });
  });

  it('collapses the same lines copied into a resumed session file to one part each', async () => {
    const lines = [claudeLine({ sessionId: 'orig' }), claudeLine({ sessionId: 'orig', type: 'assistant' })];
    writeJsonl(join(h.claudeRoot, 'projects', 'p', 'orig.jsonl'), lines);
    writeJsonl(join(h.claudeRoot, 'projects', 'p', 'resumed.jsonl'), [...lines, claudeLine({ sessionId: 'resumed' })]);
    const stats = await claude();
    expect(stats.read).toBe(2);
    expect(h.count('SELECT COUNT(*) FROM parts')).toBe(3);
    expect(h.count("SELECT COUNT(*) FROM parts WHERE session_id = 'orig'")).toBe(2);
    expect(h.count('SELECT COUNT(*) FROM sessions')).toBe(2);
  });

  it('counts a line copied under another session id once, as the cache holds it once', async () => {
    const shared = claudeLine({ sessionId: 'first' });
    writeJsonl(join(h.claudeRoot, 'projects', 'p', 'first.jsonl'), [shared]);
    expect((await claude()).partsWritten).toBe(1);
    // A later file holds the same line (same uuid) under its own session id, beside one new line.
    writeJsonl(join(h.claudeRoot, 'projects', 'p', 'second.jsonl'), [{ ...shared, sessionId: 'second' }, claudeLine({ sessionId: 'second' })]);
    const stats = await claude();
    expect(h.count('SELECT COUNT(*) FROM parts')).toBe(2);
    expect(stats.partsWritten).toBe(1);
  });

  it('a cancelled run stops its walk, says the list is partial, and forgets no fingerprint', async () => {
    for (const id of ['c-1', 'c-2', 'c-3']) claudeSession(h.claudeRoot, id, 2);
    await claude();
    expect(h.driver.fingerprints.size).toBe(3);

    const provider = new ClaudeProvider({ roots: [h.claudeRoot], desktopRoots: [] });
    const controller = new AbortController();
    // Cancelled while the walk waits on its first stat: it stops at the next folder.
    const walking = provider.discover(controller.signal);
    controller.abort();
    expect(await walking).toEqual({ files: [], failed: 0, cancelled: true });

    const sink = new Sink(h.db, h.projects);
    const materializer = new Materializer(h.db, new Spool(h.db), sink);
    const commits = new CommitWindow(h.db);
    const { fingerprints } = h.driver;
    const ctx = { token: newRunToken(), scheduled: true, windowStartMs: null, maxLineBytes: 1 << 20, signal: AbortSignal.abort() };
    const stats = await runBackfillProvider(provider, { materializer, sink, commits, fingerprints, logger: createMemoryLogger() }, ctx);
    expect(stats).toMatchObject({ discovered: 0, read: 0 });
    expect(h.driver.fingerprints.size).toBe(3);
    expect((await claude()).read).toBe(0);
  });

  it('keeps the rows of a transcript that was deleted', async () => {
    const file = claudeSession(h.claudeRoot, 'gone', 3);
    await claude();
    rmSync(file);
    const after = await claude();
    expect(after).toMatchObject({ discovered: 0, read: 0 });
    expect(h.driver.fingerprints.size).toBe(0);
    expect(h.count("SELECT COUNT(*) FROM parts WHERE session_id = 'gone'")).toBe(3);
    expect(h.count("SELECT COUNT(*) FROM sessions WHERE session_id = 'gone'")).toBe(1);
  });

  it('terminates on a symlink loop and reads a linked file once', async () => {
    const dir = join(h.claudeRoot, 'projects', '-work-fixture-project');
    claudeSession(h.claudeRoot, 'looped', 2);
    symlinkSync(dir, join(dir, 'loop'));
    symlinkSync(join(h.claudeRoot, 'projects'), join(dir, 'up'));
    symlinkSync(join(dir, 'looped.jsonl'), join(dir, 'alias.jsonl'));
    const stats = await claude();
    expect(stats).toMatchObject({ discovered: 1, read: 1, partsWritten: 2 });
  });

  it('records a transcript reached through a symlinked folder under its real path, whichever path the walk meets first', async () => {
    const real = join(h.claudeRoot, 'projects', 'zzz-real');
    writeJsonl(join(real, 'linked.jsonl'), [claudeLine({ sessionId: 'linked' })]);
    // 'aaa-link' sorts (and is walked) before the folder it points to.
    symlinkSync(real, join(h.claudeRoot, 'projects', 'aaa-link'));
    const scan = await h.driver.providers.find((p) => p.id === 'claude')!.discover();
    expect(scan.files.map((f) => f.path)).toEqual([join(real, 'linked.jsonl')]);
    expect(await claude()).toMatchObject({ discovered: 1, read: 1 });
    expect(await claude()).toMatchObject({ discovered: 1, read: 0, unchanged: 1 });
  });

  it('fills a subagent agentType from a sidecar that arrives after the transcript', async () => {
    const subagents = join(h.claudeRoot, 'projects', 'p', 'parent-1', 'subagents');
    const file = join(subagents, 'agent-a748733.jsonl');
    writeJsonl(file, [claudeLine({ sessionId: 'parent-1', agentId: 'a748733', text: 'find callers' })]);
    writeJsonl(join(h.claudeRoot, 'projects', 'p', 'parent-1.jsonl'), [claudeLine({ sessionId: 'parent-1' })]);
    await claude();
    // The subagent is a session of its own, but the project counts one conversation.
    expect(h.projects.list()).toMatchObject([{ name: 'fixture-project', sessions: 1 }]);
    const row = () => h.db.prepare("SELECT parent_session_id AS parent, agent_type AS agentType FROM sessions WHERE session_id = 'parent-1:agent-a748733'").get();
    expect(row()).toEqual({ parent: 'parent-1', agentType: null });

    writeFileSync(join(subagents, 'agent-a748733.meta.json'), JSON.stringify({ agentType: 'Explore', spawnDepth: 1 }));
    // The sidecar's time is the transcript's too: the file is read again and the type taken, with no new line.
    expect((await claude()).read).toBe(1);
    expect(row()).toEqual({ parent: 'parent-1', agentType: 'Explore' });
    appendJsonl(file, [claudeLine({ sessionId: 'parent-1', agentId: 'a748733', type: 'assistant' })]);
    expect((await claude()).read).toBe(1);
    expect(row()).toEqual({ parent: 'parent-1', agentType: 'Explore' });
  });

  it('handles the flat subagent layout and skips compaction agents', async () => {
    const dir = join(h.claudeRoot, 'projects', 'p');
    writeJsonl(join(dir, 'agent-b1.jsonl'), [claudeLine({ sessionId: 'parent-2', agentId: 'b1' })]);
    writeJsonl(join(dir, 'agent-acompact-x.jsonl'), [claudeLine({ sessionId: 'parent-2', agentId: 'acompact-x' })]);
    writeJsonl(join(dir, 'parent-2.jsonl'), [claudeLine({ sessionId: 'parent-2' })]);
    mkdirSync(join(dir, 'tool-results'), { recursive: true });
    const stats = await claude();
    expect(stats.discovered).toBe(2);
    expect(h.count("SELECT COUNT(*) FROM sessions WHERE session_id = 'parent-2:agent-b1' AND parent_session_id = 'parent-2'")).toBe(1);
  });

  it('bounds images and long tool results', async () => {
    const data = Buffer.alloc(300_000, 7).toString('base64');
    const long = 'x'.repeat(100_000);
    writeJsonl(join(h.claudeRoot, 'projects', 'p', 'big.jsonl'), [
      claudeLine({
        sessionId: 'big',
        content: [
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data } },
          { type: 'tool_result', tool_use_id: 'toolu_1', content: long },
        ],
      }),
    ]);
    await claude();
    const rows = h.db.prepare("SELECT kind, length(COALESCE(text, '')) AS len, meta FROM parts WHERE session_id = 'big' ORDER BY part_id").all() as Array<{ kind: string; len: number; meta: string }>;
    expect(rows.map((r) => r.kind)).toEqual(['image', 'tool_result']);
    expect(JSON.parse(rows[0]!.meta)).toMatchObject({ media_type: 'image/png', bytes: 300_000 });
    expect(rows[1]!.len).toBeLessThan(10_000);
    expect(JSON.parse(rows[1]!.meta).truncated.length).toBe(100_000);
  });
});
