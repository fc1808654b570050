import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LineStats, SessionRow, TranscriptFile, TranscriptProvider } from '../../../core/transcripts/index.js';
import { withoutBom } from '../../../core/transcripts/lines.js';
import { ClaudeProvider } from '../../../core/transcripts/providers/claude/index.js';
import { CodexProvider } from '../../../core/transcripts/providers/codex/index.js';
import { GeminiProvider } from '../../../core/transcripts/providers/gemini/index.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { desktopSession } from '../../support/transcripts.js';

/**
 * The files read whole, not through the line readers (see bom-blank-lines.test.ts): a UTF-8 BOM before
 * their first byte (Windows editors, some tools) lost a Codex thread title, failed a legacy Gemini chat
 * and its project registry, and a Cowork sidecar's title and folders.
 */

let home: TempHome;
beforeEach(() => {
  home = tempHome();
});
afterEach(() => home.cleanup());

const BOM = '\uFEFF';
const GEMINI_FIXTURES = fileURLToPath(new URL('../../fixtures/transcripts/gemini/', import.meta.url));

function write(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

/** Discovers the provider's files and reads those of `source`: the sessions the reads name, and their counts. */
async function readAll(provider: TranscriptProvider, source: string): Promise<{ sessions: SessionRow[]; stats: LineStats }> {
  const stats: LineStats = { lines: 0, failedLines: 0, oversizeLines: 0 };
  const sessions: SessionRow[] = [];
  const files: TranscriptFile[] = (await provider.discover()).files.filter((f) => f.source === source);
  expect(files.length).toBeGreaterThan(0);
  for (const file of files) {
    for await (const batch of provider.read(file, { maxLineBytes: 1 << 20, windowStartMs: null, batchParts: 250 }, stats)) sessions.push(...batch.sessions);
  }
  return { sessions, stats };
}

describe('withoutBom', () => {
  it('drops one BOM at the start of a document, and nothing else', () => {
    expect(withoutBom(`${BOM}{"a":1}`)).toBe('{"a":1}');
    expect(withoutBom(`${BOM}${BOM}{}`)).toBe(`${BOM}{}`);
    expect(withoutBom(`{"a":"${BOM}"}`)).toBe(`{"a":"${BOM}"}`);
    expect(withoutBom('')).toBe('');
  });
});

describe('a UTF-8 BOM at the start of a document read whole', () => {
  it('Codex: the first thread named in session_index.jsonl keeps its title', async () => {
    const id = '019a2d7a-41c4-78b1-b7cc-a45d62a89cd5';
    const root = join(home.dir, 'codex');
    const line = { timestamp: '2025-10-29T00:59:38.317Z', type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'run the tests' }] } };
    write(join(root, 'sessions', '2025', '10', '29', `rollout-2025-10-29T00-59-38-${id}.jsonl`), `${JSON.stringify(line)}\n`);
    write(join(root, 'session_index.jsonl'), `${BOM}${JSON.stringify({ id, thread_name: 'Flaky tests', updated_at: '2025-10-29T01:00:00Z' })}\n`);
    const { sessions } = await readAll(new CodexProvider([root]), 'codex');
    expect(sessions.find((s) => s.sessionId === id)).toMatchObject({ title: 'Flaky tests', titleSource: 'sidecar' });
  });

  it('Gemini: a legacy chat (one JSON document) is read, not failed as malformed', async () => {
    const root = join(home.dir, 'gemini');
    const chat = readFileSync(join(GEMINI_FIXTURES, 'legacy-session.json'), 'utf8');
    write(join(root, 'tmp', 'a'.repeat(64), 'chats', 'session-2026-01-14T09-30-5d1e2f3a.json'), `${BOM}${chat}`);
    const { sessions, stats } = await readAll(new GeminiProvider([root]), 'gemini');
    expect(stats.skipped?.malformed).toBeUndefined();
    expect(sessions.map((s) => s.sessionId)).toContain('5d1e2f3a-7b6c-4d5e-8f90-a1b2c3d4e5f6');
  });

  it("Gemini: projects.json still names the chat's project", async () => {
    const root = join(home.dir, 'gemini');
    const chat = readFileSync(join(GEMINI_FIXTURES, 'legacy-session.json'), 'utf8');
    write(join(root, 'tmp', 'site', 'chats', 'session-2026-01-14T09-30-5d1e2f3a.json'), chat);
    write(join(root, 'projects.json'), `${BOM}${JSON.stringify({ projects: { '/home/ana/src/site': 'site' } })}`);
    const { sessions } = await readAll(new GeminiProvider([root]), 'gemini');
    expect(sessions.find((s) => s.sessionId === '5d1e2f3a-7b6c-4d5e-8f90-a1b2c3d4e5f6')?.cwd).toBe('/home/ana/src/site');
  });

  it('Claude: a Cowork sidecar still titles its session', async () => {
    const userData = join(home.dir, 'claude-desktop');
    desktopSession(userData, 'cowork-bom', 2, 'Sidecar title');
    const sidecar = join(userData, 'local-agent-mode-sessions', 'org-1', 'ws-1', 'local_cowork-bom.json');
    writeFileSync(sidecar, `${BOM}${readFileSync(sidecar, 'utf8')}`);
    const { sessions } = await readAll(new ClaudeProvider({ roots: [], desktopRoots: [userData] }), 'desktop');
    expect(sessions.find((s) => s.sessionId === 'cowork-bom')).toMatchObject({ title: 'Sidecar title', titleSource: 'sidecar' });
  });
});
