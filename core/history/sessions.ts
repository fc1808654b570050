import { z } from 'zod';
import { appName, missingError, searchAppOf, StewardError, type ParsedParams, type Result, type SessionMessage, type SessionSubagent, type SessionSummary } from '../api/index.js';
import type { HistoryReader, OrderedPart, PartKey, SessionRecord } from '../gateway/index.js';
import type { Redactor } from '../secrets/index.js';
import { decodeCursor, encodeCursor, fingerprint } from './cursor.js';
import { groupMessages, messageIdOf, oneLine } from './messages.js';
import { FIRST_REQUEST_CHARS, markSecrets, redactLabels, redactParts, type Labels } from './redaction.js';
import { listingMark, listingMismatch, SearchMark } from './search-mark.js';

/** How history names projects (the projects room's table, read through its store). */
export interface ProjectNames {
  nameOf(projectKey: string): string | null;
}

/** Names a row's project; one per request, so a page that names a project many times asks once. */
export type ProjectNamer = (projectKey: string | null) => string | null;

const PAGE_MESSAGES = 200;
const LIST_LIMIT = 50;
/** Parts read per query while a page is assembled. */
const CHUNK = 400;
/** Messages shown before a hit when a page opens around it, as the page's limit leaves room for them. */
const CONTEXT_MESSAGES = 5;
/** Of a first request's text, what is redacted before it is cut to FIRST_REQUEST_CHARS (whitespace folds). */
const FIRST_TEXT_CHARS = 4_000;
/**
 * Conversations whose labels are read and redacted together, between turns of the loop: a title and
 * FIRST_TEXT_CHARS of request each, about one secretlint pass (see REDACT_BATCH_CHARS). A list of 200,
 * or every project's latest, never reads and lints its first requests in one go.
 */
const LABEL_CHUNK = 8;

/** What a conversation's labels are read from: its id, its title and the first request capture kept. */
export type LabelSource = Pick<SessionRecord, 'sessionId' | 'title' | 'firstRequest'>;

/** A listing's cursor: its mark (listingMark, as a search's) and the last row it gave, `t` its last activity and `i` its id. */
const ListCursor = z.strictObject({ ...SearchMark, t: z.number().int(), i: z.string() });
const PageCursor = z.strictObject({ s: z.string(), d: z.enum(['after', 'before']), t: z.number().int().nullable(), r: z.number().int() });

/**
 * The calls that start a subagent, by agent: Claude Code's Task (Agent since 2.1), Codex's
 * spawn_agent, OpenClaw's sessions_spawn, Gemini CLI's delegate_to_agent and its own agents, which it
 * offers as tools by their names. A subagent no such call started (a Gemini agent of the person's own,
 * an agent the app ran itself) is placed by when it started, under no call.
 */
const GEMINI_AGENTS: ReadonlySet<string> = new Set(['codebase_investigator', 'cli_help', 'generalist']);
const SPAWNING_TOOLS: ReadonlySet<string> = new Set(['Task', 'Agent', 'spawn_agent', 'sessions_spawn', 'delegate_to_agent', ...GEMINI_AGENTS]);
/** Calls read back from a subagent's start for the one that started it (parallel calls share a message). */
const SPAWN_LOOKBACK = 20;
/** A subagent writes its first line as it starts: a starting call longer before it started another. */
const SPAWN_GAP_MS = 5 * 60_000;
/**
 * Tool results read from the nearest starting call on, for the agent each call started: a Task's result
 * is written as its subagent ends (a background one's as it launches), so the results of one message's
 * calls come together, soon after its last call.
 */
const RESULTS_AHEAD = 40;
/**
 * How a Claude Code Task/Agent result names the agent it started, as capture reads it (claude/parse.ts):
 * `agentId: …` in its text. Its own trailer comes last, after the agent's answer, which may quote another.
 */
const AGENT_ID_IN_RESULT = /agentId: ([A-Za-z0-9_-]{1,64})/g;
/** A Claude subagent's session id is `{parent}:agent-{agentId}` (subagentParentOf in api/). */
const AGENT_ID_MARK = ':agent-';
/** Where a starting call names the kind of agent it asks for: Claude's Task, Codex's spawn_agent, Gemini's delegate_to_agent. */
const TYPE_ARGUMENTS = ['subagent_type', 'agent_type', 'agent_name'];
/** The longest type read from a call (capture keeps 200 characters of a stored one). */
const TYPE_CHARS = 200;

