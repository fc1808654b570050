import { copyFileSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { projectKeyOf } from '../../core/projects/folder/index.js';
import type { LineStats, PartRow, TranscriptBatch, TranscriptFile, TranscriptProvider } from '../../core/transcripts/index.js';
import { GeminiProvider } from '../../core/transcripts/providers/gemini/index.js';
import { OpenClawProvider } from '../../core/transcripts/providers/openclaw/index.js';
import { tempHome } from '../support/home.js';
import { claudeLine, writeJsonl } from '../support/transcripts.js';
import { byProvider, captureHarness, inLastHour, type CaptureHarness } from './capture/harness.js';

/**
 * The transcript providers fed the shapes real agents write (the agentsview fixtures, the shapes of
 * ../shared/reference/transcript-formats.md), looking for what they mis-read. Each test names one
 * defect found this way; what held up is covered by the providers' own tests under capture/.
 */

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
const AGENTSVIEW_GEMINI = join(FIXTURES, 'transcripts', 'gemini', 'agentsview');
const ATTACK = join(FIXTURES, 'transcripts', 'attack');

let h: CaptureHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Reads one file straight through a provider, for its parts and its per-line accounting. */
async function readDirect(provider: TranscriptProvider, path: string, source: string, maxLineBytes = 1 << 20): Promise<{ parts: PartRow[]; batches: TranscriptBatch[]; stats: LineStats }> {
  const info = statSync(path, { bigint: true });
  const file: TranscriptFile = { path, dev: info.dev, ino: info.ino, size: Number(info.size), mtimeMs: Number(info.mtimeMs), ctimeMs: Number(info.ctimeMs), source };
  const stats: LineStats = { lines: 0, failedLines: 0, oversizeLines: 0 };
  const batches: TranscriptBatch[] = [];
  for await (const batch of provider.read(file, { maxLineBytes, windowStartMs: null, batchParts: 250 }, stats)) batches.push(batch);
  return { parts: batches.flatMap((b) => b.parts), batches, stats };
}

const skippedTotal = (stats: LineStats) => Object.values(stats.skipped ?? {}).reduce((a, b) => a + b, 0);

describe('huge lines and unicode', () => {
  it('a text cut at its cap never splits a character: the stored prefix is valid UTF-16, not a lone surrogate', async () => {
    h = captureHarness();
    const sessionId = '8c1f2a9e-6b3d-4e7a-9f10-7d2b5c4e3a21';
    // A pasted build log well over the 32 KiB text cap, with emoji straddling the cut and the first request's bound (200).
    const text = `${'x'.repeat(199)}🔥${'x'.repeat(32 * 1024 - 1 - 201)}${'🔥'.repeat(50)}`;
    writeJsonl(join(h.claudeRoot, 'projects', '-Users-ana-src-uploader', `${sessionId}.jsonl`), [
      claudeLine({ sessionId, cwd: '/Users/ana/src/uploader', text, ts: inLastHour(1) }),
      // A /rename whose emoji straddles the 500-unit title bound.
      { type: 'custom-title', customTitle: `${'t'.repeat(499)}🚀 release`, sessionId },
    ]);
    await h.driver.tick();
    const session = h.db.prepare('SELECT title, first_request FROM sessions WHERE session_id = ?').get(sessionId) as { title: string; first_request: string };
    // The first request (200 units) and the title (500) are cut the same way.
    expect([session.first_request.length, session.title.length]).toEqual([199, 499]);
    expect(session.first_request.slice(-2) + session.title.slice(-2)).not.toContain('\uFFFD');
    const stored = h.db.prepare('SELECT text, meta FROM parts WHERE session_id = ?').get(sessionId) as { text: string; meta: string };
    expect(JSON.parse(stored.meta)).toMatchObject({ truncated: { length: text.length } });
    // A lone high surrogate reaches SQLite as U+FFFD: the prefix would end in a character nobody wrote.
    const tail = stored.text.slice(-4);
    expect(tail).not.toContain('\uFFFD');
    expect(tail).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    expect(text.startsWith(stored.text)).toBe(true);
  });

  it('a compressed archive accounts for an above-cap line as the plain file does, and keys the v1 entries after it the same', async () => {
    // A pi v1 session (no entry ids: a line's index is its identity) with a screenshot tool result above the
    // line cap, live as JSONL and the same bytes as OpenClaw's zstd-compressed archive of it.
    const home = tempHome('steward-attack-');
    const root = join(home.dir, 'openclaw', 'agents', 'main', 'sessions');
    mkdirSync(root, { recursive: true });
    const plain = join(root, 'openclaw-v1-screenshot.jsonl');
    const archived = join(root, 'openclaw-v1-screenshot.jsonl.deleted.2025-11-21T10-00-00.000Z.zst');
    copyFileSync(join(ATTACK, 'openclaw-v1-screenshot.jsonl'), plain);
    copyFileSync(join(ATTACK, 'openclaw-v1-screenshot.jsonl.zst'), archived);
    const provider = new OpenClawProvider([]);
    const live = await readDirect(provider, plain, 'openclaw', 4096);
    const cold = await readDirect(provider, archived, 'openclaw', 4096);
    home.cleanup();

    expect(live.stats).toMatchObject({ lines: 5, oversizeLines: 1, skipped: { meta_only: 1, too_large: 1 } });
    expect(live.parts.map((p) => p.partId.split(':').slice(-2).join(':'))).toEqual(['l1:0', 'l2:0', 'l4:0']);
    // The archive holds the same entries: the same part ids, the same lines counted, the same reasons.
    expect(cold.parts.map((p) => p.partId)).toEqual(live.parts.map((p) => p.partId));
    expect({ lines: cold.stats.lines, oversizeLines: cold.stats.oversizeLines, skipped: cold.stats.skipped }).toEqual({
      lines: live.stats.lines,
      oversizeLines: live.stats.oversizeLines,
      skipped: live.stats.skipped,
    });
    expect(new Set(cold.parts.map((p) => p.partId)).size + skippedTotal(cold.stats)).toBe(cold.stats.lines);
  });
});

describe('nothing dropped silently', () => {
  it('a legacy Gemini chat counts its document, which yields no part, by reason: every line is a part or a reason', async () => {
    const path = join(AGENTSVIEW_GEMINI, 'standard_session.json');
    const { parts, stats } = await readDirect(new GeminiProvider([]), path, 'gemini');
    const messagesWithParts = new Set(parts.map((p) => p.partId.split(':').slice(0, 3).join(':'))).size;
    expect(messagesWithParts).toBe(4);
    expect(stats.lines).toBe(5);
    expect(stats.skipped).toEqual({ meta_only: 1 });
    expect(messagesWithParts + skippedTotal(stats)).toBe(stats.lines);
  });
});

const CODEX_ID = '019e7ed5-a438-7881-966c-a2bdf7df9ddf';
const VERBATIM_CWD = '\\\\?\\C:\\Users\\admin\\src\\app';
const PLAIN_CWD = 'C:\\Users\\admin\\src\\app';

/** A rollout in the shape of the agentsview fixtures, with the cwd Codex records on Windows (openai/codex#17302, #19128). */
function windowsRollout(codexRoot: string): string {
  const ts = inLastHour(1).toISOString();
  const rollout = join(codexRoot, 'sessions', '2026', '06', '01', `rollout-2026-06-01T00-19-55-${CODEX_ID}.jsonl`);
  writeJsonl(rollout, [
    { timestamp: ts, type: 'session_meta', payload: { id: CODEX_ID, timestamp: ts, cwd: VERBATIM_CWD, originator: 'codex_cli_rs', cli_version: '0.128.0', source: 'cli' } },
    { timestamp: ts, type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'run the tests' }] } },
  ]);
  return rollout;
}

