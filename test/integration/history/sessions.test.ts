import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core, type Params, type Result } from '../../../core/index.js';
import { REDACTED } from '../../../core/secrets/index.js';
import { IDS, KITCHEN, OPENCLAW_SESSION, PRUNING_MODEL, SECRET, SUBAGENT_SESSION, historyHome, type HistoryFixture } from '../../support/history.js';
import type { TempHome } from '../../support/home.js';

let home: TempHome;
let core: Core;
let fixture: HistoryFixture;

beforeAll(async () => {
  ({ home, fixture } = historyHome('steward-sessions-'));
  core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
  await core.call('Backfill.Run', { all: true });
});

afterAll(async () => {
  await core?.shutdown();
  home?.cleanup();
});

type Message = Result<'Sessions.Get'>['messages'][number];
const texts = (messages: Message[]) => messages.flatMap((m) => m.parts.map((p) => p.text ?? p.summary));

describe('Sessions.List', () => {
  it('lists conversations newest first with their counts, never subagents on their own', async () => {
    const { sessions, cursor } = await core.call('Sessions.List', {});
    expect(cursor).toBeUndefined();
    expect(sessions.map((s) => s.sessionId)).toEqual([IDS.kitchen, `oc:main:${IDS.openclawHeader}`, IDS.config, IDS.pruning]);
    const pruning = sessions.find((s) => s.sessionId === IDS.pruning)!;
    expect(pruning).toMatchObject({
      provider: 'claude',
      projectName: 'orchard',
      title: 'Winter pruning plan',
      firstRequest: 'How should I prune the apple trees before the frost arrives?',
      startedAt: fixture.times.pruning,
      lastAt: fixture.times.pruning + 6 * 60_000,
      durationMs: 6 * 60_000,
      // Five lines, four messages: a tool's result is read under its call, not as a message. The
      // subagent's two lines are its own.
      messages: 4,
      toolCalls: 2,
      subagents: 1,
      parentSessionId: null,
      agentType: null,
    });
    const kitchen = sessions.find((s) => s.sessionId === IDS.kitchen)!;
    expect(kitchen.firstRequest).toBe('Write a recipe for apple crumble with winter spices.');
    // Each provider's parser stores the session's model: Claude's from its assistant lines, OpenClaw's from its messages.
    expect(pruning.model).toBe(PRUNING_MODEL);
    expect(sessions.find((s) => s.provider === 'openclaw')?.model).toBe('claude-sonnet-4-5');
    // A session whose lines name no model has none.
    expect(sessions.find((s) => s.sessionId === IDS.config)?.model).toBeNull();
  });

  it('narrows by project and provider, and pages with a cursor without repeating or skipping', async () => {
    const { projects } = await core.call('Projects.List', {});
    const kitchen = projects.find((p) => p.cwd === KITCHEN)!;
    expect((await core.call('Sessions.List', { projectKey: kitchen.projectKey })).sessions.map((s) => s.sessionId)).toEqual([IDS.kitchen]);
    expect((await core.call('Sessions.List', { provider: 'openclaw' })).sessions).toHaveLength(1);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await core.call('Sessions.List', { limit: 1, ...(cursor ? { cursor } : {}) });
      expect(page.sessions.length).toBeLessThanOrEqual(1);
      seen.push(...page.sessions.map((s) => s.sessionId));
      cursor = page.cursor;
    } while (cursor);
    expect(seen).toEqual((await core.call('Sessions.List', {})).sessions.map((s) => s.sessionId));
    expect((await core.call('Sessions.List', { from: fixture.times.config })).sessions.map((s) => s.sessionId)).not.toContain(IDS.pruning);
  });

  const listed = async (params: Params<'Sessions.List'>) => (await core.call('Sessions.List', params)).sessions.map((s) => s.sessionId);

  it('ends a date range at `to`, inclusive: a conversation that started after it is left out', async () => {
    const { config, openclaw } = fixture.times;
    // The config conversation starts at `config`: a range ending there holds it, one ending a millisecond before does not.
    expect(await listed({ to: config })).toEqual([IDS.config, IDS.pruning]);
    expect(await listed({ to: config - 1 })).toEqual([IDS.pruning]);
    expect(await listed({ to: openclaw + 60_000 })).toEqual([`oc:main:${IDS.openclawHeader}`, IDS.config, IDS.pruning]);
  });

  it('a window with both ends holds exactly the conversations active in it', async () => {
    const { config, openclaw } = fixture.times;
    // The config conversation’s first line to its last, three minutes apart.
    expect(await listed({ from: config, to: config + 3 * 60_000 })).toEqual([IDS.config]);
    // Between conversations: none.
    expect(await listed({ from: config + 4 * 60_000, to: openclaw - 1 })).toEqual([]);
  });
});