/** A stored JSON object, or an empty one (a call cut at its size cap is no JSON). */
function objectOf(text: string | null): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text ?? '');
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const callName = (meta: string | null): string | null => {
  const name = objectOf(meta).name;
  return typeof name === 'string' ? name : null;
};

const callId = (meta: string | null): string | null => {
  const id = objectOf(meta).toolUseId;
  return typeof id === 'string' ? id : null;
};

/** The agent a subagent's session id names (a Claude subagent's), else null. */
function agentIdOf(sessionId: string): string | null {
  // The last mark: an agent id never holds one, a parent's id might.
  const at = sessionId.lastIndexOf(AGENT_ID_MARK);
  return at < 0 ? null : sessionId.slice(at + AGENT_ID_MARK.length);
}

/** The agent a Task result names: the last `agentId: …` in its text, its trailer's. */
function namedAgent(text: string | null): string | undefined {
  return [...(text ?? '').matchAll(AGENT_ID_IN_RESULT)].pop()?.[1];
}

/** The type a starting call asked for; a Gemini agent called by its name is that agent. */
function askedType(name: string | null, input: string | null): string | null {
  const args = objectOf(input);
  const asked = TYPE_ARGUMENTS.map((k) => args[k]).find((v): v is string => typeof v === 'string' && v.trim() !== '');
  if (asked !== undefined) return asked.slice(0, TYPE_CHARS);
  return name !== null && GEMINI_AGENTS.has(name) ? name : null;
}

/** Where a part sits: its place, which for a line without a time is not its (unknown) time. */
const keyOf = (part: OrderedPart): PartKey => ({ ts: part.place, rowid: part.rowid });
/** A key after every part: times are epoch ms, far below it (untimed parts sort first, so they are before it too). */
const PAST_THE_END: PartKey = { ts: Number.MAX_SAFE_INTEGER, rowid: Number.MAX_SAFE_INTEGER };
const sessionTag = (sessionId: string) => fingerprint({ sessionId });

interface Collected {
  parts: OrderedPart[];
  /** More parts lie beyond what was collected, in the direction walked. */
  more: boolean;
}

/** Reading conversations: lists with their counts, and one conversation in order, a page at a time. */
export class SessionsView {
  readonly #reader: HistoryReader;
  readonly #projects: ProjectNames;
  readonly #redactor: () => Redactor;
  readonly #cursorKey: () => Buffer;

  /** `cursorKey`: the key a listing's cursors are marked under, the one search cursors are (searchCursorKey). */
  constructor(reader: HistoryReader, projects: ProjectNames, redactor: () => Redactor, cursorKey: () => Buffer) {
    this.#reader = reader;
    this.#projects = projects;
    this.#redactor = redactor;
    this.#cursorKey = cursorKey;
  }

  /**
   * `labels`: the title and first request, when the caller has them redacted (see redactedSummary).
   * `nameOf`: the request's namer, when it summarises many rows (see projectNamer).
   */
  summary(record: SessionRecord, labels?: { title: string | null; firstRequest: string | null }, nameOf: ProjectNamer = this.projectNamer()): SessionSummary {
    return {
      sessionId: record.sessionId,
      projectKey: record.projectKey,
      provider: record.provider,
      app: appName(record.provider, record.source),
      title: labels ? labels.title : record.title,
      agentType: record.agentType,
      startedAt: record.firstTs,
      lastAt: record.lastTs,
      messages: record.messages,
      parentSessionId: record.parentSessionId,
      parentKind: record.parentKind,
      projectName: nameOf(record.projectKey),
      firstRequest: labels ? labels.firstRequest : this.firstRequest(record),
      model: this.#model(record),
      durationMs: record.firstTs !== null && record.lastTs !== null ? Math.max(0, record.lastTs - record.firstTs) : null,
      toolCalls: record.toolCalls,
      subagents: record.subagents,
    };
  }

  /** A namer for one request, remembering the names it read (a name may change between requests). */
  projectNamer(): ProjectNamer {
    const names = new Map<string, string | null>();
    return (projectKey) => {
      if (projectKey === null) return null;
      const known = names.get(projectKey);
      if (known !== undefined || names.has(projectKey)) return known ?? null;
      const name = this.#projects.nameOf(projectKey);
      names.set(projectKey, name);
      return name;
    };
  }

