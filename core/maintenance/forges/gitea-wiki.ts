import { createHash } from 'node:crypto';
import { z } from 'zod';
import { sortByPath, titleOf } from './git.js';
import { hasNextOf, type Transport } from './http.js';
import { parseEach, RequiredTime, Text, Url } from './records.js';
import { ForgeError, type TreeEntry, type TreeSource } from './types.js';

const LIMIT = 50;
const MAX_LIST_PAGES = 200;

const Commit = z.object({ sha: z.string().max(100), committer: z.object({ date: z.string() }).nullish(), author: z.object({ date: z.string() }).nullish() }).nullish();
const PageMeta = z.object({ title: Text, sub_url: z.string().min(1).max(1_000), html_url: Url, last_commit: Commit });
const PageBody = z.object({ title: Text, content_base64: z.string().nullish(), html_url: Url, last_commit: Commit });

/**
 * A Gitea/Forgejo wiki through its REST API: the page list is the directory metadata (re-read each
 * window), a page body is read only when its last commit changed.
 */
export function giteaWikiTree(transport: Transport, repoPath: string): TreeSource {
  const listings = new Map<string, TreeEntry[]>();
  const scan = async (signal: AbortSignal): Promise<TreeEntry[] | 'absent'> => {
    const entries: TreeEntry[] = [];
    for (let page = 1; page <= MAX_LIST_PAGES; page += 1) {
      const reply = await transport.get(`${repoPath}/wiki/pages`, { page, limit: LIMIT }, { signal });
      if (reply.status === 404 || reply.status === 410) return 'absent';
      const parsed = parseEach(reply.data, (e) => PageMeta.parse(e));
      if (!parsed) throw new ForgeError('forge_malformed', 'The forge sent a wiki list that is not a list.');
      for (const p of parsed.records) entries.push({ path: p.sub_url, revision: p.last_commit?.sha ?? createHash('sha256').update(JSON.stringify(p)).digest('hex') });
      if (!hasNextOf(reply.headers, page, LIMIT, parsed.raw)) break;
    }
    return sortByPath(entries);
  };
  return {
    async version(signal) {
      const entries = await scan(signal);
      if (entries === 'absent') return 'absent';
      const version = createHash('sha256').update(JSON.stringify(entries)).digest('hex');
      listings.clear();
      listings.set(version, entries);
      return version;
    },
    async list(version, signal) {
      const held = listings.get(version);
      if (held) return held;
      const entries = await scan(signal);
      return entries === 'absent' ? [] : entries;
    },
    async read(_version, entry, signal) {
      const reply = await transport.get(`${repoPath}/wiki/page/${encodeURIComponent(entry.path)}`, {}, { signal });
      if (reply.status === 404 || reply.status === 410) return null;
      const page = PageBody.safeParse(reply.data);
      if (!page.success) throw new ForgeError('forge_malformed', 'The forge sent a wiki page that cannot be read.');
      const when = RequiredTime.safeParse(page.data.last_commit?.committer?.date ?? page.data.last_commit?.author?.date);
      return {
        title: page.data.title || titleOf(entry.path),
        body: Buffer.from(page.data.content_base64 ?? '', 'base64').toString('utf8'),
        url: page.data.html_url,
        updatedAt: when.success ? when.data : null,
      };
    },
  };
}
