import { mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SKIP_WORDS, type ProviderSweepStats } from '../../../core/api/index.js';
import { SKIP_REASONS } from '../../../core/api/lists.js';
import { runCli } from '../../../core/cli/index.js';
import { captureIo as io } from '../../support/cli.js';
import { coreHome } from '../../support/core.js';

/**
 * QA: every check said "1 unreadable" while Telemetry said "Failures: None" and no place named a file.
 * In a home like QA's (Claude, Codex, Gemini and OpenClaw files, a Windows-cwd Claude session with an
 * inline PNG, files 90–400 days old, sidecars, indexes, archived copies, a logs.json), the files a run
 * counts unreadable are the files Sweep.Unreadable names, each with its cause, whichever run it was.
 * The "1 unreadable" was a line, not a file: one line of a good transcript that does not parse, counted
 * with the lines that held nothing to import. It is said so, never with the word that sends a person
 * looking for a file no list names.
 */
const FX = fileURLToPath(new URL('../../fixtures/transcripts/', import.meta.url));
const DAY = 86_400_000;
const CLAUDE_SESSION = '8c1f2a9e-6b3d-4e7a-9f10-7d2b5c4e3a21';
const CODEX_LIVE = 'rollout-2026-07-13T18-41-30-019f5c5a-eb02-7ff0-90af-653b66eba9f4.jsonl';
const CODEX_OLD = 'rollout-2025-08-20T11-12-03-5a3f1c2e-8b4d-4e6f-9a1b-2c3d4e5f6a7b.jsonl';
const OPENCLAW = '3b8e2f10-6c4d-4a7e-9f21-5d0c8b7a6e43';

function put(path: string, bytes: string | Buffer, daysAgo = 0): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, bytes);
  if (daysAgo > 0) {
    const at = new Date(Date.now() - daysAgo * DAY);
    utimesSync(path, at, at);
  }
  return path;
}
const fixture = (name: string) => readFileSync(join(FX, name));

/** A Claude Code session on Windows: a screenshot inline, then one line cut short mid-file (a crash), then the answer. */
function windowsSession(): string {
  const base = { parentUuid: null, isSidechain: false, userType: 'external', cwd: 'C:\\Users\\ana\\source\\repos\\WinForms App', sessionId: CLAUDE_SESSION, version: '2.1.12' };
  const now = new Date().toISOString();
  const png = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgoAAAANSUhEUg'.repeat(2_000) } };
  const lines = [
    JSON.stringify({ ...base, type: 'user', uuid: 'u-1', timestamp: now, message: { role: 'user', content: [{ type: 'text', text: 'the button is cut off' }, png] } }),
    '{"parentUuid":"u-1","type":"assistant","message":{"role":"assis',
    JSON.stringify({ ...base, type: 'assistant', uuid: 'a-1', parentUuid: 'u-1', timestamp: now, message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'Anchored it.' }] } }),
  ];
  return `${lines.join('\r\n')}\r\n`;
}

/** Every kind of file QA's home held, and two that cannot be read: a cut-off OpenClaw archive, a Gemini chat cut short. */
function realisticHome(roots: Record<'claude' | 'openclaw' | 'codex' | 'gemini', string>): string[] {
  const project = join(roots.claude, 'projects', 'C--Users-ana-source-repos-WinForms-App');
  put(join(project, `${CLAUDE_SESSION}.jsonl`), windowsSession());
  put(join(project, CLAUDE_SESSION, 'subagents', 'agent-1.meta.json'), '{"agentType":"Explore"}');
  put(join(roots.claude, 'projects', '-home-sam-dash', '6e1d9a4b-2f7c-4b3e-8a5d-0c9f1e2d3b4a.jsonl'), fixture('claude/image-result.jsonl'), 100);
  put(join(roots.claude, 'projects', '-home-sam-dash', 'notes.jsonl'), '{"note":"buy milk"}\n', 400);
  put(join(roots.codex, 'sessions', '2026', '07', '13', CODEX_LIVE), fixture(`codex/${CODEX_LIVE}`), 150);
  put(join(roots.codex, 'archived_sessions', CODEX_OLD), fixture(`codex/${CODEX_OLD}`), 380);
  put(join(roots.codex, 'session_index.jsonl'), '{"id":"019f5c5a-eb02-7ff0-90af-653b66eba9f4","thread_name":"fix the form"}\n');
  put(join(roots.codex, 'history.jsonl'), '{"session_id":"x","ts":1,"text":"y"}\n');
  put(join(roots.gemini, 'tmp', 'site', 'chats', 'session-2026-05-22T14-59-92f625c6.jsonl'), fixture('gemini/current-session.jsonl'), 90);
  put(join(roots.gemini, 'tmp', 'site', 'logs.json'), '[{"sessionId":"x","messageId":0,"type":"user","message":"hi"}]');
  put(join(roots.gemini, 'tmp', 'site', '.project_root'), '/home/ana/site');
  const cutChat = put(join(roots.gemini, 'tmp', 'site', 'chats', 'session-2026-12-01T00-00-0badc0de.json'), '{"sessionId":"0badc0de","messages":[{"id"');
  const sessions = join(roots.openclaw, 'agents', 'main', 'sessions');
  for (const name of [`${OPENCLAW}.jsonl`, `${OPENCLAW}.jsonl.reset.2026-04-02T10-00-00.000Z`, `${OPENCLAW}.jsonl.deleted.2026-04-02T11-00-00.000Z`]) put(join(sessions, name), fixture('openclaw/image-result.jsonl'), 95);
  put(join(sessions, 'sessions.json'), '{}');
  const cutArchive = put(join(sessions, 'a1b2c3d4.jsonl.deleted.2026-04-02T11-00-00.000Z.zst'), fixture('openclaw-store/reset.jsonl.zst').subarray(0, 40));
  return [cutChat, cutArchive];
}

