import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { errorCode } from '../log/index.js';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from '../config/index.js';
import { snapshot } from './digest.js';
import type { FileSnapshot } from './types.js';
import { escapeMarkers, type MarkerSections } from './markers.js';
import { clean } from './clean.js';
import { norm } from './extract.js';
import type { ProjectPaths } from './paths.js';
import { namesCredential, type Redactor } from '../secrets/index.js';
import type { DatedBullet } from './curators/index.js';
import type { SweeperProject } from './types.js';
import { readState, updateState, type SweeperState } from './state.js';

export const CAPS = {
  overviewBytes: 16 * 1024,
  bulletChars: 300,
  changelogBytes: 256 * 1024,
  factChars: 300,
  factsPerSweep: 5,
  claudeBytes: 32 * 1024,
} as const;

const PLACEHOLDERS = ['full new overview md in markdown', 'one bare line summarizing this activity', 'genuinely new durable facts for claude md'];
export const FACTS_HEADING = '## Learned facts (Steward)';

export interface WriteInput {
  project: SweeperProject;
  paths: ProjectPaths;
  sections: MarkerSections;
  /** The changelog's bullets, each under the local date of the activity it describes. */
  days: DatedBullet[];
  /** OVERVIEW.md as the digest saw it; a different file on disk means the user edited it since. */
  overviewBefore: FileSnapshot | null;
  redactor: Redactor;
}

export interface WriteResult {
  /** `preserved`: a person's edit was kept (left in place, or its lines moved into the manual block); `note` says which. */
  overview: 'written' | 'unchanged' | 'preserved' | 'empty';
  /** A plain sentence for the person when their edit of OVERVIEW.md was kept, else null. */
  note: string | null;
  /** Whether OVERVIEW.md on disk changed (a `preserved` overview is rewritten when the person's lines moved). */
  overviewRewritten: boolean;
  changelog: 'appended' | 'duplicate' | 'empty';
  factsAdded: string[];
  factsRejected: number;
}

/** A missing note is null; a note that exists but cannot be read stops the write, so it is never overwritten blind. */
function read(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
}

/**
 * Atomic and durable, off the event loop: the fsync waits on the disk, which a busy one (other
 * processes writing) made take 0.2-0.8 s a note, and `.sync` held the owner's loop that long (the
 * panel, the RPCs and capture stood still). Notes have one writer, the sweeps, which never overlap.
 */
async function write(file: string, text: string): Promise<void> {
  await writeFileAtomic(file, text, { mode: PRIVATE_FILE_MODE });
}

function isPlaceholder(text: string): boolean {
  const n = norm(text);
  return n !== '' && PLACEHOLDERS.some((p) => n.includes(p));
}

function capBytes(text: string, bytes: number): string {
  if (Buffer.byteLength(text) <= bytes) return text;
  // Cut at a byte budget (a partial UTF-8 character decodes to U+FFFD and is dropped), then at a line end.
  const head = Buffer.from(text).subarray(0, bytes - 40).toString('utf8').replace(/\uFFFD$/, '');
  const cut = head.lastIndexOf('\n');
  return `${cut > 0 ? head.slice(0, cut) : head}\n\n_(truncated)_`;
}

function sameFile(a: FileSnapshot | null, b: FileSnapshot | null): boolean {
  if (a === null || b === null) return a === b;
  return a.sha256 === b.sha256 && a.size === b.size;
}

/** The person's own part of OVERVIEW.md: Steward carries it over verbatim, whichever curator writes the rest. */
const MANUAL_BLOCK = /<!-- manual -->[\s\S]*?<!-- \/manual -->/;
const MANUAL_OPEN = '<!-- manual -->';
const MANUAL_CLOSE = '<!-- /manual -->';

export function manualBlock(text: string | null): string | null {
  return text === null ? null : (MANUAL_BLOCK.exec(text)?.[0] ?? null);
}

type OverviewRecord = NonNullable<SweeperState['overviewWritten']>;

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Lines by a short hash of their trimmed text: enough to tell Steward's lines from a person's, and no text kept. */
function lineKey(line: string): string {
  return sha256(line.trim()).slice(0, 16);
}

function recordOf(text: string): OverviewRecord {
  return { sha256: sha256(text), lines: [...new Set(text.split('\n').filter((l) => l.trim() !== '').map(lineKey))] };
}

/**
 * The lines a person added to (or changed in) the overview Steward last wrote, outside the manual block,
 * in their order, with the blank lines between them. Lines they only deleted are not theirs to keep.
 */
