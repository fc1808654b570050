import { execFileSync } from 'node:child_process';
import { closeSync, constants, copyFileSync, existsSync, mkdirSync, openSync, readFileSync, symlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';
import { AgentStoreFixture, agentStorePath, fixtureEvents, STORE_FIXTURES } from '../../support/openclaw-store.js';
import { byProvider, captureHarness, type CaptureHarness } from './harness.js';

/**
 * Attack: a document read whole beside the transcripts (a subagent's `.meta.json`, a Cowork sidecar,
 * Codex's session_index.jsonl, an OpenClaw cold archive) that is a FIFO hung the tick forever (its
 * stat says 0 bytes, under the cap; the read waits for a writer), and one that is a link to /dev/zero
 * read ~700 MB for 14 s on every tick. Such a document is no regular file: it is taken as absent, unread.
 */
const POSIX = process.platform !== 'win32';
const CODEX = fileURLToPath(new URL('../../fixtures/transcripts/codex/', import.meta.url));
const ROLLOUT = 'rollout-2026-07-13T18-41-30-019f5c5a-eb02-7ff0-90af-653b66eba9f4.jsonl';
/** A tick over a few small files takes well under a second; the hung one never ended. */
const WITHIN_MS = 5_000;

let h: CaptureHarness | undefined;
const fifos: string[] = [];
const stores: AgentStoreFixture[] = [];
afterEach(async () => {
  // A reader still waiting on a FIFO (the old code) gets its end of file, so the harness can close.
  for (const fifo of fifos.splice(0)) release(fifo);
  for (const store of stores.splice(0)) store.close();
  await h?.close();
  h = undefined;
});

function release(fifo: string): void {
  try {
    closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
  } catch {
    // No reader waits on it.
  }
}

function mkfifo(path: string): string {
  mkdirSync(join(path, '..'), { recursive: true });
  execFileSync('mkfifo', [path]);
  fifos.push(path);
  return path;
}

async function within<T>(work: Promise<T>, ms = WITHIN_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`still running after ${ms} ms`)), ms)));
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** `<root>/projects/<P>/<S>/subagents/agent-a111.jsonl` and its session; the sidecar's path. */
function subagent(root: string): string {
  const dir = join(root, 'projects', '-work-p');
  writeJsonl(join(dir, 'S1.jsonl'), [claudeLine({ sessionId: 'S1', text: 'start' })]);
  writeJsonl(join(dir, 'S1', 'subagents', 'agent-a111.jsonl'), [claudeLine({ sessionId: 'S1', agentId: 'a111', text: 'list the files' })]);
  return join(dir, 'S1', 'subagents', 'agent-a111.meta.json');
}

const parts = (harness: CaptureHarness) => harness.count('SELECT COUNT(*) FROM parts');

describe.skipIf(!POSIX)('a document read whole that is no regular file', () => {
  it("Claude: a subagent's .meta.json that is a FIFO: the tick ends, and the subagent is read", async () => {
    h = captureHarness({ query: { cache: { retention: { default_days: 0 } } } });
    mkfifo(subagent(h.claudeRoot));
    expect(byProvider(await within(h.driver.tick()), 'claude')).toMatchObject({ discovered: 2, read: 2, failed: 0 });
    expect(parts(h)).toBe(2);
  }, 20_000);

  it("Claude: a subagent's .meta.json linked to /dev/zero is not read (it never ends)", async () => {
    h = captureHarness({ query: { cache: { retention: { default_days: 0 } } } });
    symlinkSync('/dev/zero', subagent(h.claudeRoot));
    const started = Date.now();
    expect(byProvider(await within(h.driver.tick()), 'claude')).toMatchObject({ read: 2, failed: 0 });
    expect(Date.now() - started).toBeLessThan(WITHIN_MS);
  }, 30_000);

  it('Claude Desktop: a Cowork sidecar that is a FIFO: the tick ends, the transcript is read', async () => {
    h = captureHarness({ query: { cache: { retention: { default_days: 0 } } } });
    const ws = join(h.desktopRoot, 'local-agent-mode-sessions', 'org-1', 'ws-1');
    writeJsonl(join(ws, 'local_c1', '.claude', 'projects', '-sessions-x', 'c1.jsonl'), [claudeLine({ sessionId: 'c1', text: 'cowork' })]);
    mkfifo(join(ws, 'local_c1.json'));
    expect(byProvider(await within(h.driver.tick()), 'claude')).toMatchObject({ read: 1, failed: 0 });
  }, 20_000);

  it('Codex: session_index.jsonl that is a FIFO: backfill --all ends, the rollout is read', async () => {
    h = captureHarness();
    const day = join(h.codexRoot, 'sessions', '2026', '07', '13');
    mkdirSync(day, { recursive: true });
    copyFileSync(join(CODEX, ROLLOUT), join(day, basename(ROLLOUT)));
    mkfifo(join(h.codexRoot, 'session_index.jsonl'));
    const [codex] = (await within(h.driver.backfill({ all: true }))).filter((p) => p.provider === 'codex');
    expect(codex).toMatchObject({ discovered: 1, read: 1, failed: 0 });
  }, 20_000);

  it('OpenClaw: a cold archive that is a FIFO: the tick ends, and the archive is counted as not read', async () => {
    h = captureHarness({ query: { cache: { retention: { default_days: 0 } } } });
    const cold = JSON.parse(readFileSync(join(STORE_FIXTURES, 'cold.meta.json'), 'utf8')) as Record<string, string | number>;
    const store = new AgentStoreFixture(agentStorePath(h.openclawRoot, 'main'), 'current', 'main');
    stores.push(store);
    store.append('7f3c9e2a-5b41-4d8e-9a0c-3e1f2d4b6a01', fixtureEvents().slice(0, 2));
    store.db
      .prepare(
        "INSERT INTO session_transcript_cold_archives (session_id, generation, archive_name, archive_sha256, event_count, raw_bytes, archive_bytes, last_seq, archived_at, storage, archive_blob) VALUES (@session_id, @generation, @archive_name, @archive_sha256, @event_count, @raw_bytes, @archive_bytes, @last_seq, 1, 'file', NULL)",
      )
      .run(cold);
    mkfifo(join(h.openclawRoot, 'agents', 'main', 'sessions', 'cold', String(cold.archive_name)));
    const stats = byProvider(await within(h.driver.tick()), 'openclaw');
    expect(stats).toMatchObject({ read: 1, failed: 0 });
    expect(stats.skipped?.malformed).toBe(1);
    expect(existsSync(join(h.openclawRoot, 'agents', 'main', 'sessions', 'cold'))).toBe(true);
  }, 20_000);
});