describe('paths from other systems', () => {
  it("a Codex session on Windows whose cwd carries the verbatim prefix (\\\\?\\C:\\…) is the same project as the plain C:\\ path Claude Code writes", async () => {
    h = captureHarness();
    const claudeId = '0d9b6c1a-2e4f-4a8b-b1c3-5e7f9a0b2c4d';
    const rollout = windowsRollout(h.codexRoot);
    expect(readFileSync(rollout, 'utf8')).toContain('"cwd":"\\\\\\\\?\\\\C:');
    writeJsonl(join(h.claudeRoot, 'projects', 'C--Users-admin-src-app', `${claudeId}.jsonl`), [claudeLine({ sessionId: claudeId, cwd: PLAIN_CWD, text: 'fix the build', ts: inLastHour(2) })]);
    expect(byProvider(await h.driver.tick(), 'codex')).toMatchObject({ read: 1, partsWritten: 1 });
    const keys = h.db.prepare('SELECT project_key FROM sessions ORDER BY session_id').pluck().all();
    expect(keys).toEqual([projectKeyOf(PLAIN_CWD), projectKeyOf(PLAIN_CWD)]);
    expect(h.projects.count()).toBe(1);
    // Its UNC form too: `\\?\UNC\server\share\…` is `\\server\share\…`.
    expect(projectKeyOf('\\\\?\\UNC\\server\\share\\repo')).toBe(projectKeyOf('\\\\server\\share\\repo'));
  });
});

describe('an upgrade of how a folder is keyed', () => {
  it('moves a Codex session stored under its verbatim path’s old key to the folder’s project when the new parser reads its file again', async () => {
    h = captureHarness();
    windowsRollout(h.codexRoot);
    await h.driver.tick();
    const plain = projectKeyOf(PLAIN_CWD);
    // As an older version left it: the session under a key of the verbatim path, its own project row, an older parser's checkpoint.
    const old = 'p_0123456789abcdef';
    h.db.prepare("INSERT INTO projects (project_key, cwd, slug, name, repo_id, repo_backed, last_activity_at, updated_at) VALUES (?, '\\\\?\\c:\\Users\\admin\\src\\app', 'app-01234567', 'app', NULL, 0, 1, 1)").run(old);
    h.db.prepare('UPDATE sessions SET project_key = ?').run(old);
    h.db.prepare('DELETE FROM projects WHERE project_key = ?').run(plain);
    h.db.prepare("UPDATE file_checkpoints SET parser_version = parser_version - 1 WHERE provider = 'codex'").run();

    await h.restart();
    await h.driver.tick();
    expect(h.db.prepare('SELECT project_key FROM sessions').pluck().all()).toEqual([plain]);
    expect(h.db.prepare('SELECT project_key FROM projects').pluck().all()).toEqual([plain]);
  });
});
