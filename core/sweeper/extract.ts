import { isAbsolute, posix, relative } from 'node:path';
import { commandLine, EDITING_TOOLS, localDay, SHELL_TOOLS } from '../api/index.js';
import { showsRedaction } from '../secrets/index.js';
import type { Digest, DigestMessage, DigestSession, ToolUse } from './types.js';

const TRIVIAL = /^(ok(ay)?|thanks?( you)?|thx|yes|yep|no|nope|continue|go on|go ahead|do it|sure|great|nice|perfect|lgtm)[.! ]*$/i;
const DECISION = /\b(decided|we'll use|we will use|let's use|going with|switch(?:ed)? to|instead of|chose|agreed|from now on|prefer)\b/i;
const NEXT_STEP = /\b(?:next steps?|still need to|todo|to do|remaining|follow-?ups?|not yet done|left to do)\b/i;
const NEXT_LABEL = String.raw`(?:#+\s*|\*\*)?(?:next steps?|remaining(?: work)?|to ?do|follow-?ups?|what'?s left)\s*:?\s*(?:\*\*)?\s*:?`;
const NEXT_HEADING = new RegExp(`^\\s*${NEXT_LABEL}\\s*$`, 'i');
/** The heading ending a line after a sentence: "Done with the parser. Next steps:" with the list below. */
const NEXT_HEADING_TAIL = new RegExp(`(?<=[.!?])\\s+${NEXT_LABEL}\\s*$`, 'i');
/** A sentence that is a to-do, not a statement of where things stand: "Next steps: add …", "Still need to …". */
const TO_DO = /^(?:(?:next steps?|remaining(?: work)?|to ?do|follow-?ups?|what'?s left)\s*:|still need to\b|left to do\b)/i;

export interface SessionBrief {
  /** The title the session carries, when it has one. */
  title: string | null;
  /** The session's task statement: its first genuine request. */
  task: string | null;
  /** Its most recent genuine request. */
  latestAsk: string | null;
  /** One line on where it ended: the first sentence of the assistant's closing message. */
  closing: string | null;
  /** When it last saw activity (UTC ms): null when none of its messages has a time or a place. */
  lastAt: number | null;
}

export interface FileGroup {
  folder: string;
  files: string[];
}

export interface Extract {
  sessions: SessionBrief[];
  decisions: string[];
  openQuestions: string[];
  nextSteps: string[];
  commits: string[];
  files: FileGroup[];
  /** Commands that failed and were not later run again successfully. */
  failures: string[];
}

export function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1).trimEnd()}…` : flat;
}

/** Generated histories number their turns: `(step 14)` is noise, not part of the request. */
function withoutCounters(text: string): string {
  return text.replace(/\s*\((?:step|turn) \d+\)/gi, '').replace(/^\s*(?:step|turn) \d+\s*[:.)-]\s*/i, '');
}

function prose(text: string): string {
  return text.replace(/```[\s\S]*?(```|$)/g, ' ').replace(/`([^`]*)`/g, '$1');
}

function firstLine(text: string): string {
  return withoutCounters(prose(text).split('\n').map((l) => l.trim()).find((l) => l !== '') ?? '');
}

function sentences(text: string): string[] {
  return prose(text)
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => withoutCounters(s.replace(/^[-*#>\s]+/, '').replace(/\*\*/g, '').trim()))
    .filter((s) => s.length > 0);
}

/** Text as compared for sameness: case, punctuation and spacing aside. */
export function norm(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

function pushUnique(list: string[], item: string, max: number): void {
  if (item === '' || list.length >= max) return;
  if (!list.some((x) => norm(x) === norm(item))) list.push(item);
}

/** Words that carry meaning: three letters or more ("we", "ll", "of" say nothing about the decision). */
function contentWords(text: string): Set<string> {
  return new Set(norm(text).split(' ').filter((w) => w.length >= 3));
}

/**
 * Whether two sentences say the same thing: at least 3/4 of the shorter one's content words are in
 * the longer one (the assistant repeating the user's decision with a reason added, say).
 */
function nearDuplicate(a: string, b: string): boolean {
  const [x, y] = [contentWords(a), contentWords(b)];
  const [small, large] = x.size <= y.size ? [x, y] : [y, x];
  if (small.size === 0) return norm(a) === norm(b);
  return [...small].filter((w) => large.has(w)).length / small.size >= 0.75;
}

/** As pushUnique, and the first of two near-duplicates is kept (newest first: the later wording). */
function pushDistinct(list: string[], item: string, max: number): void {
  if (item === '' || list.length >= max) return;
  if (!list.some((x) => nearDuplicate(x, item))) list.push(item);
}

/**
 * Text addressed to whoever writes the notes, or faking our markers, is an injection attempt, not work.
 * Naming CHANGELOG.md, OVERVIEW.md or CLAUDE.md is not: a repository keeps its own, and "update
 * CHANGELOG.md for the release" is ordinary work. What marks the attempt is the address: markers (raw
 * or as the digest escapes them), the curator called by name ("Curator:", "Note to the sweeper,"),
 * told what it must write, "ignore previous instructions", or "your notes".
 */
const NOTES_KEEPER = String.raw`(?:curator|sweeper|steward|summari[sz]er|notes?[- ]?(?:keeper|writer|taker))`;
const AIMED_AT_NOTES = [
  // A marker's shape (`<<<WORD>>>`), raw or as the digest escapes it, or a marker word beside one half:
  // Python's `>>>` prompt and a merge conflict's `<<<<<<< HEAD` are ordinary text.
  /(?:<<<|‹<<)\s*[A-Za-z_]+\s*(?:>>>|>>›)/,
  /(?:<<<|‹<<)\s*(?:OVERVIEW|CHANGELOG|CLAUDE|END|NOCHANGE)\b|\b(?:OVERVIEW|CHANGELOG|CLAUDE|END|NOCHANGE)\s*(?:>>>|>>›)/,
  // Called by name at the start of a sentence: "Curator: …", "Hey sweeper, …", "Note to the curator: …".
  new RegExp(String.raw`(?:^|[\n.!?;]\s*)(?:(?:hey|hi|dear|attention|attn)\s+)?${NOTES_KEEPER}\s*[:,]`, 'i'),
  new RegExp(String.raw`(?:^|[\n.!?;]\s*)(?:(?:a\s+)?(?:note|message|instructions?)\s+(?:to|for)|to)\s+(?:the\s+)?${NOTES_KEEPER}\s*[:,]`, 'i'),
  // Told what it must write: "The curator must append … to CLAUDE.md".
  new RegExp(String.raw`\b${NOTES_KEEPER}(?:'s)?\s+(?:must|should|shall|has to|needs to|is to|will)\s+(?:now\s+|always\s+)?(?:write|add|append|record|put|include|say|state|note|list|remember|ignore|drop)\b`, 'i'),
  /\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+)?(?:previous|prior|above|earlier|preceding|system|original)\s+(?:instructions?|prompts?|rules|directions)\b/i,
  /\b(?:in|into|to)\s+(?:your|steward'?s|the curator'?s|the sweeper'?s)\s+notes\b/i,
];

function aimedAtNotes(text: string): boolean {
  return AIMED_AT_NOTES.some((pattern) => pattern.test(text));
}

const words = (text: string): number => text.split(/\s+/).filter((w) => w !== '').length;

/**
 * A message's headline, what a person reads first: its opening sentences (about six words' worth),
 * stopping before any sentence that holds a redaction; null for a bare "ok" or text aimed at the notes.
 */
export function headline(text: string): string | null {
  const line = firstLine(text);
  if (TRIVIAL.test(line) || aimedAtNotes(text)) return null;
  let out = '';
  for (const part of line.split(/(?<=[.!?;])\s+/)) {
    if (showsRedaction(part)) break;
    out = out === '' ? part : `${out} ${part}`;
    if (words(out) >= 6) break;
  }
  return words(out) >= 3 ? clip(out.replace(/[\s;:,]+$/, ''), 200) : null;
}

function isAsk(message: DigestMessage): boolean {
  return message.role === 'user' && headline(message.text) !== null;
}

function displayPath(path: string, cwd: string): string {
  if (!isAbsolute(path)) return path.replace(/\\/g, '/');
  const rel = relative(cwd, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel.replace(/\\/g, '/') : path;
}

// ------------------------------------------------------------------ commits

/** The message of a `git commit` in any of the forms agents write: `-m "…"`, `-m '…'`, several `-m`, a heredoc. */
export function commitSubject(command: string): string | null {
  const at = command.search(/\bgit\s+(?:-C\s+\S+\s+)?commit\b/);
  if (at < 0) return null;
  const rest = command.slice(at);
  const heredoc = /<<-?\s*['"]?(\w+)['"]?\s*\n([\s\S]*?)\n\s*\1\b/.exec(rest);
  const flag = /\s(?:-[a-zA-Z]*m|--message(?:=|\s+))\s*(?:(["'])([\s\S]*?)\1|([^\s"'-]\S*))/.exec(rest);
  let message: string | null = null;
  if (flag && !(flag[2] ?? '').includes('<<')) message = flag[2] ?? flag[3] ?? null;
  else if (heredoc) message = heredoc[2] ?? null;
  const subject = message?.split('\n').map((l) => l.trim()).find((l) => l !== '') ?? null;
  return subject === null || subject.startsWith('$(') ? null : clip(subject, 300);
}

// ------------------------------------------------------------------ files, natural order

// Made at first use, not at import (the first Intl object loads ICU, api/words.ts).
let made: Intl.Collator | undefined;
const collator = { compare: (a: string, b: string) => (made ??= new Intl.Collator('en', { numeric: true, sensitivity: 'base' })).compare(a, b) };

/** Changed files grouped by folder, folders and files in natural order (`b2` before `b10`). */
export function groupFiles(paths: readonly string[]): FileGroup[] {
  const groups = new Map<string, string[]>();
  for (const path of new Set(paths)) {
    const folder = posix.dirname(path);
    const key = folder === '.' ? '' : `${folder}/`;
    groups.set(key, [...(groups.get(key) ?? []), posix.basename(path)]);
  }
  return [...groups.entries()].sort((a, b) => collator.compare(a[0], b[0])).map(([folder, files]) => ({ folder, files: files.sort(collator.compare) }));
}

// ------------------------------------------------------------------ the extract

interface Timed {
  message: DigestMessage;
  session: number;
}

/**
 * When a message took place, for its order and its day, never to show: its own time, else its place
 * (a line without a time is placed at the time of the line before it); null when neither is known.
 */
export function placeOf(message: DigestMessage): number | null {
  return message.ts ?? message.place ?? null;
}

/** Oldest first by place; one with none first, as the store reads such a part first. Equals keep their order. */
export function byPlace(a: DigestMessage, b: DigestMessage): number {
  const [x, y] = [placeOf(a), placeOf(b)];
  if (x === y) return 0;
  if (x === null) return -1;
  return y === null ? 1 : x - y;
}

function chronological(digest: Digest): Timed[] {
  const all = digest.sessions.flatMap((s, session) => s.messages.map((message) => ({ message, session })));
  return all.sort((a, b) => byPlace(a.message, b.message));
}

function closingOf(session: DigestSession): DigestMessage | undefined {
  return [...session.messages].reverse().find((m) => m.role === 'assistant' && m.text.trim() !== '');
}

/**
 * What the assistant was about to do or an exclamation, not where the work stood: "Let me run the tests
 * again.", "Perfect!", "Now I'll update the README." A closing message often opens with one and states
 * the outcome after it ("All 12 tests pass and the fix is in.").
 */
const PREAMBLE = /^(?:(?:now|next|first|finally|ok(?:ay)?|great|perfect|excellent|good|alright|all right)\b[,!.]?\s*)*(?:let me|let's|i'll|i will|i'm going to|i am going to|i need to|time to)\b|^(?:great|perfect|excellent|good|done|alright|all right|ok(?:ay)?)(?: news)?[!.]?$/i;

/**
 * One line on where a session ended, from its closing message: the first sentence of three words or
 * more that states where things stand, past any opening announcement of a next step; that
 * announcement only when nothing else is there. Never a sentence with a redaction in it, nor a to-do
 * ("Next steps: …", an item of the next-steps list): those are the next steps, not where it stopped.
 */
export function closingLine(text: string): string | null {
  const candidates = sentences(nextSteps(text).rest).filter((s) => s.split(/\s+/).length >= 3 && !showsRedaction(s) && !TO_DO.test(s));
  const line = candidates.find((s) => !PREAMBLE.test(s)) ?? candidates[0];
  return line === undefined ? null : clip(line, 200);
}

function latestPlace(messages: readonly DigestMessage[]): number | null {
  const places = messages.map(placeOf).filter((p): p is number => p !== null);
  return places.length > 0 ? Math.max(...places) : null;
}

function brief(session: DigestSession): SessionBrief {
  const asks = session.messages.filter(isAsk);
  const task = session.firstRequest && isAsk(session.firstRequest) ? session.firstRequest : asks[0];
  const closing = closingOf(session);
  const title = session.title !== null && !showsRedaction(session.title) ? clip(withoutCounters(session.title), 120) : null;
  return {
    title,
    task: task ? headline(task.text) : null,
    latestAsk: asks.length > 0 ? headline(asks[asks.length - 1]!.text) : null,
    closing: closing ? closingLine(closing.text) : null,
    lastAt: latestPlace([...session.messages, ...(session.firstRequest ? [session.firstRequest] : [])]),
  };
}

/**
 * A closing message's "Next steps" list, split from the rest: the items under a heading line, or under
 * a heading that ends a line after a sentence ("Done with the parser. Next steps:").
 */
function nextSteps(text: string): { items: string[]; rest: string } {
  const lines = prose(text).split('\n');
  const heading = lines.findIndex((l) => NEXT_HEADING.test(l) || NEXT_HEADING_TAIL.test(l));
  if (heading < 0) return { items: [], rest: lines.join('\n') };
  const items: string[] = [];
  let end = heading + 1;
  for (const line of lines.slice(heading + 1)) {
    if (/^\s*#|^\s*\*\*[^*]+\*\*\s*:?\s*$/.test(line) && items.length > 0) break;
    const item = /^\s*(?:[-*+]|\d+[.)])\s+(.+)$/.exec(line)?.[1];
    if (item) items.push(withoutCounters(item.replace(/\*\*/g, '').trim()));
    else if (line.trim() !== '' && items.length > 0) break;
    end += 1;
  }
  // Prose under a heading with no list is left to the sentences.
  if (items.length === 0) end = heading + 1;
  const lead = lines[heading]!.replace(NEXT_HEADING_TAIL, '').replace(NEXT_HEADING, '');
  return { items, rest: [...lines.slice(0, heading), lead, ...lines.slice(end)].join('\n') };
}

/** The items under a "Next steps" heading of the closing message, and sentences that state one. */
function nextStepsOf(text: string): string[] {
  const out = nextSteps(text).items;
  for (const sentence of sentences(text)) if (NEXT_STEP.test(sentence) && !NEXT_HEADING.test(sentence)) out.push(sentence);
  return out;
}

/** Whether one command line is the other, or the other with more arguments. */
function sameCommand(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return long === short || long.startsWith(`${short} `);
}

/**
 * The files a call changed: every file an editing tool or a patch named; none for a failed call, nor
 * for a shell command (a patch piped through the shell is one: the source names its files then).
 */
function changedFiles(tool: ToolUse): string[] {
  if (tool.isError || !(EDITING_TOOLS.has(tool.name) || (SHELL_TOOLS.has(tool.name) && tool.filePaths))) return [];
  return tool.filePaths ?? (tool.filePath ? [tool.filePath] : []);
}

/** The command line a shell call ran, when it ran one. */
function shellCommand(tool: ToolUse): string | undefined {
  return SHELL_TOOLS.has(tool.name) ? tool.command : undefined;
}

function collectWork(digest: Digest, x: Extract): void {
  const files: string[] = [];
  const runs: Array<{ key: string; tool: ToolUse }> = [];
  for (const { message } of chronological(digest)) {
    for (const tool of message.toolUses) {
      for (const path of changedFiles(tool)) files.push(displayPath(path, digest.project.cwd));
      const command = shellCommand(tool);
      if (!command) continue;
      const subject = tool.isError ? null : commitSubject(command);
      if (subject && !showsRedaction(subject)) x.commits = [...x.commits.filter((c) => c !== subject), subject];
      runs.push({ key: commandLine(command), tool });
    }
  }
  x.files = groupFiles(files);
  x.commits = x.commits.slice(-8).reverse();
  // A failure is news only while no later run of the same command (or a wider or narrower form of
  // it: `npm test` after `npm test -- one.test.ts`) succeeded.
  const succeeded: string[] = [];
  for (let i = runs.length - 1; i >= 0; i -= 1) {
    const { key, tool } = runs[i]!;
    if (!tool.isError) succeeded.push(key);
    else if (!succeeded.some((ok) => sameCommand(ok, key))) pushUnique(x.failures, clip(`\`${clip(key, 100).replace(/`/g, "'")}\` failed: ${tool.errorLine ?? 'error'}`, 240), 5);
  }
}

/** Extractive facts of the digest; every list is in a fixed order so the output is byte-stable. */
export function extract(digest: Digest): Extract {
  const x: Extract = { sessions: digest.sessions.map(brief), decisions: [], openQuestions: [], nextSteps: [], commits: [], files: [], failures: [] };
  const newestFirst = chronological(digest).reverse();
  for (const { message } of newestFirst) {
    // A message that speaks to the notes' writer anywhere gives no decision: its other sentences are suspect too.
    if (aimedAtNotes(prose(message.text))) continue;
    for (const sentence of sentences(message.text)) {
      if (DECISION.test(sentence) && !aimedAtNotes(sentence) && !showsRedaction(sentence)) pushDistinct(x.decisions, clip(sentence, 200), 5);
    }
  }
  for (const session of digest.sessions) {
    const closing = closingOf(session);
    if (!closing) continue;
    const hostile = aimedAtNotes(prose(closing.text));
    for (const step of nextStepsOf(closing.text)) if (!hostile && !showsRedaction(step) && !aimedAtNotes(step)) pushUnique(x.nextSteps, clip(step, 200), 6);
    for (const sentence of sentences(closing.text)) if (sentence.endsWith('?') && sentence.split(/\s+/).length >= 4 && !showsRedaction(sentence)) pushUnique(x.openQuestions, clip(sentence, 200), 4);
  }
  collectWork(digest, x);
  return x;
}

export interface ActivityDay {
  date: string;
  /** The sessions active that day, by their index in the digest. */
  sessions: number[];
  /** Each of those sessions' first genuine request that day (its headline), in the same order; null when it made none. */
  asks: Array<string | null>;
  commits: string[];
  files: number;
}

/** False for a forced sweep with nothing newer than the last sweep's watermark: there is no activity to record. */
export function hasNewActivity(digest: Pick<Digest, 'activityAt' | 'since'>): boolean {
  return digest.since === null || digest.activityAt > digest.since;
}

/** The days (local dates) on which the activity this sweep covers took place, oldest first. */
export function activityDays(digest: Digest): ActivityDay[] {
  const days = new Map<string, ActivityDay>();
  for (const { message, session } of chronological(digest)) {
    const place = placeOf(message);
    // A message with no place has no day to go under (0 is no time: it would make a 1970-01-01 day).
    if (place === null || (digest.since !== null && place <= digest.since)) continue;
    const date = localDay(place);
    const day = days.get(date) ?? { date, sessions: [], asks: [], commits: [], files: 0 };
    if (!day.sessions.includes(session)) {
      day.sessions.push(session);
      day.asks.push(null);
    }
    const at = day.sessions.indexOf(session);
    if (day.asks[at] === null && isAsk(message)) day.asks[at] = headline(message.text);
    for (const tool of message.toolUses) {
      const command = shellCommand(tool);
      const subject = command && !tool.isError ? commitSubject(command) : null;
      if (subject && !showsRedaction(subject) && !day.commits.includes(subject)) day.commits.push(subject);
      day.files += changedFiles(tool).length;
    }
    days.set(date, day);
  }
  return [...days.values()].sort((a, b) => a.date.localeCompare(b.date));
}
