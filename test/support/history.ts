import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import { Core } from '../../core/index.js';
import { tempHome, type TempHome } from './home.js';
import { claudeLine, openclawLines, writeJsonl } from './transcripts.js';

/**
 * A small history in the shapes agents write (reference/transcript-formats.md): Claude Code sessions
 * with text, thinking, tool calls and their results (one failing), an image, a subagent started by a
 * Task call, and an OpenClaw session. Each search test names the sessions its query must find.
 */
export const ORCHARD = '/work/orchard';
export const KITCHEN = '/work/kitchen';
export const OPENCLAW_CWD = '/work/openclaw-workspace';

export const IDS = {
  pruning: '3f2b9c1e-7a4d-4e8b-9c61-2a8f0b9e4c11',
  config: '8c1f2a9e-6b3d-4e7a-9f10-7d2b5c4e3a21',
  kitchen: 'b7300bff-a214-4c11-97ae-eab26883c67a',
  subagent: 'a1b2c3d4e5f6',
  openclawHeader: 'hdr-9f1e',
} as const;

/** The subagent's session id as the gateway stores it. */
export const SUBAGENT_SESSION = `${IDS.pruning}:agent-${IDS.subagent}`;
export const OPENCLAW_SESSION = `oc:main:${IDS.openclawHeader}`;
/** The model the pruning session's assistant lines name (the other Claude sessions name none). */
export const PRUNING_MODEL = 'claude-sonnet-4-5-20250929';

const DAY = 86_400_000;

/** A token-shaped secret in a tool result: exports redact it unless raw output is asked for. */
export const SECRET = `ghp_${'0123456789abcdefghijklmnopqrstuvwxyzAB'.slice(0, 36)}`;