describe('Sessions.Get', () => {
  it('reads a conversation in order, tools and thinking with one-line summaries, images as facts', async () => {
    const got = await core.call('Sessions.Get', { sessionId: IDS.pruning });
    expect(got.session.sessionId).toBe(IDS.pruning);
    expect(got.session.model).toBe(PRUNING_MODEL);
    expect(got.cursor).toBeUndefined();
    expect(got.before).toBeUndefined();
    expect(got.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    const [, answer, result, , photo] = got.messages as [Message, Message, Message, Message, Message];
    expect(answer.parts.map((p) => [p.kind, p.summary])).toEqual([
      ['thinking', 'The person wants a pruning schedule; dormant season is best.'],
      ['text', null],
      ['tool_use', 'Bash: npm run build:calendar'],
    ]);
    expect(answer.parts[2]).toMatchObject({ toolName: 'Bash', toolUseId: 'toolu_01Build', isError: false });
    expect(result.parts[0]).toMatchObject({ kind: 'tool_result', isError: true, toolUseId: 'toolu_01Build', summary: 'exit code 2: src/calendar.ts(14,7): error TS2345: Argument of type string is not assignable' });
    expect(photo.parts[0]).toMatchObject({ kind: 'image', text: null, image: { mediaType: 'image/png', bytes: 27 }, summary: 'PNG, 27 bytes' });
    expect(photo.parts[1]!.text).toBe('Here is a photo of the bark damage.');
  });

  it('nests a subagent after the Task call that started it', async () => {
    const got = await core.call('Sessions.Get', { sessionId: IDS.pruning });
    expect(got.subagents).toHaveLength(1);
    const [sub] = got.subagents;
    const taskMessage = got.messages[3]!;
    expect(taskMessage.parts.some((p) => p.toolName === 'Task')).toBe(true);
    expect(sub).toMatchObject({ startedBy: taskMessage.messageId, session: { sessionId: SUBAGENT_SESSION, agentType: 'Explore', parentSessionId: IDS.pruning, messages: 2 } });
    const child = await core.call('Sessions.Get', { sessionId: SUBAGENT_SESSION });
    expect(texts(child.messages)).toEqual(['Find the first frost dates for the orchard region', 'The first frost usually arrives in late October.']);
  });

  it('pages forwards and backwards with cursors, and opens a page around a hit', async () => {
    const first = await core.call('Sessions.Get', { sessionId: IDS.pruning, limit: 2 });
    expect(first.messages).toHaveLength(2);
    expect(first.before).toBeUndefined();
    const second = await core.call('Sessions.Get', { sessionId: IDS.pruning, limit: 2, cursor: first.cursor! });
    const third = await core.call('Sessions.Get', { sessionId: IDS.pruning, limit: 2, cursor: second.cursor! });
    expect(third.cursor).toBeUndefined();
    const all = (await core.call('Sessions.Get', { sessionId: IDS.pruning })).messages.map((m) => m.messageId);
    expect([...first.messages, ...second.messages, ...third.messages].map((m) => m.messageId)).toEqual(all);
    const back = await core.call('Sessions.Get', { sessionId: IDS.pruning, limit: 2, cursor: third.before! });
    expect(back.messages.map((m) => m.messageId)).toEqual(second.messages.map((m) => m.messageId));

    const { hits } = await core.call('Search.Query', { query: 'bark damage' });
    // The hit is in the last message: the page holds it and, as its limit leaves room, the messages before it.
    const around = await core.call('Sessions.Get', { sessionId: hits[0]!.sessionId, partId: hits[0]!.partId, limit: 5 });
    expect(around.messages.map((m) => m.messageId)).toEqual(all);
    expect(around.messages[4]!.parts.map((p) => p.partId)).toContain(hits[0]!.partId);
    expect(around.before).toBeUndefined();
    expect(around.cursor).toBeUndefined();
    // A page is never longer than its limit: with room for two, the hit and the message before it.
    const two = await core.call('Sessions.Get', { sessionId: hits[0]!.sessionId, partId: hits[0]!.partId, limit: 2 });
    expect(two.messages.map((m) => m.messageId)).toEqual(all.slice(3));
    expect(two.before).toBeDefined();
    // Opened at the first answer, the page starts at the question before it.
    const answer = (await core.call('Search.Query', { query: 'dormancy' })).hits[0]!;
    const atAnswer = await core.call('Sessions.Get', { sessionId: IDS.pruning, partId: answer.partId, limit: 2 });
    expect(atAnswer.messages.map((m) => m.messageId)).toEqual(all.slice(0, 2));
    expect(atAnswer.cursor).toBeDefined();
    // With room for one, the hit's message alone; the pages before and after it lose nothing.
    const one = await core.call('Sessions.Get', { sessionId: IDS.pruning, partId: answer.partId, limit: 1 });
    expect(one.messages.map((m) => m.messageId)).toEqual(all.slice(1, 2));
    expect(one.messages[0]!.parts.map((p) => p.partId)).toContain(answer.partId);
    const earlier = await core.call('Sessions.Get', { sessionId: IDS.pruning, limit: 5, cursor: one.before! });
    const later = await core.call('Sessions.Get', { sessionId: IDS.pruning, limit: 5, cursor: one.cursor! });
    expect([...earlier.messages, ...one.messages, ...later.messages].map((m) => m.messageId)).toEqual(all);
    // Opened at each message's first and last part, with room for one and for two (an attacker's finding:
    // at a first part, room for one showed the message before it instead).
    const whole = (await core.call('Sessions.Get', { sessionId: IDS.pruning })).messages;
    for (const [i, message] of whole.entries()) {
      for (const part of [message.parts[0]!, message.parts.at(-1)!]) {
        const alone = await core.call('Sessions.Get', { sessionId: IDS.pruning, partId: part.partId, limit: 1 });
        expect(alone.messages.map((m) => m.messageId), `${part.partId}, limit 1`).toEqual([message.messageId]);
        const pair = await core.call('Sessions.Get', { sessionId: IDS.pruning, partId: part.partId, limit: 2 });
        expect(pair.messages.map((m) => m.messageId), `${part.partId}, limit 2`).toEqual(i === 0 ? all.slice(0, 2) : all.slice(i - 1, i + 1));
      }
    }
  });

  it('says not_found for an unknown session, and refuses another conversation’s cursor', async () => {
    await expect(core.call('Sessions.Get', { sessionId: 'no-such-session' })).rejects.toMatchObject({ code: 'not_found' });
    const page = await core.call('Sessions.Get', { sessionId: IDS.pruning, limit: 1 });
    await expect(core.call('Sessions.Get', { sessionId: IDS.config, cursor: page.cursor! })).rejects.toMatchObject({ code: 'invalid_params' });
  });
});

describe('Sessions model', () => {
  const CODEX_ROLLOUT = 'rollout-2026-07-13T18-41-30-019f5c5a-eb02-7ff0-90af-653b66eba9f4.jsonl';
  const CODEX_SESSION = '019f5c5a-eb02-7ff0-90af-653b66eba9f4';

  it('shows the model a Codex rollout names in its turn context', async () => {
    const { home: own } = historyHome('steward-sessions-model-');
    const codexRoot = join(own.dir, 'roots', 'codex');
    const day = join(codexRoot, 'sessions', '2026', '07', '13');
    mkdirSync(day, { recursive: true });
    copyFileSync(fileURLToPath(new URL(`../../fixtures/transcripts/codex/${CODEX_ROLLOUT}`, import.meta.url)), join(day, CODEX_ROLLOUT));
    own.env.STEWARD_CODEX_ROOTS = codexRoot;
    const owner = Core.open({ home: { dir: own.dir, kind: 'env' }, env: own.env });
    try {
      await owner.call('Backfill.Run', { all: true });
      const codex = (await owner.call('Sessions.List', { provider: 'codex' })).sessions;
      expect(codex.map((s) => [s.sessionId, s.model])).toEqual([[CODEX_SESSION, 'gpt-5.6-sol']]);
      expect((await owner.call('Sessions.Get', { sessionId: CODEX_SESSION })).session.model).toBe('gpt-5.6-sol');
    } finally {
      await owner.shutdown();
      own.cleanup();
    }
  });

  it('falls back to the model on assistant parts for a session row stored without one', async () => {
    const { home: own } = historyHome('steward-sessions-model-');
    let owner = Core.open({ home: { dir: own.dir, kind: 'env' }, env: own.env });
    try {
      await owner.call('Backfill.Run', { all: true });
      await owner.shutdown();
      // As a row stored before the parsers kept the model on it.
      const db = new Database(join(own.dir, 'gateway.db'));
      db.prepare('UPDATE sessions SET model = NULL').run();
      db.close();
      owner = Core.open({ home: { dir: own.dir, kind: 'env' }, env: own.env });
      const { sessions } = await owner.call('Sessions.List', {});
      expect(sessions.find((s) => s.sessionId === OPENCLAW_SESSION)?.model).toBe('claude-sonnet-4-5');
      // Claude keeps no model on its parts: a row without one shows none.
      expect(sessions.find((s) => s.sessionId === IDS.pruning)?.model).toBeNull();
    } finally {
      await owner.shutdown();
      own.cleanup();
    }
  });
});

describe('Sessions.Export', () => {
  it('exports Markdown with the secret redacted by default, and raw only when asked', async () => {
    const redacted = await core.call('Sessions.Export', { sessionId: IDS.config });
    expect(redacted).toMatchObject({ mediaType: 'text/markdown', redacted: true, filename: `why-does-parseconfig-throw-err_module_not_found-when-${IDS.config.slice(0, 8)}.md` });
    expect(redacted.content).toMatch(/^# Why does parseConfig throw ERR_MODULE_NOT_FOUND/);
    expect(redacted.content).toContain('## You');
    expect(redacted.content).toContain('**Tool call** Read: /work/orchard/src/config/load_settings.ts');
    expect(redacted.content).not.toContain(SECRET);
    expect(redacted.content).toContain('[REDACTED]');
    const raw = await core.call('Sessions.Export', { sessionId: IDS.config, raw: true });
    expect(raw.redacted).toBe(false);
    expect(raw.content).toContain(SECRET);
    // Whoever opens the file sees first that it was not redacted; a redacted one opens with its title.
    expect(raw.content.split('\n')[0]).toMatch(/^> \*\*Not redacted\.\*\* This export keeps secrets .* keep it private/);
    expect(raw.content).toMatch(/^> .*\n\n# Why does parseConfig throw ERR_MODULE_NOT_FOUND/);
    expect(redacted.content).not.toMatch(/Not redacted/);
  });

  it('exports JSON with the messages and the nested subagent', async () => {
    const exported = await core.call('Sessions.Export', { sessionId: IDS.pruning, format: 'json' });
    const doc = JSON.parse(exported.content) as { format: string; redacted: boolean; session: { sessionId: string }; messages: Message[]; subagents: Array<{ session: { sessionId: string }; messages: Message[] }> };
    expect(doc).toMatchObject({ format: 'steward.session.v1', redacted: true, session: { sessionId: IDS.pruning } });
    expect(doc.messages).toHaveLength(5);
    expect(doc.subagents.map((s) => s.session.sessionId)).toEqual([SUBAGENT_SESSION]);
    expect(doc.subagents[0]!.messages).toHaveLength(2);
    // Written a message at a time, it reads exactly as JSON.stringify(…, null, 2) would write it whole.
    expect(exported.content).toBe(`${JSON.stringify(doc, null, 2)}\n`);
  });

  it('exports JSON with the secret redacted by default, and raw only when asked', async () => {
    const redacted = await core.call('Sessions.Export', { sessionId: IDS.config, format: 'json' });
    expect(redacted).toMatchObject({ mediaType: 'application/json', redacted: true });
    expect(redacted.content).not.toContain(SECRET);
    // The marker stands where the token was, in the tool result's text.
    const doc = JSON.parse(redacted.content) as { redacted: boolean; messages: Message[] };
    expect(doc.redacted).toBe(true);
    const read = doc.messages.flatMap((m) => m.parts).find((p) => p.kind === 'tool_result')!;
    expect(read.text).toContain(`const GITHUB_TOKEN = "${REDACTED}"`);
    const raw = await core.call('Sessions.Export', { sessionId: IDS.config, format: 'json', raw: true });
    expect(raw.redacted).toBe(false);
    expect(raw.content).toContain(SECRET);
    expect((JSON.parse(raw.content) as { redacted: boolean }).redacted).toBe(false);
  });
});