  firstRequest(record: Pick<SessionRecord, 'sessionId' | 'firstRequest'>): string | null {
    const text = record.firstRequest ?? this.firstText(record);
    return text === null ? null : oneLine(text, FIRST_REQUEST_CHARS);
  }

  /**
   * The start of the first thing asked, uncut to one line: what a redactor reads before the cut. Capture
   * kept the request without what an app put before it (IDE context, a channel's envelope) but cut
   * short: the part's text is read from where that request starts, so the redactor sees it whole.
   */
  firstText(record: Pick<SessionRecord, 'sessionId' | 'firstRequest'>): string | null {
    const first = this.#reader.firstUserTexts(record.sessionId, 12).find((p) => p.text !== null && p.text.trim() !== '');
    const raw = first?.text ?? null;
    const kept = record.firstRequest;
    if (kept === null) return raw === null ? null : raw.slice(0, FIRST_TEXT_CHARS);
    const at = raw === null ? -1 : raw.indexOf(kept);
    return at < 0 ? kept : raw!.slice(at, at + FIRST_TEXT_CHARS);
  }

  /** A summary whose title and first request are redacted, the request before it is cut. */
  async redactedSummary(record: SessionRecord, redactor: Redactor, nameOf?: ProjectNamer): Promise<SessionSummary> {
    const [labels] = await this.redactedLabels([record], redactor);
    return this.summary(record, labels, nameOf);
  }

  /**
   * Titles and first requests redacted, each request read whole and redacted before it is cut, LABEL_CHUNK
   * conversations at a time (see redactLabels, which yields the loop after each secretlint pass).
   * `wantsFirst`: whether a conversation's first request is read at all (null when not).
   */
  async redactedLabels(sources: readonly LabelSource[], redactor: Redactor, wantsFirst: (source: LabelSource) => boolean = () => true): Promise<Labels[]> {
    const labels: Labels[] = [];
    for (let at = 0; at < sources.length; at += LABEL_CHUNK) {
      const chunk = sources.slice(at, at + LABEL_CHUNK);
      labels.push(...(await redactLabels(chunk.map((s) => ({ title: s.title, firstText: wantsFirst(s) ? this.firstText(s) : null })), redactor)));
    }
    return labels;
  }