function handAdditions(disk: string, record: OverviewRecord): string {
  const known = new Set(record.lines);
  const lines = disk.replace(MANUAL_BLOCK, '').split('\n');
  const added = lines.map((l) => l.trim() !== '' && !known.has(lineKey(l)));
  const first = added.indexOf(true);
  if (first < 0) return '';
  const last = added.lastIndexOf(true);
  // Between two added lines, a blank one is the person's spacing; Steward's lines between them are not theirs.
  return lines
    .slice(first, last + 1)
    .filter((l, i) => added[first + i] || l.trim() === '')
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The manual block of the file on disk, with the lines a person added elsewhere moved to its end. */
function keptBlock(disk: string | null, record: OverviewRecord | null): { block: string | null; moved: boolean } {
  const block = manualBlock(disk);
  const added = disk !== null && record !== null && sha256(disk) !== record.sha256 ? handAdditions(disk, record) : '';
  if (added === '') return { block, moved: false };
  const inner = block === null ? '' : block.slice(MANUAL_OPEN.length, -MANUAL_CLOSE.length).trim();
  return { block: `${MANUAL_OPEN}\n${[inner, added].filter((t) => t !== '').join('\n\n')}\n${MANUAL_CLOSE}`, moved: true };
}

/**
 * OVERVIEW.md is the curator's, replaced wholesale, except the person's part: the manual block is carried
 * over verbatim (and never cut by the cap), and lines a person added since Steward's last write move into it.
 */
async function writeOverview(input: WriteInput, text: string): Promise<Pick<WriteResult, 'overview' | 'note' | 'overviewRewritten'>> {
  const { block, moved } = keptBlock(read(input.paths.overview), readState(input.paths.state).overviewWritten);
  // A stray marker of the curator's would make the next write take its text for the person's block.
  const curated = escapeMarkers(clean(text)).replace(MANUAL_BLOCK, '').replace(/<!-- \/?manual -->\n?/g, '').trim();
  if (curated === '' || isPlaceholder(curated)) return { overview: 'empty', note: null, overviewRewritten: false };
  if (!sameFile(input.overviewBefore, snapshot(input.paths.overview))) {
    return { overview: 'preserved', note: 'OVERVIEW.md was edited while the sweep ran, so it was left as it is; the lines added will move into its manual block next time.', overviewRewritten: false };
  }
  const room = CAPS.overviewBytes - (block === null ? 0 : Buffer.byteLength(block) + 2);
  const body = capBytes(curated, Math.max(room, 1024));
  const next = block === null ? `${body}\n` : `${body}\n\n${block}\n`;
  const note = moved ? 'Your edit of OVERVIEW.md was kept: the lines you added are now in its manual block, which every sweep keeps as it is.' : null;
  const changed = read(input.paths.overview) !== next;
  if (changed) await write(input.paths.overview, next);
  await remember(input.paths.state, next);
  return { overview: moved ? 'preserved' : changed ? 'written' : 'unchanged', note, overviewRewritten: changed };
}

async function remember(stateFile: string, overview: string | null): Promise<void> {
  await updateState(stateFile, (s) => ({ ...s, overviewWritten: overview === null ? null : recordOf(overview) }));
}

/** One line, no list marker, no heading, no leading date: the service adds `- ` and the heading. */
export function normalizeBullet(text: string): string {
  const line = clean(text)
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .join(' ')
    .replace(/^(?:[-*+#>]+\s*|\d+[.)]\s+)+/, '')
    .replace(/^\d{4}-\d{2}-\d{2}\s*[:—–-]?\s*/, '')
    .replace(/\s+/g, ' ')
    .trim();
  const capped = line.length > CAPS.bulletChars ? `${line.slice(0, CAPS.bulletChars - 1).trimEnd()}…` : line;
  return escapeMarkers(capped);
}

function bulletsOf(text: string): string[] {
  return text
    .split('\n')
    .filter((l) => /^\s*-\s+/.test(l))
    .map((l) => norm(l.replace(/^\s*-\s+/, '')));
}

function dropOldestDays(text: string): string {
  let out = text;
  while (Buffer.byteLength(out) > CAPS.changelogBytes) {
    const first = out.search(/^## /m);
    const second = first < 0 ? -1 : out.slice(first + 3).search(/^## /m);
    if (second < 0) break;
    out = out.slice(0, first) + out.slice(first + 3 + second);
  }
  return out;
}

const DAY_HEADING = /^## (\d{4}-\d{2}-\d{2})\s*$/;

/**
 * The changelog without the sections of `fromDay` and every later day (each from its `## ` heading
 * to the next one); what comes before them, hand edits included, is kept as it was, only its trailing
 * blank lines trimmed. Null when nothing but the service's own `# Changelog` title is left.
 */
function changelogBefore(text: string, fromDay: string): string | null {
  const kept: string[] = [];
  let dropping = false;
  for (const line of text.split('\n')) {
    if (/^#{1,2} /.test(line)) {
      const day = DAY_HEADING.exec(line.trim())?.[1];
      dropping = day !== undefined && day >= fromDay;
    }
    if (!dropping) kept.push(line);
  }
  const body = kept.join('\n').replace(/\n+$/, '');
  return body.replace(/^# Changelog\s*$/m, '').trim() === '' ? null : `${body}\n`;
}

/** The days the changelog has a section for. */
export function changelogDays(paths: ProjectPaths): Set<string> {
  const text = read(paths.changelog) ?? '';
  return new Set(text.split('\n').flatMap((line) => DAY_HEADING.exec(line.trim())?.[1] ?? []));
}

/**
 * The notes a forget may have left naming a forgotten conversation (CLAUDE.md is the user's to
 * edit): the overview, and the changelog from `fromDay` on (all of it when null). Days before it
 * stay as they are, hand edits included: they were written before the conversation began.
 */
export async function removeStaleNotes(paths: ProjectPaths, fromDay: string | null): Promise<void> {
  await rm(paths.overview, { force: true });
  await remember(paths.state, null);
  const text = fromDay === null ? null : read(paths.changelog);
  const kept = text === null ? null : changelogBefore(text, fromDay!);
  if (kept === null) await rm(paths.changelog, { force: true });
  else if (kept !== text) await write(paths.changelog, kept);
}

/**
 * Appends under the day's heading, or adds the heading where its date falls (days stay in order).
 * Null when that day's section already holds the bullet (a re-run of the same sweep); the same words
 * under another day are that day's entry, not a duplicate (the days of one conversation share its title).
 */
function appendBullet(existing: string | null, date: string, bullet: string): string | null {
  const heading = `## ${date}`;
  const text = existing ?? '# Changelog\n';
  const lines = text.replace(/\n+$/, '').split('\n');
  const at = lines.findIndex((l) => l.trim() === heading);
  if (at < 0) {
    const later = lines.findIndex((l) => (DAY_HEADING.exec(l.trim())?.[1] ?? '') > date);
    if (later < 0) return dropOldestDays(`${lines.join('\n')}\n\n${heading}\n\n- ${bullet}\n`);
    lines.splice(later, 0, heading, '', `- ${bullet}`, '');
    return dropOldestDays(`${lines.join('\n')}\n`);
  }
  let end = at + 1;
  while (end < lines.length && !/^#{1,2} /.test(lines[end] ?? '')) end += 1;
  while (end > at + 1 && (lines[end - 1] ?? '').trim() === '') end -= 1;
  const section = lines.slice(at + 1, end).join('\n');
  if (bulletsOf(section).includes(norm(bullet))) return null;
  const insert = end === at + 1 ? ['', `- ${bullet}`] : [`- ${bullet}`];
  lines.splice(end, 0, ...insert);
  return dropOldestDays(`${lines.join('\n')}\n`);
}

async function writeChangelog(input: WriteInput, days: DatedBullet[]): Promise<WriteResult['changelog']> {
  let text = read(input.paths.changelog);
  let appended = 0;
  let duplicates = 0;
  for (const day of days) {
    const bullet = normalizeBullet(day.bullet);
    // NOCHANGE is a model's way of saying there is nothing to record, never a line of history.
    if (bullet === '' || isPlaceholder(bullet) || /^nochange\.?$/i.test(bullet) || !/^\d{4}-\d{2}-\d{2}$/.test(day.date)) continue;
    const next = appendBullet(text, day.date, bullet);
    if (next === null) duplicates += 1;
    else {
      text = next;
      appended += 1;
    }
  }
  if (appended === 0) return duplicates > 0 ? 'duplicate' : 'empty';
  await write(input.paths.changelog, text ?? '');
  return 'appended';
}

const URL = /\b(?:https?|ftp|file|ssh|git|wss?):\/\/|\bwww\.|\b[\w-]+\.(?:com|net|org|io|sh|dev|ai|xyz|ru|cn|me|co|app|site|link|top)\b/i;
const SHELL = /`|\$\(|\|\s*[a-z]|&&|\|\||;\s*[a-z]|^\s*[$#>]\s|\b(?:curl|wget|sudo|chmod|chown|rm\s+-|bash|zsh|sh\s+-c|powershell|iex|eval|exec|base64|netcat|nc\s|ssh|scp|npx|pip\s+install|brew\s+install|apt(?:-get)?\s|git\s+(?:clone|push|pull|fetch))\b/i;
const INSTRUCTION =
  /\b(?:run|rerun|execute|install|download|invoke|launch|visit|upload|send|post|fetch|pipe|source|call|ignore|disregard|forget|override|append|obey|follow these)\b|\b(?:you (?:must|should)|make sure to|remember to|from now on)\b/i;
const ENV_VARIABLE = /\benv(?:ironment)? var(?:iable)?s?\b/i;
const TRANSIENT = /\b(?:tests? (?:pass|passed|passing|fail|failed|failing)|build (?:succeeded|passes|passed|failed)|currently|right now|today|yesterday|this session|in progress|working on)\b|\d{4}-\d{2}-\d{2}/i;

/** Why a proposed CLAUDE.md line is refused, or null when it is a plain declarative fact. */
export function rejectFact(line: string): string | null {
  if (line.length > CAPS.factChars) return 'too-long';
  if (URL.test(line)) return 'url';
  if (SHELL.test(line)) return 'shell';
  if (INSTRUCTION.test(line)) return 'instruction';
  if (namesCredential(line) || ENV_VARIABLE.test(line)) return 'secret';
  if (TRANSIENT.test(line)) return 'transient';
  if (/<<<|>>>|<\/?(?:transcript|msg|notes|session|task)\b/i.test(line)) return 'marker';
  return null;
}

function words(text: string): Set<string> {
  return new Set(norm(text).split(' ').filter((w) => w !== ''));
}

function nearDuplicate(a: string, b: string): boolean {
  if (norm(a) === norm(b)) return true;
  const x = words(a);
  const y = words(b);
  const shared = [...x].filter((w) => y.has(w)).length;
  const union = new Set([...x, ...y]).size;
  return union > 0 && shared / union >= 0.8;
}

export function proposedFacts(text: string): string[] {
  return clean(text)
    .split('\n')
    .map((l) => l.replace(/^\s*(?:[-*+]\s+|\d+[.)]\s+)/, '').trim())
    .filter((l) => l !== '' && !/^#/.test(l) && !/^nochange\.?$/i.test(l));
}

function existingLines(...texts: Array<string | null>): string[] {
  return texts
    .filter((t): t is string => t !== null)
    .flatMap((t) => t.split('\n'))
    .map((l) => l.replace(/^\s*(?:[-*+]\s+|\d+[.)]\s+)/, '').trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}

async function amendClaude(input: WriteInput, text: string): Promise<{ added: string[]; rejected: number }> {
  const current = read(input.paths.claude);
  const known = existingLines(current, read(join(input.project.cwd, 'CLAUDE.md')));
  const added: string[] = [];
  let rejected = 0;
  for (const fact of proposedFacts(text)) {
    if (added.length >= CAPS.factsPerSweep || rejectFact(fact) !== null) {
      rejected += 1;
      continue;
    }
    if ([...known, ...added].some((k) => nearDuplicate(k, fact))) continue;
    added.push(fact);
  }
  if (added.length === 0) return { added, rejected };
  const base = current ?? `# CLAUDE.md\n\nDurable facts about this project, kept by Steward's sweeper. Edit or remove lines freely.\n`;
  const lines = added.map((f) => `- ${f}`).join('\n');
  const next = base.includes(FACTS_HEADING) ? `${base.replace(/\n+$/, '')}\n${lines}\n` : `${base.replace(/\n+$/, '')}\n\n${FACTS_HEADING}\n\n${lines}\n`;
  if (Buffer.byteLength(next) > CAPS.claudeBytes) return { added: [], rejected: rejected + added.length };
  await write(input.paths.claude, next);
  return { added, rejected };
}

/**
 * Writes the parsed sections into the project's folder under STEWARD_HOME. The sections are redacted
 * again first (a model can echo a secret back), and only the three fixed files are ever touched.
 */
export async function writeNotes(input: WriteInput): Promise<WriteResult> {
  ensurePrivateDir(input.paths.dir);
  const [overview = '', claudeText = '', ...bullets] = await input.redactor.redactMany([input.sections.overview, input.sections.claude ?? '', ...input.days.map((d) => d.bullet)]);
  const claude = input.sections.claude === null ? null : claudeText;
  const days = input.days.map((d, i) => ({ date: d.date, bullet: bullets[i] ?? '' }));
  const written = await writeOverview(input, overview);
  const result: WriteResult = { ...written, changelog: await writeChangelog(input, days), factsAdded: [], factsRejected: 0 };
  // Repo-backed projects own their CLAUDE.md upstream: enforced here, not only asked of the model.
  if (claude !== null && !input.project.repoBacked) {
    const amended = await amendClaude(input, claude);
    result.factsAdded = amended.added;
    result.factsRejected = amended.rejected;
  }
  return result;
}