const temp = coreHome('steward-realistic-unreadable-');

/** The home's roots, every provider's set (never the real home). */
function rootsOf(dir: string) {
  const roots = { claude: join(dir, 'roots', 'claude'), desktop: join(dir, 'roots', 'desktop'), openclaw: join(dir, 'roots', 'openclaw'), codex: join(dir, 'roots', 'codex'), gemini: join(dir, 'roots', 'gemini') };
  for (const root of Object.values(roots)) mkdirSync(root, { recursive: true });
  const env = { STEWARD_CLAUDE_ROOTS: roots.claude, STEWARD_CLAUDE_DESKTOP_ROOTS: roots.desktop, STEWARD_OPENCLAW_ROOTS: roots.openclaw, STEWARD_CODEX_ROOTS: roots.codex, STEWARD_GEMINI_ROOTS: roots.gemini };
  return { roots, env };
}

const counted = (providers: ProviderSweepStats[]) => providers.flatMap((p) => (p.unreadable ?? []).flatMap((e) => Array<string>(e.count).fill(`${p.provider}:${e.code}`))).sort();

describe('a home like QA’s', () => {
  it('every file a tick, a later tick or a backfill counts unreadable is one Sweep.Unreadable names, with its cause', async () => {
    const { roots, env } = rootsOf(temp.home.dir);
    const broken = realisticHome(roots);
    const core = temp.open({ env });
    for (const run of [() => core.call('Sweep.Tick', {}), () => core.call('Sweep.Tick', {}), () => core.call('Backfill.Run', { all: true })]) {
      const result = await run();
      const listed = await core.call('Sweep.Unreadable', {});
      expect(listed.files.map((f) => f.path).sort()).toEqual([...broken].sort());
      expect(counted(result.providers)).toEqual(listed.files.map((f) => `${f.provider}:${f.code}`).sort());
      expect(result.unreadable?.map((f) => f.path).sort()).toEqual([...broken].sort());
    }
  });

  it('a line of a good transcript that does not parse is counted with the skipped lines, and not said unreadable', async () => {
    const { roots, env } = rootsOf(temp.home.dir);
    realisticHome(roots);
    const core = temp.open({ env });
    const claude = (await core.call('Sweep.Tick', {})).providers.find((p) => p.provider === 'claude')!;
    expect(claude).toMatchObject({ failed: 0, failedLines: 1, skipped: { malformed: 1 } });
    expect(claude.unreadable).toBeUndefined();
    expect((await core.call('Sweep.Unreadable', {})).files.filter((f) => f.provider === 'claude')).toEqual([]);
    // "Unreadable" is the word for a file a list names (Telemetry's "Files Steward could not read"): a line's reason never says it.
    for (const reason of SKIP_REASONS) expect(SKIP_WORDS[reason]).not.toMatch(/unreadable|could not be read/i);
  });

  it('steward sweep says the line is one that did not parse, and says "unreadable" only of the files it names', async () => {
    const { roots, env } = rootsOf(temp.home.dir);
    const broken = realisticHome(roots);
    Object.assign(temp.home.env, env);
    const out = io(temp.home.env);
    await runCli(['sweep'], out);
    expect(out.out).toMatch(/^claude: .*1 line held nothing to import \(.*1 that did not parse/m);
    expect(out.out.match(/^claude: .*$/m)![0]).not.toMatch(/unreadable/);
    for (const path of broken) expect(out.out).toContain(path);
  });
});

describe('the words of lines older than the window', () => {
  it('are the same phrase every place uses: "older than the window"', () => {
    expect(SKIP_WORDS.outside_window).toBe('older than the window');
  });
});
