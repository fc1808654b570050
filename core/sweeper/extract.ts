import { isAbsolute, relative } from 'node:path';
import type { Digest, DigestMessage, ToolUse } from './types.js';

const MODIFYING = new Set(['Edit', 'MultiEdit', 'Write', 'NotebookEdit', 'apply_patch', 'write', 'edit']);
const SHELL = new Set(['Bash', 'bash', 'exec', 'shell', 'run_command']);
const TRIVIAL = /^(ok(ay)?|thanks?( you)?|thx|yes|yep|no|nope|continue|go on|go ahead|do it|sure|great|nice|perfect|lgtm)[.! ]*$/i;
const DECISION = /\b(decided|we'll use|we will use|let's use|going with|switch(?:ed)? to|instead of|chose|agreed|from now on|prefer)\b/i;
const OPEN_ITEM = /\b(TODO|FIXME|next step|still need to|doesn't work|does not work|failing|not yet|remaining)\b/i;
const COMMIT = /\bgit\s+commit\b[^\n]*?\s-(?:a?m)\s+(["'])(.+?)\1/;

export interface Extract {
  focus: string[];
  asks: string[];
  files: Array<{ path: string; count: number }>;
  commands: string[];
  commits: string[];
  decisions: string[];
  openItems: string[];
  errors: string[];
}

export function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1).trimEnd()}…` : flat;
}

function prose(text: string): string {
  return text.replace(/```[\s\S]*?(```|$)/g, ' ').replace(/`([^`]*)`/g, '$1');
}

function firstLine(text: string): string {
  return prose(text).split('\n').map((l) => l.trim()).find((l) => l !== '') ?? '';
}

function sentences(text: string): string[] {
  return prose(text)
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.replace(/^[-*#>\s]+/, '').trim())
    .filter((s) => s.length > 0);
}

function norm(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

function pushUnique(list: string[], item: string, max: number): void {
  if (item === '' || list.length >= max) return;
  if (!list.some((x) => norm(x) === norm(item))) list.push(item);
}

/** Text addressed to the curator itself (or faking our markers) is an injection attempt, not work. */
const AIMED_AT_NOTES = /\b(curator|sweeper|CLAUDE\.md|OVERVIEW\.md|CHANGELOG\.md)\b|<<<|>>>|‹<<|>>›/i;

function isAsk(message: DigestMessage): boolean {
  const line = firstLine(message.text);
  return message.role === 'user' && line.split(/\s+/).length >= 3 && !TRIVIAL.test(line) && !AIMED_AT_NOTES.test(message.text);
}

function displayPath(path: string, cwd: string): string {
  if (!isAbsolute(path)) return path;
  const rel = relative(cwd, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

function byNewest(digest: Digest): Array<{ message: DigestMessage; session: number; order: number }> {
  const all = digest.sessions.flatMap((s, session) => s.messages.map((message, i) => ({ message, session, order: session * 10_000 + i })));
  return all.sort((a, b) => b.message.ts - a.message.ts || a.order - b.order);
}

function collectTools(digest: Digest, x: Extract): void {
  const counts = new Map<string, number>();
  const chronological = byNewest(digest).reverse();
  for (const { message } of chronological) {
    for (const tool of message.toolUses) collectTool(tool, digest.project.cwd, counts, x);
  }
  x.files = [...counts.entries()].map(([path, count]) => ({ path, count })).sort((a, b) => b.count - a.count || a.path.localeCompare(b.path)).slice(0, 10);
  x.commands = x.commands.slice(-8).reverse();
  x.commits = x.commits.slice(-3).reverse();
}

function collectTool(tool: ToolUse, cwd: string, counts: Map<string, number>, x: Extract): void {
  if (MODIFYING.has(tool.name) && tool.filePath) {
    const path = displayPath(tool.filePath, cwd);
    counts.set(path, (counts.get(path) ?? 0) + 1);
  }
  if (SHELL.has(tool.name) && tool.command) {
    const command = clip(tool.command.split('\n')[0] ?? '', 100);
    x.commands = x.commands.filter((c) => c !== command);
    x.commands.push(command);
    const commit = COMMIT.exec(tool.command);
    if (commit?.[2] && !tool.isError) {
      x.commits = x.commits.filter((c) => c !== commit[2]);
      x.commits.push(clip(commit[2], 120));
    }
  }
  if (tool.isError) pushUnique(x.errors, clip(`${tool.name}: ${tool.errorLine ?? 'failed'}`, 160), 5);
}

/** Extractive facts of the digest; every list is in a fixed order so the output is byte-stable. */
export function extract(digest: Digest): Extract {
  const x: Extract = { focus: [], asks: [], files: [], commands: [], commits: [], decisions: [], openItems: [], errors: [] };
  for (const session of digest.sessions) {
    const latest = [...session.messages].reverse().find(isAsk);
    if (latest) pushUnique(x.focus, clip(firstLine(latest.text), 120), 3);
  }
  const newest = byNewest(digest);
  for (const { message } of newest) if (isAsk(message)) pushUnique(x.asks, clip(firstLine(message.text), 120), 5);
  for (const { message } of newest) {
    for (const sentence of sentences(message.text)) if (DECISION.test(sentence) && !AIMED_AT_NOTES.test(sentence)) pushUnique(x.decisions, clip(sentence, 200), 5);
  }
  for (const session of digest.sessions) {
    const last = [...session.messages].reverse().find((m) => m.role === 'assistant' && m.text.trim() !== '');
    for (const sentence of last ? sentences(last.text) : []) if (OPEN_ITEM.test(sentence)) pushUnique(x.openItems, clip(sentence, 200), 5);
  }
  collectTools(digest, x);
  return x;
}

