import { appendFileSync, copyFileSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Capture } from '../../../core/capture/index.js';
import { parseConfig } from '../../../core/config/index.js';
import { createMemoryLogger } from '../../../core/log/index.js';
import { PROVIDER_REGISTRY } from '../../../core/transcripts/providers/index.js';
import { claudeLine, claudeSession, desktopSession, openclawLines, writeJsonl } from '../../support/transcripts.js';
import { byProvider, captureHarness, vanishing, type CaptureHarness } from './harness.js';

/**
 * A run's file counts ("codex: 2 transcript files, 2 read") are of transcripts. A file that only
 * describes them (Codex's session_index.jsonl, Claude Desktop's `local_<id>.json`, a subagent's
 * `.meta.json`, Claude Code's sessions-index.json, Gemini CLI's projects.json and logs.json,
 * OpenClaw's sessions.json) is read for what it says, and counted as none of them.
 */
const CODEX = fileURLToPath(new URL('../../fixtures/transcripts/codex/', import.meta.url));
const MODERN = 'rollout-2026-07-13T18-41-30-019f5c5a-eb02-7ff0-90af-653b66eba9f4.jsonl';
const FORK = 'rollout-2026-07-13T19-20-00-019f5c7e-2b10-7a44-8c01-9d8e7f6a5b4c.jsonl';
const MODERN_ID = '019f5c5a-eb02-7ff0-90af-653b66eba9f4';

let h: CaptureHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const mkdirp = (dir: string) => (mkdirSync(dir, { recursive: true }), dir);
const titleOf = (harness: CaptureHarness, sessionId: string) => harness.db.prepare('SELECT title FROM sessions WHERE session_id = ?').pluck().get(sessionId);
const named = (name: string, at: string) => `${JSON.stringify({ id: MODERN_ID, thread_name: name, updated_at: at })}\n`;