  /**
   * Each conversation's name as a list shows it (its title, else its first request), redacted: what the
   * projects room names a project's latest conversation by when asked to redact (Projects.List).
   */
  async redactedNames(sources: readonly LabelSource[]): Promise<Array<string | null>> {
    const labels = await this.redactedLabels(sources, this.#redactor(), (s) => s.title === null);
    return labels.map((l) => l.title ?? l.firstRequest);
  }

  find(sessionId: string): SessionSummary | undefined {
    const record = this.#reader.session(sessionId);
    return record ? this.summary(record) : undefined;
  }

  /**
   * The model the parser stored on the session row (every provider that names one); a row stored before
   * the parsers did falls back to the model OpenClaw and Gemini record on assistant parts.
   */
  #model(record: SessionRecord): string | null {
    if (record.model !== null) return record.model;
    for (const meta of this.#reader.firstAssistantMeta(record.sessionId, 3)) {
      const model = /"model":"([^"\\]{1,100})"/.exec(meta)?.[1];
      if (model) return model;
    }
    return null;
  }

  /** The stored row, or undefined when none has that id (pruned, forgotten, never captured). */
  findRecord(sessionId: string): SessionRecord | undefined {
    return this.#reader.session(sessionId);
  }

  record(sessionId: string): SessionRecord {
    const record = this.#reader.session(sessionId);
    if (!record) throw missingError('conversation', 'No stored conversation has that id (it may have been pruned or forgotten)');
    return record;
  }

  /** With `redact`, titles and first requests are redacted, each request before it is cut. */
  async list(params: ParsedParams<'Sessions.List'>): Promise<Result<'Sessions.List'>> {
    const limit = params.limit ?? LIST_LIMIT;
    // The same rows either way: a cursor of a redacted page goes on with a raw one, and the other way (listingMark).
    const mark = listingMark(params, this.#cursorKey());
    const after = params.cursor === undefined ? undefined : decodeCursor(params.cursor, ListCursor);
    const mismatch = after && listingMismatch(after, mark, params);
    if (mismatch) throw new StewardError('invalid_params', mismatch);
    // `claude-desktop` names an app of a provider (SEARCH_APPS): its sessions by the folders they were read from.
    const app = searchAppOf(params.provider);
    const rows = this.#reader.list({
      projectKey: params.projectKey,
      provider: app?.provider ?? params.provider,
      source: app?.source,
      fromMs: params.from,
      toMs: params.to,
      after: after ? { lastTs: after.t, sessionId: after.i } : undefined,
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const more = rows.length > limit && last !== undefined;
    const nameOf = this.projectNamer();
    const labels = params.redact === true ? await this.redactedLabels(page, this.#redactor()) : undefined;
    return { sessions: page.map((r, i) => this.summary(r, labels?.[i], nameOf)), ...(more ? { cursor: encodeCursor({ ...mark, t: last.lastTs ?? 0, i: last.sessionId }) } : {}) };
  }

  /**
   * With `redact`, texts are redacted before anything (a summary, a first request) is cut from them;
   * with `markSecrets` instead, they are as written, each part saying where its secrets are.
   */
  async get(params: ParsedParams<'Sessions.Get'>): Promise<Result<'Sessions.Get'>> {
    const record = this.record(params.sessionId);
    const limit = params.limit ?? PAGE_MESSAGES;
    const { parts, earlier, later } = params.at === 'end' ? this.#end(params.sessionId, limit) : this.#page(params.sessionId, limit, params.cursor, params.partId);
    const tag = sessionTag(params.sessionId);
    const first = parts[0];
    const last = parts[parts.length - 1];
    const redactor = params.redact === true ? this.#redactor() : null;
    // Subagents are in their parent's project: one namer reads its name once for the whole answer.
    const nameOf = this.projectNamer();
    return {
      session: redactor ? await this.redactedSummary(record, redactor, nameOf) : this.summary(record, undefined, nameOf),
      messages: await this.#messages(parts, record.provider, redactor, params.markSecrets === true),
      subagents: redactor ? await this.#redactedSubagents(params.sessionId, redactor, nameOf) : this.subagents(params.sessionId, nameOf),
      ...(later && last ? { cursor: encodeCursor({ s: tag, d: 'after', t: last.place, r: last.rowid }) } : {}),
      ...(earlier && first ? { before: encodeCursor({ s: tag, d: 'before', t: first.place, r: first.rowid }) } : {}),
    };
  }

  /** A page's parts as messages: redacted with `redactor`, else as written, with their secrets' places when `marked`. */
  async #messages(parts: readonly OrderedPart[], provider: string, redactor: Redactor | null, marked: boolean): Promise<SessionMessage[]> {
    if (redactor) return groupMessages(await redactParts(parts, redactor), provider);
    const messages = groupMessages(parts, provider);
    return marked ? markSecrets(messages, this.#redactor()) : messages;
  }

  /**
   * Every part of a conversation, in order (for export), a page of CHUNK at a time: a read of parts
   * the disk cache no longer holds took up to 330 ms at 2,000 parts.
   */
  *allParts(sessionId: string): Generator<OrderedPart[]> {
    let after: PartKey | null = null;
    for (;;) {
      const chunk = this.#reader.partsAfter(sessionId, after, CHUNK);
      if (chunk.length > 0) yield chunk;
      if (chunk.length < CHUNK) return;
      after = keyOf(chunk[chunk.length - 1]!);
    }
  }

  /** The ids of a conversation's subagents, in the order they started (nothing else is read of them). */
  subagentIds(sessionId: string): string[] {
    return this.#reader.subagentIds(sessionId);
  }

  /**
   * Subagents in the order they started, each placed after the call that started it; one no such call
   * started (`startedBy` null) after the message it started after (`startedAfter`), as the panel and CLI list it.
   */
  subagents(sessionId: string, nameOf: ProjectNamer = this.projectNamer()): SessionSubagent[] {
    return this.#reader.subagents(sessionId).map((child) => this.#placed(sessionId, child, this.summary(child, undefined, nameOf)));
  }

  async #redactedSubagents(sessionId: string, redactor: Redactor, nameOf: ProjectNamer): Promise<SessionSubagent[]> {
    const children = this.#reader.subagents(sessionId);
    const labels = await this.redactedLabels(children, redactor);
    return children.map((child, i) => this.#placed(sessionId, child, this.summary(child, labels[i], nameOf)));
  }

  /**
   * A subagent with the call that started it. Its type is the one capture stored (the sidecar's, or the
   * Task call's once its result named the subagent); until either is written (a subagent still running)
   * the type the starting call asked for.
   */
  #placed(sessionId: string, child: SessionRecord, session: SessionSummary): SessionSubagent {
    const call = this.#startingCall(sessionId, child);
    if (!call) return { session, startedBy: null, startedAfter: this.#messageBefore(sessionId, child.firstTs) };
    return { session: session.agentType === null ? { ...session, agentType: call.agentType } : session, startedBy: messageIdOf(call.partId) };
  }

  /**
   * Where a subagent is listed (see subagentPlaces), nothing else read of it: what the export places
   * each subagent by without a summary for every one.
   */
  place(sessionId: string, child: SessionRecord): Pick<SessionSubagent, 'startedBy' | 'startedAfter'> {
    const call = this.#startingCall(sessionId, child);
    return call ? { startedBy: messageIdOf(call.partId), startedAfter: null } : { startedBy: null, startedAfter: this.#messageBefore(sessionId, child.firstTs) };
  }

  /** The message of the last part at or before `ts`: where a subagent no call started is listed. */
  #messageBefore(sessionId: string, ts: number | null): string | null {
    if (ts === null) return null;
    const [part] = this.#reader.partsBefore(sessionId, { ts, rowid: Number.MAX_SAFE_INTEGER }, 1);
    return part && part.place !== null ? messageIdOf(part.partId) : null;
  }

  /**
   * The call that started a subagent, among those before its start that start subagents (SPAWNING_TOOLS)
   * made at most SPAWN_GAP_MS before it: any other call (a search made minutes before) started nothing.
   */
  #startingCall(sessionId: string, child: SessionRecord): { partId: string; agentType: string | null } | undefined {
    const start = child.firstTs;
    if (start === null) return undefined;
    const calls = this.#reader.toolUsesUpTo(sessionId, start, SPAWN_LOOKBACK).filter((c) => SPAWNING_TOOLS.has(callName(c.meta) ?? '') && start - c.ts <= SPAWN_GAP_MS);
    const found = this.#claimingCall(sessionId, child, calls);
    if (!found) return undefined;
    // The call itself: the last part at its time up to its own row.
    const [call] = this.#reader.partsBefore(sessionId, { ts: found.ts, rowid: found.rowid + 1 }, 1);
    return { partId: found.partId, agentType: call?.partId === found.partId ? askedType(callName(found.meta), call.text) : null };
  }

  /**
   * Of the calls that may have started a subagent (nearest first), the one whose result names it: the
   * calls of one message all come before any of their subagents starts. Until a result names it (it
   * still runs, or an older Claude Code wrote none), the nearest call no result gives another agent,
   * else the nearest. One call is the nearest by every rule, and nothing more is read for it.
   */
  #claimingCall<C extends { meta: string | null; ts: number }>(sessionId: string, child: SessionRecord, calls: C[]): C | undefined {
    const agentId = agentIdOf(child.sessionId);
    const ids = calls.map((c) => callId(c.meta)).filter((id): id is string => id !== null);
    if (agentId === null || calls.length < 2 || ids.length === 0) return calls[0];
    const named = new Map(this.#reader.resultsAnswering(sessionId, calls[0]!.ts, ids, RESULTS_AHEAD).map((r) => [r.toolUseId, namedAgent(r.text)]));
    const nameOf = (c: C) => named.get(callId(c.meta) ?? '');
    return calls.find((c) => nameOf(c) === agentId) ?? calls.find((c) => nameOf(c) === undefined) ?? calls[0];
  }

  #page(sessionId: string, limit: number, cursor: string | undefined, partId: string | undefined): { parts: OrderedPart[]; earlier: boolean; later: boolean } {
    if (cursor !== undefined) {
      const at = decodeCursor(cursor, PageCursor);
      if (at.s !== sessionTag(sessionId)) throw new StewardError('invalid_params', 'The cursor belongs to another conversation; start again without it');
      const key = { ts: at.t, rowid: at.r };
      if (at.d === 'before') {
        const back = this.#backward(sessionId, key, limit);
        return { parts: back.parts, earlier: back.more, later: true };
      }
      const ahead = this.#forward(sessionId, key, limit);
      return { parts: ahead.parts, earlier: true, later: ahead.more };
    }
    if (partId !== undefined) {
      const hit = this.#reader.partKey(partId);
      if (!hit || hit.sessionId !== sessionId) throw this.#partElsewhere(sessionId, hit?.sessionId);
      // The page holds `limit` messages at most, the hit's among them: the context before it gives way.
      const context = Math.min(CONTEXT_MESSAGES, limit - 1);
      const back = this.#context(sessionId, hit, messageIdOf(partId), context);
      const from = back.parts[back.parts.length - 1];
      // When the hit is not its message's first part, that message began in `back` and is the page's first.
      const begun = from && messageIdOf(from.partId) === messageIdOf(partId) ? messageIdOf(partId) : undefined;
      const before = new Set(back.parts.map((p) => messageIdOf(p.partId))).size - (begun === undefined ? 0 : 1);
      // With no context taken, the page starts at the hit itself, not at the conversation's start.
      const start = from ? keyOf(from) : back.more ? { ts: hit.ts, rowid: hit.rowid - 1 } : null;
      const ahead = this.#forward(sessionId, start, limit - before, begun);
      return { parts: [...back.parts, ...ahead.parts], earlier: back.more, later: ahead.more };
    }
    const ahead = this.#forward(sessionId, null, limit);
    return { parts: ahead.parts, earlier: false, later: ahead.more };
  }

  /**
   * Why a part is not on a page of this conversation. A search of a parent gives its subagents' hits
   * too, so a hit's part_id may be one of theirs: that subagent is named, to read it in, in the words
   * and in the error's `heldBy` (a caller names its own way there without asking each subagent).
   */
  #partElsewhere(sessionId: string, holder: string | undefined): StewardError {
    if (holder === undefined || !this.#reader.subagentIds(sessionId).includes(holder)) return missingError('part', 'That part is not in this conversation');
    return missingError('part', `That part is in the subagent conversation ${holder} of this one: ask for it with that conversation's id ("${holder}") and the same part id`, holder);
  }

  /**
   * The last `limit` whole messages: walked back from past the last part, as a `before` cursor walks,
   * so only the end is read however long the conversation is.
   */
  #end(sessionId: string, limit: number): { parts: OrderedPart[]; earlier: boolean; later: boolean } {
    const back = this.#backward(sessionId, PAST_THE_END, limit);
    return { parts: back.parts, earlier: back.more, later: false };
  }

  /**
   * Parts after `after` up to `messages` whole messages. `begun` names a message that started before
   * `after`: its remaining parts come first and it counts as the first of the messages.
   */
  #forward(sessionId: string, after: PartKey | null, messages: number, begun?: string): Collected {
    const parts: OrderedPart[] = [];
    let seen = begun === undefined ? 0 : 1;
    let last = begun;
    for (let key = after; ; ) {
      const chunk = this.#reader.partsAfter(sessionId, key, CHUNK);
      for (const part of chunk) {
        const id = messageIdOf(part.partId);
        if (id !== last) {
          if (seen === messages) return { parts, more: true };
          seen += 1;
          last = id;
        }
        parts.push(part);
      }
      if (chunk.length < CHUNK) return { parts, more: false };
      key = keyOf(chunk[chunk.length - 1]!);
    }
  }

  /**
   * The parts before a hit: the start of its own message when the hit is not that message's first
   * part, then up to `messages` whole messages before it. Read as one more message than asked, since
   * whether the hit's message began earlier is known only once read; the extra one is given back.
   */
  #context(sessionId: string, hit: PartKey, message: string, messages: number): Collected {
    const back = this.#backward(sessionId, hit, messages + 1);
    const ids = back.parts.map((p) => messageIdOf(p.partId));
    if (ids.at(-1) === message || new Set(ids).size <= messages) return back;
    // The earliest message read is the extra one: what follows it (nothing, when it is all there is) stays.
    const after = ids.findIndex((id) => id !== ids[0]);
    return { parts: after < 0 ? [] : back.parts.slice(after), more: true };
  }

  /** Parts before `before`, up to `messages` whole messages, returned in conversation order. */
  #backward(sessionId: string, before: PartKey, messages: number): Collected {
    const parts: OrderedPart[] = [];
    let seen = 0;
    let last: string | undefined;
    for (let key = before; ; ) {
      const chunk = this.#reader.partsBefore(sessionId, key, CHUNK);
      for (const part of chunk) {
        const id = messageIdOf(part.partId);
        if (id !== last) {
          if (seen === messages) return { parts: parts.reverse(), more: true };
          seen += 1;
          last = id;
        }
        parts.push(part);
      }
      if (chunk.length < CHUNK) return { parts: parts.reverse(), more: false };
      key = keyOf(chunk[chunk.length - 1]!);
    }
  }
}