function msgUuid(session: string, n: number): string {
  return `${session.slice(0, 8)}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

export interface HistoryFixture {
  claudeRoot: string;
  openclawRoot: string;
  /** Line times: the pruning session is the oldest, the kitchen one the newest. */
  times: { pruning: number; config: number; kitchen: number; openclaw: number };
}

export function writeHistoryFixture(root: string, now = Date.now()): HistoryFixture {
  const claudeRoot = join(root, 'claude');
  const openclawRoot = join(root, 'openclaw');
  const times = { pruning: now - 20 * DAY, config: now - 10 * DAY, kitchen: now - 2 * DAY, openclaw: now - 5 * DAY };
  const at = (base: number, i: number) => new Date(base + i * 60_000);
  const orchardDir = join(claudeRoot, 'projects', '-work-orchard');
  const p = IDS.pruning;
  writeJsonl(join(orchardDir, `${p}.jsonl`), [
    { type: 'custom-title', customTitle: 'Winter pruning plan', sessionId: p },
    claudeLine({ sessionId: p, cwd: ORCHARD, ts: at(times.pruning, 0), uuid: msgUuid(p, 1), text: 'How should I prune the apple trees before the frost arrives?' }),
    claudeLine({
      sessionId: p,
      cwd: ORCHARD,
      ts: at(times.pruning, 1),
      type: 'assistant',
      uuid: msgUuid(p, 2),
      model: PRUNING_MODEL,
      content: [
        { type: 'thinking', thinking: 'The person wants a pruning schedule; dormant season is best.', signature: 'sig' },
        { type: 'text', text: 'Prune during dormancy. I will check the orchard calendar script first.' },
        { type: 'tool_use', id: 'toolu_01Build', name: 'Bash', input: { command: 'npm run build:calendar', description: 'Build the calendar' } },
      ],
    }),
    claudeLine({
      sessionId: p,
      cwd: ORCHARD,
      ts: at(times.pruning, 2),
      uuid: msgUuid(p, 3),
      content: [{ type: 'tool_result', tool_use_id: 'toolu_01Build', is_error: true, content: 'Error: Exit code 2\nsrc/calendar.ts(14,7): error TS2345: Argument of type string is not assignable' }],
    }),
    claudeLine({
      sessionId: p,
      cwd: ORCHARD,
      ts: at(times.pruning, 3),
      type: 'assistant',
      uuid: msgUuid(p, 4),
      model: PRUNING_MODEL,
      content: [
        { type: 'text', text: 'The build failed; I will ask a helper to survey the frost dates.' },
        { type: 'tool_use', id: 'toolu_02Task', name: 'Task', input: { description: 'Survey frost dates', prompt: 'Find the first frost dates for the orchard region', subagent_type: 'Explore' } },
      ],
    }),
    claudeLine({
      sessionId: p,
      cwd: ORCHARD,
      ts: at(times.pruning, 6),
      uuid: msgUuid(p, 5),
      content: [
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: Buffer.from('not really a png, but bytes').toString('base64') } },
        { type: 'text', text: 'Here is a photo of the bark damage.' },
      ],
    }),
  ]);
  const agentDir = join(orchardDir, p, 'subagents');
  writeJsonl(join(agentDir, `agent-${IDS.subagent}.jsonl`), [
    claudeLine({ sessionId: p, agentId: IDS.subagent, cwd: ORCHARD, ts: at(times.pruning, 4), uuid: msgUuid(p, 11), text: 'Find the first frost dates for the orchard region' }),
    claudeLine({ sessionId: p, agentId: IDS.subagent, cwd: ORCHARD, ts: at(times.pruning, 5), type: 'assistant', uuid: msgUuid(p, 12), text: 'The first frost usually arrives in late October.' }),
  ]);
  writeFileSync(join(agentDir, `agent-${IDS.subagent}.meta.json`), JSON.stringify({ agentType: 'Explore' }));

  const c = IDS.config;
  writeJsonl(join(orchardDir, `${c}.jsonl`), [
    claudeLine({ sessionId: c, cwd: ORCHARD, ts: at(times.config, 0), uuid: msgUuid(c, 1), text: 'Why does parseConfig throw ERR_MODULE_NOT_FOUND when loading src/config/load_settings.ts?' }),
    claudeLine({
      sessionId: c,
      cwd: ORCHARD,
      ts: at(times.config, 1),
      type: 'assistant',
      uuid: msgUuid(c, 2),
      content: [
        { type: 'text', text: 'The loader resolves relative imports without an extension.' },
        { type: 'tool_use', id: 'toolu_03Read', name: 'Read', input: { file_path: '/work/orchard/src/config/load_settings.ts' } },
      ],
    }),
    claudeLine({
      sessionId: c,
      cwd: ORCHARD,
      ts: at(times.config, 2),
      uuid: msgUuid(c, 3),
      content: [{ type: 'tool_result', tool_use_id: 'toolu_03Read', content: 'export function loadSettings() { return parseConfig(readFileSync(path)); }\nconst GITHUB_TOKEN = "' + SECRET + '";' }],
    }),
    claudeLine({ sessionId: c, cwd: ORCHARD, ts: at(times.config, 3), type: 'assistant', uuid: msgUuid(c, 4), text: 'Add the .js extension to the import of loadSettings.' }),
  ]);

  const k = IDS.kitchen;
  writeJsonl(join(claudeRoot, 'projects', '-work-kitchen', `${k}.jsonl`), [
    claudeLine({ sessionId: k, cwd: KITCHEN, ts: at(times.kitchen, 0), uuid: msgUuid(k, 1), text: '<command-name>/clear</command-name>' }),
    claudeLine({ sessionId: k, cwd: KITCHEN, ts: at(times.kitchen, 1), uuid: msgUuid(k, 2), text: 'Write a recipe for apple crumble with winter spices.' }),
    claudeLine({ sessionId: k, cwd: KITCHEN, ts: at(times.kitchen, 2), type: 'assistant', uuid: msgUuid(k, 3), text: 'Apple crumble: apples, oats, butter, cinnamon and a little nutmeg. Serve it warm with cream or custard.' }),
  ]);

  writeJsonl(
    join(openclawRoot, 'agents', 'main', 'sessions', `${IDS.openclawHeader}.jsonl`),
    openclawLines(
      IDS.openclawHeader,
      [
        { id: 'e0000001', role: 'user', text: 'Remind me to order apple saplings', ts: at(times.openclaw, 0) },
        { id: 'e0000002', role: 'assistant', text: 'Noted: order saplings from the nursery on Friday.', ts: at(times.openclaw, 1), model: 'claude-sonnet-4-5' },
      ],
      OPENCLAW_CWD,
    ),
  );
  return { claudeRoot, openclawRoot, times };
}

/** A temp home whose Claude Code and OpenClaw roots hold the history fixture. */
export function historyHome(prefix: string): { home: TempHome; fixture: HistoryFixture } {
  const home = tempHome(prefix);
  const fixture = writeHistoryFixture(join(home.dir, 'roots'));
  home.env.STEWARD_CLAUDE_ROOTS = fixture.claudeRoot;
  home.env.STEWARD_OPENCLAW_ROOTS = fixture.openclawRoot;
  return { home, fixture };
}

/** The conversations a search's hits (or a reader's matches) are in, once each, sorted. */
export function sessionsOf(found: { hits: ReadonlyArray<{ sessionId: string }> } | ReadonlyArray<{ sessionId: string }>): string[] {
  const hits = 'hits' in found ? found.hits : found;
  return [...new Set(hits.map((h) => h.sessionId))].sort();
}

/** A real Gemini chat and its subagent, whose id names neither its parent nor its project (see withGeminiSubagent). */
export const GEMINI_PARENT = '92f625c6-a764-48e3-b922-3766d41f9c4c';
export const GEMINI_SUBAGENT = 'e4f5a6b7-c8d9-4e0f-9a1b-2c3d4e5f6a7b';

/** Copies the Gemini fixtures, a chat and its subagent in the chat's folder, under `home` and points STEWARD_GEMINI_ROOTS at them. */
export function withGeminiSubagent(home: TempHome): void {
  const fixtures = fileURLToPath(new URL('../fixtures/transcripts/gemini/', import.meta.url));
  const gemini = join(home.dir, 'roots', 'gemini');
  const chats = join(gemini, 'tmp', 'site', 'chats');
  const copy = (from: string, toDir: string, name: string) => {
    mkdirSync(toDir, { recursive: true });
    copyFileSync(join(fixtures, from), join(toDir, name));
  };
  copy('current-session.jsonl', chats, `session-2026-05-22T14-59-${GEMINI_PARENT.slice(0, 8)}.jsonl`);
  copy('subagent-session.jsonl', join(chats, GEMINI_PARENT), `${GEMINI_SUBAGENT}.jsonl`);
  home.env.STEWARD_GEMINI_ROOTS = gemini;
}

/** A real Codex rollout (fixtures/transcripts/codex) and the conversation it holds. */
export const CODEX_ROLLOUT = 'rollout-2026-07-13T18-41-30-019f5c5a-eb02-7ff0-90af-653b66eba9f4.jsonl';
export const CODEX_ROLLOUT_ID = '019f5c5a-eb02-7ff0-90af-653b66eba9f4';

/**
 * Copies the Codex rollout under `home` (roots/codex/sessions/2026/07/13, with an empty
 * archived_sessions/ beside sessions/ for a test that archives it) and points STEWARD_CODEX_ROOTS there.
 */
export function withCodexRollout(home: TempHome): { codexRoot: string; rollout: string } {
  const codexRoot = join(home.dir, 'roots', 'codex');
  const live = join(codexRoot, 'sessions', '2026', '07', '13');
  mkdirSync(live, { recursive: true });
  const rollout = join(live, CODEX_ROLLOUT);
  copyFileSync(fileURLToPath(new URL(`../fixtures/transcripts/codex/${CODEX_ROLLOUT}`, import.meta.url)), rollout);
  mkdirSync(join(codexRoot, 'archived_sessions'));
  home.env.STEWARD_CODEX_ROOTS = codexRoot;
  return { codexRoot, rollout };
}

/**
 * For the enclosing file: `open(prefix, prepare?)` opens an owner's Core on a fresh history home
 * (historyHome), after `prepare` adds to the home (what it returns is `prepared`); `reopen()` opens it again on the same home (after a
 * test shut it); each test's Core is shut and its home removed after the test.
 */
export function historyOwnerPerTest(): {
  open: <T = undefined>(prefix: string, prepare?: (home: TempHome) => T) => { c: Core; fixture: HistoryFixture; prepared: T };
  reopen: () => Core;
  home: () => TempHome;
} {
  let home: TempHome | undefined;
  let core: Core | undefined;
  afterEach(async () => {
    await core?.shutdown();
    home?.cleanup();
    core = undefined;
    home = undefined;
  });
  const reopen = (): Core => (core = Core.open({ home: { dir: home!.dir, kind: 'env' }, env: home!.env }));
  return {
    open: <T>(prefix: string, prepare?: (home: TempHome) => T) => {
      const made = historyHome(prefix);
      home = made.home;
      const prepared = prepare?.(home) as T;
      return { c: reopen(), fixture: made.fixture, prepared };
    },
    reopen,
    home: () => home!,
  };
}
