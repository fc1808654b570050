import { localDay } from '../../api/index.js';
import { activityDays, clip, extract, hasNewActivity, norm, type ActivityDay, type Extract, type SessionBrief } from '../extract.js';
import type { Digest } from '../types.js';
import type { Curator, CuratorReply, CuratorRequest, DatedBullet } from './types.js';

function section(title: string, items: string[]): string {
  return items.length === 0 ? '' : `## ${title}\n\n${items.map((i) => `- ${i}`).join('\n')}\n\n`;
}

function paragraph(title: string, text: string): string {
  return text.trim() === '' ? '' : `## ${title}\n\n${text.trim()}\n\n`;
}

function code(text: string): string {
  return `\`${text.replace(/`/g, "'")}\``;
}

/** What the project is: its README's first paragraph, its manifest's description, its repository. */
function about(digest: Digest): string {
  const lines = [
    digest.about.readme ?? '',
    digest.about.description && digest.about.description !== digest.about.readme ? `Package: ${digest.about.description}` : '',
    digest.project.repoId ? `Repository: ${code(digest.project.repoId)}` : '',
  ].filter((l) => l !== '');
  return lines.join('\n\n');
}

/** The newest session's task statement is the focus; its latest request follows when it moved on. */
function focus(x: Extract): string[] {
  const latest = x.sessions.find((s) => s.task !== null || s.title !== null);
  if (!latest) return [];
  const day = latest.lastAt !== null ? localDay(latest.lastAt) : null;
  const named = latest.title !== null ? ` (session “${latest.title}”${day !== null ? `, ${day}` : ''})` : day !== null ? ` (${day})` : '';
  const items = [`Task: ${latest.task ?? latest.title ?? ''}${named}`];
  if (latest.latestAsk !== null && latest.latestAsk !== latest.task) items.push(`Latest request: ${latest.latestAsk}`);
  if (latest.closing !== null) items.push(`Where it stopped: ${latest.closing}`);
  return items;
}

function bare(text: string): string {
  return text.replace(/[\s.:;,]+$/, '');
}

/** Date, title (or task), and one line on where the session ended. */
function sessionLine(s: SessionBrief): string | null {
  const name = s.title ?? s.task;
  if (name === null) return null;
  const line = s.closing ?? (s.title !== null && s.task !== null ? s.task : null);
  // A session none of whose messages has a time has no date to show.
  return `${s.lastAt !== null ? `${localDay(s.lastAt)} — ` : ''}${bare(name)}${line !== null && bare(line) !== bare(name) ? `: ${line}` : ''}`;
}

function fileLines(x: Extract): string[] {
  return x.files.slice(0, 12).map((g) => {
    const shown = g.files.slice(0, 12).join(', ');
    const more = g.files.length > 12 ? ` and ${g.files.length - 12} more` : '';
    return g.folder === '' ? `${shown}${more}` : `${code(g.folder)} ${shown}${more}`;
  });
}

export function offlineOverview(digest: Digest, x: Extract): string {
  const at = new Date(digest.activityAt).toISOString().slice(0, 16).replace('T', ' ');
  return (
    `# ${digest.project.name}\n\n` +
    `_Offline summary of recent activity (no model configured), up to ${at} UTC. Steward rewrites this file each sweep; lines you add to it are kept, in the manual block at its end._\n\n` +
    paragraph('What this project is', about(digest)) +
    section('Current state and focus', focus(x)) +
    section('Key decisions', x.decisions) +
    section('Open questions', x.openQuestions) +
    section('Next steps', x.nextSteps) +
    section('Unresolved failures', x.failures) +
    section('Recent sessions', x.sessions.map(sessionLine).filter((l): l is string => l !== null)) +
    section('Recent commits', x.commits) +
    // The person's manual block is the writer's to carry over (writer.ts), whichever curator runs.
    section('Files changed', fileLines(x))
  ).trimEnd();
}

/**
 * What one session was about on one day: its title, and that day's first request when it says more,
 * so each day of a conversation spanning several says what that day's work was. Never the session's
 * task: that is its first usable request, which may be another day's (a later one, when the early
 * days' requests held secrets), and a day's bullet speaks only of that day.
 */
function dayTopic(s: SessionBrief | undefined, ask: string | null): string | null {
  const name = s?.title ?? null;
  if (name === null) return ask === null ? null : bare(ask);
  return ask === null || norm(ask) === norm(name) ? bare(name) : `${bare(name)} — “${clip(bare(ask), 120)}”`;
}

/** One line for one day of activity: its commits when there are some, else what its sessions were about that day. */
function dayBullet(x: Extract, day: ActivityDay): string {
  const topics = [...new Set(day.sessions.map((i, at) => dayTopic(x.sessions[i], day.asks[at] ?? null)).filter((t): t is string => t !== null))];
  const lead = day.commits.length > 0 ? `Committed ${day.commits.slice(0, 3).map((c) => `“${c}”`).join(', ')}` : topics.length > 0 ? `Worked on: ${topics.slice(0, 2).join('; ')}` : 'Worked on the project';
  const files = day.files > 0 ? ` (${day.files} file edit${day.files === 1 ? '' : 's'})` : '';
  return clip(`${lead}${files}`, 300);
}

/** One bullet per day of activity this sweep covers, dated by that day, never by the sweep's own day; none when nothing is new. */
export function offlineDays(digest: Digest, x: Extract): DatedBullet[] {
  const days = activityDays(digest);
  // A forced sweep with nothing past the watermark has no activity to report, not "some work".
  if (days.length === 0) return hasNewActivity(digest) ? [{ date: localDay(digest.activityAt), bullet: 'Worked on the project' }] : [];
  return days.map((day) => ({ date: day.date, bullet: dayBullet(x, day) }));
}

/**
 * The default curator when no model is configured: deterministic, extractive, free. Extractive
 * "facts" are too noisy to persist as instructions, so it always answers NOCHANGE for CLAUDE.md.
 */
export function createOfflineCurator(): Curator {
  return {
    kind: 'offline',
    model: null,
    curate(request: CuratorRequest): Promise<CuratorReply> {
      const x = extract(request.digest);
      const days = offlineDays(request.digest, x);
      const reply: CuratorReply = {
        sections: { overview: offlineOverview(request.digest, x), changelog: days[days.length - 1]?.bullet ?? '', claude: null },
        days,
        tokensIn: 0,
        tokensOut: 0,
        calls: 0,
      };
      return Promise.resolve(reply);
    },
  };
}