describe('a sidecar is no transcript file in a run’s counts', () => {
  it('Codex: two rollouts and session_index.jsonl are two transcript files; a rename reads the index, counted as neither read nor unchanged', async () => {
    h = captureHarness({ query: { cache: { retention: { default_days: 0 } } } });
    const day = mkdirp(join(h.codexRoot, 'sessions', '2026', '07', '13'));
    for (const fixture of [MODERN, FORK]) copyFileSync(join(CODEX, fixture), join(day, basename(fixture)));
    const index = join(h.codexRoot, 'session_index.jsonl');
    writeFileSync(index, named('Uploader backoff', '2026-07-13T16:42:00Z'));
    expect(byProvider(await h.driver.tick(), 'codex')).toMatchObject({ discovered: 2, read: 2, unchanged: 0 });
    expect(titleOf(h, MODERN_ID)).toBe('Uploader backoff');
    expect(byProvider(await h.driver.tick(), 'codex')).toMatchObject({ discovered: 2, read: 0, unchanged: 2 });
    appendFileSync(index, named('Retry with jitter', '2026-07-14T09:00:00Z'));
    expect(byProvider(await h.driver.tick(), 'codex')).toMatchObject({ discovered: 2, read: 0, unchanged: 2, partsWritten: 0 });
    expect(titleOf(h, MODERN_ID)).toBe('Retry with jitter');
  });

  /**
   * QA: with a 5-line index, `backfill --provider codex --all` said "7 lines held nothing to import (7
   * bookkeeping)" where 2 without it. The index is read, and none of its lines, bytes or dates are the run's.
   */
  it('Codex: session_index.jsonl adds no line, byte, or file left out to the run’s transcript figures', async () => {
    const figures = async (index: string | undefined) => {
      const harness = captureHarness({ query: { cache: { retention: { default_days: 30 } } } });
      try {
        const day = mkdirp(join(harness.codexRoot, 'sessions', '2026', '07', '13'));
        for (const fixture of [MODERN, FORK]) copyFileSync(join(CODEX, fixture), join(day, basename(fixture)));
        if (index !== undefined) {
          const path = join(harness.codexRoot, 'session_index.jsonl');
          writeFileSync(path, index);
          // An index last written before the window: still no file left out of the window.
          const old = new Date(Date.now() - 60 * 86_400_000);
          utimesSync(path, old, old);
        }
        const [stats] = (await harness.driver.backfill({ all: true })).filter((p) => p.provider === 'codex');
        const { discovered, read, failedLines, skipped, bytesRead } = stats!;
        // A scheduled tick has a window; the index's date is no transcript's.
        const { outsideWindow, unchanged } = byProvider(await harness.driver.tick(), 'codex');
        return { discovered, read, failedLines, skipped, bytesRead, outsideWindow, unchanged };
      } finally {
        await harness.close();
      }
    };
    const lines = ['Uploader backoff', 'Retry with jitter', 'Fork it', 'Tidy', 'Ship'].map((name, i) => named(name, `2026-07-13T1${i}:00:00Z`)).join('') + 'not json\n';
    const without = await figures(undefined);
    expect(without.read).toBe(2);
    expect(await figures(lines)).toEqual(without);
  });

  it('Codex: an index gone between listing and reading is no transcript gone', async () => {
    h = captureHarness();
    const day = mkdirp(join(h.codexRoot, 'sessions', '2026', '07', '13'));
    copyFileSync(join(CODEX, MODERN), join(day, MODERN));
    const index = join(h.codexRoot, 'session_index.jsonl');
    writeFileSync(index, named('Uploader backoff', '2026-07-13T16:42:00Z'));
    const codex = vanishing(PROVIDER_REGISTRY.codex.create({ roots: [h.codexRoot] } as never), index);
    const driver = new Capture({ db: h.db, projects: h.projects, config: parseConfig({}), env: h.home.env, logger: createMemoryLogger(), record: () => {}, providers: [codex] });
    try {
      expect(byProvider(await driver.tick(), 'codex')).toMatchObject({ discovered: 1, read: 1, vanished: 0, failed: 0 });
    } finally {
      await driver.stop();
    }
  });

  it('Claude, Gemini and OpenClaw discover their transcripts only, whatever sidecars lie beside them', async () => {
    h = captureHarness();
    // Claude Code: a session, a subagent with its `.meta.json`, sessions-index.json and history.jsonl.
    const session = claudeSession(h.claudeRoot, '0d4f5a1e-1111-4c2d-9e3f-aaaaaaaaaaaa', 2);
    const project = join(h.claudeRoot, 'projects', '-work-fixture-project');
    const subagents = mkdirp(join(project, '0d4f5a1e-1111-4c2d-9e3f-aaaaaaaaaaaa', 'subagents'));
    writeJsonl(join(subagents, 'agent-a748733.jsonl'), [{ ...claudeLine({ sessionId: '0d4f5a1e-1111-4c2d-9e3f-aaaaaaaaaaaa' }), isSidechain: true, agentId: 'a748733' }]);
    writeFileSync(join(subagents, 'agent-a748733.meta.json'), JSON.stringify({ agentType: 'general-purpose', spawnDepth: 1 }));
    writeFileSync(join(project, 'sessions-index.json'), JSON.stringify({ version: 1, originalPath: '/work/fixture-project', entries: [{ sessionId: basename(session, '.jsonl') }] }));
    writeJsonl(join(h.claudeRoot, 'history.jsonl'), [{ display: 'hi', timestamp: 1, project: '/work', sessionId: 'x' }]);
    // Claude Desktop: a Cowork home and its `local_<id>.json`.
    desktopSession(h.desktopRoot, '7c2e9b10-2222-4d3e-8f40-bbbbbbbbbbbb', 2);
    const claude = PROVIDER_REGISTRY.claude.create({ roots: [h.claudeRoot], desktop_roots: [h.desktopRoot] } as never);
    expect((await claude.discover()).files.map((f) => basename(f.path)).sort()).toEqual(['0d4f5a1e-1111-4c2d-9e3f-aaaaaaaaaaaa.jsonl', '7c2e9b10-2222-4d3e-8f40-bbbbbbbbbbbb.jsonl', 'agent-a748733.jsonl']);

    // Gemini CLI: a chat beside projects.json, its project's logs.json and .project_root.
    const chats = mkdirp(join(h.geminiRoot, 'tmp', 'abc123def456', 'chats'));
    copyFileSync(fileURLToPath(new URL('../../fixtures/transcripts/gemini/current-session.jsonl', import.meta.url)), join(chats, 'session-2026-05-22T14-59-92f625c6.jsonl'));
    writeFileSync(join(h.geminiRoot, 'projects.json'), JSON.stringify({ projects: { '/work/app': 'abc123def456' } }));
    writeFileSync(join(h.geminiRoot, 'tmp', 'abc123def456', 'logs.json'), JSON.stringify([{ sessionId: 'x', messageId: 0, type: 'user', message: 'hi' }]));
    writeFileSync(join(h.geminiRoot, 'tmp', 'abc123def456', '.project_root'), '/work/app');
    const gemini = PROVIDER_REGISTRY.gemini.create({ roots: [h.geminiRoot] });
    expect((await gemini.discover()).files.map((f) => basename(f.path))).toEqual(['session-2026-05-22T14-59-92f625c6.jsonl']);

    // OpenClaw: a session beside the agent's sessions.json.
    const sessions = mkdirp(join(h.openclawRoot, 'agents', 'main', 'sessions'));
    writeJsonl(join(sessions, 'lyon-1.jsonl'), openclawLines('lyon-1', [{ id: 'a0000001', text: 'Plan the Lyon trip' }]));
    writeFileSync(join(sessions, 'sessions.json'), JSON.stringify({ 'agent:main:main': { sessionId: 'lyon-1', updatedAt: 1 } }));
    const openclaw = PROVIDER_REGISTRY.openclaw.create({ roots: [h.openclawRoot] });
    expect((await openclaw.discover()).files.map((f) => basename(f.path))).toEqual(['lyon-1.jsonl']);
  });
});
