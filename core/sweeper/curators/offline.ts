import { clip, extract, type Extract } from '../extract.js';
import type { Digest } from '../types.js';
import type { Curator, CuratorReply, CuratorRequest } from './types.js';

function section(title: string, items: string[]): string {
  return items.length === 0 ? '' : `## ${title}\n\n${items.map((i) => `- ${i}`).join('\n')}\n\n`;
}

function manualRegion(overview: string | null): string {
  const match = overview ? /<!-- manual -->[\s\S]*?<!-- \/manual -->/.exec(overview) : null;
  return match ? `${match[0]}\n` : '';
}

export function offlineOverview(digest: Digest, x: Extract): string {
  const at = new Date(digest.activityAt).toISOString().slice(0, 16).replace('T', ' ');
  return (
    `# ${digest.project.name}\n\n` +
    `_Offline summary of recent activity (no model configured), up to ${at} UTC._\n\n` +
    section('Current focus', x.focus.length > 0 ? x.focus : ['(no recent request recorded)']) +
    section('Recent asks', x.asks) +
    section('Recently changed files', x.files.map((f) => `\`${f.path}\`${f.count > 1 ? ` (${f.count} edits)` : ''}`)) +
    section('Recent commands', x.commands.map((c) => `\`${c.replace(/`/g, "'")}\``)) +
    section('Commits', x.commits.map((c) => `"${c}"`)) +
    section('Decisions', x.decisions) +
    section('Open items', x.openItems) +
    section('Errors seen', x.errors) +
    manualRegion(digest.notes.overview)
  ).trimEnd();
}

export function offlineBullet(digest: Digest, x: Extract): string {
  const sessions = digest.sessions.filter((s) => s.messages.length > 0).length;
  const lead = x.commits.length > 0 ? `Committed ${x.commits.slice(0, 2).map((c) => `"${c}"`).join(', ')}` : `Worked on: ${x.asks[0] ?? x.focus[0] ?? 'recent activity'}`;
  const files = x.files.length > 0 ? ` (${x.files.length} file${x.files.length === 1 ? '' : 's'} changed: ${x.files.slice(0, 3).map((f) => f.path).join(', ')})` : '';
  return clip(`${lead}${files} — ${sessions} session${sessions === 1 ? '' : 's'}`, 300);
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
      return Promise.resolve({
        sections: { overview: offlineOverview(request.digest, x), changelog: offlineBullet(request.digest, x), claude: null },
        tokensIn: 0,
        tokensOut: 0,
        calls: 0,
      });
    },
  };
}
