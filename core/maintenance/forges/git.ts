import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { lstat, readFile } from 'node:fs/promises';
import { devNull } from 'node:os';
import { basename, extname, join, normalize, sep } from 'node:path';
import { ForgeError, type TreeEntry, type TreePage, type TreeSource } from './types.js';

/** A page body above this is listed but not read: counted as skipped (too_large). */
export const MAX_PAGE_BYTES = 1_000_000;

const WIKI_EXTENSIONS = new Set(['.md', '.markdown', '.mediawiki', '.wiki', '.rst', '.textile', '.rdoc', '.org', '.creole', '.pod', '.asciidoc', '.adoc', '.asc', '.txt']);
const DOCUMENT_EXTENSIONS = new Set(['.md', '.markdown', '.mdx', '.txt', '.rst', '.adoc']);

interface GitOptions {
  cwd?: string;
  gitDir?: string;
  /** Extra environment, e.g. an auth header as GIT_CONFIG_* (never in argv, where `ps` would show it). */
  env?: Record<string, string>;
  signal: AbortSignal;
}

class GitFailure extends Error {
  constructor(readonly stderr: string) {
    super('git failed');
  }
}

/** Runs git without a prompt, the user's or system config, or a pager; output is a Buffer. */
export function git(args: string[], options: GitOptions): Promise<Buffer> {
  const prefix = options.gitDir ? ['--git-dir', options.gitDir] : options.cwd ? ['-C', options.cwd] : [];
  const env = {
    PATH: process.env['PATH'] ?? '',
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: devNull,
    LC_ALL: 'C',
    ...options.env,
  };
  return new Promise((resolve, reject) => {
    execFile('git', [...prefix, ...args], { env, encoding: 'buffer', maxBuffer: 256 * 1024 * 1024, signal: options.signal }, (error, stdout, stderr) => {
      if (error) reject(options.signal.aborted ? options.signal.reason : new GitFailure(stderr.toString('utf8')));
      else resolve(stdout);
    });
  });
}

function parseLsTree(out: Buffer, extensions: Set<string>): TreeEntry[] {
  const entries: TreeEntry[] = [];
  for (const line of out.toString('utf8').split('\0')) {
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    const [, type, sha, size] = line.slice(0, tab).split(/\s+/);
    const path = line.slice(tab + 1);
    if (type !== 'blob' || !sha || !extensions.has(extname(path).toLowerCase())) continue;
    entries.push({ path, revision: sha, ...(Number(size) > MAX_PAGE_BYTES ? { skip: 'too_large' as const } : {}) });
  }
  return sortByPath(entries);
}

export function sortByPath<T extends { path: string }>(entries: T[]): T[] {
  return entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** A page's title from its file name: `Getting-Started.md` is "Getting Started". */
export function titleOf(path: string): string {
  return basename(path, extname(path)).replace(/[-_]+/g, ' ').trim() || path;
}

interface TreeAt {
  run: (args: string[], signal: AbortSignal) => Promise<Buffer>;
  extensions: Set<string>;
  pageUrl: (path: string) => string | null;
}

function gitTree(at: TreeAt, version: (signal: AbortSignal) => Promise<string | 'absent'>): TreeSource {
  return {
    version,
    async list(commit, signal) {
      return parseLsTree(await at.run(['ls-tree', '-r', '-z', '-l', '--full-tree', commit], signal), at.extensions);
    },
    async read(commit, entry, signal) {
      const body = (await at.run(['cat-file', 'blob', entry.revision], signal)).toString('utf8');
      const when = Number((await at.run(['log', '-1', '--format=%ct', commit, '--', entry.path], signal)).toString('utf8').trim());
      return { title: titleOf(entry.path), body, url: at.pageUrl(entry.path), updatedAt: Number.isFinite(when) && when > 0 ? when * 1_000 : null };
    },
  };
}

const ABSENT = /not found|couldn't find remote ref|does not appear to be a git repository|repository .* does not exist|HTTP 404/i;

/**
 * A wiki kept as its own git repository (`<repo>.wiki.git`), fetched into a private bare mirror.
 * The token travels as an HTTP header through GIT_CONFIG_* variables; git's messages are never passed on.
 */
export function remoteWikiTree(options: { mirror: string; remote: string; token: string | null; pageUrl: (name: string) => string }): TreeSource {
  const env: Record<string, string> = options.token
    ? { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'http.extraHeader', GIT_CONFIG_VALUE_0: `Authorization: Basic ${Buffer.from(`x-access-token:${options.token}`).toString('base64')}` }
    : {};
  const run = (args: string[], signal: AbortSignal) => git(args, { gitDir: options.mirror, env, signal });
  const pageUrl = (path: string) => options.pageUrl(basename(path, extname(path)));
  return gitTree({ run, extensions: WIKI_EXTENSIONS, pageUrl }, async (signal) => {
    if (!existsSync(join(options.mirror, 'HEAD'))) {
      mkdirSync(options.mirror, { recursive: true, mode: 0o700 });
      await git(['init', '--bare', '-q', options.mirror], { signal });
    }
    try {
      await run(['fetch', '-q', '--no-tags', '--prune', options.remote, '+HEAD:refs/steward/head'], signal);
    } catch (error) {
      if (error instanceof GitFailure && ABSENT.test(error.stderr)) return 'absent';
      if (error instanceof GitFailure) throw new ForgeError('wiki_unavailable', 'The wiki could not be fetched.');
      throw error;
    }
    return (await run(['rev-parse', 'refs/steward/head'], signal)).toString('utf8').trim();
  });
}

/** Documents of a local repository at a ref: the blobs of that commit, never the working files. */
export function localGitTree(root: string, ref: string): TreeSource {
  const run = (args: string[], signal: AbortSignal) => git(args, { cwd: root, signal });
  return gitTree({ run, extensions: DOCUMENT_EXTENSIONS, pageUrl: () => null }, async (signal) => {
    try {
      return (await run(['rev-parse', '--verify', '-q', `${ref}^{commit}`], signal)).toString('utf8').trim();
    } catch (error) {
      if (error instanceof GitFailure) return 'absent';
      throw error;
    }
  });
}

/**
 * Documents of a worktree as they are on disk (tracked and untracked, not ignored). A page's
 * revision is its size and mtime; symbolic links are not followed out of the worktree.
 */
export function worktreeTree(root: string): TreeSource {
  const listings = new Map<string, TreeEntry[]>();
  const scan = async (signal: AbortSignal): Promise<TreeEntry[]> => {
    const out = await git(['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, signal });
    const entries: TreeEntry[] = [];
    for (const path of new Set(out.toString('utf8').split('\0'))) {
      if (!path || !DOCUMENT_EXTENSIONS.has(extname(path).toLowerCase()) || normalize(path).split(sep).includes('..')) continue;
      const stat = await lstat(join(root, path)).catch(() => null);
      if (!stat?.isFile()) continue;
      entries.push({ path, revision: `${stat.size}:${Math.trunc(stat.mtimeMs)}`, ...(stat.size > MAX_PAGE_BYTES ? { skip: 'too_large' as const } : {}) });
    }
    return sortByPath(entries);
  };
  return {
    async version(signal) {
      let entries: TreeEntry[];
      try {
        entries = await scan(signal);
      } catch (error) {
        if (error instanceof GitFailure) return 'absent';
        throw error;
      }
      const version = createHash('sha256').update(JSON.stringify(entries)).digest('hex');
      listings.clear();
      listings.set(version, entries);
      return version;
    },
    async list(version, signal) {
      return listings.get(version) ?? (await scan(signal));
    },
    async read(_version, entry): Promise<TreePage | null> {
      const file = join(root, entry.path);
      const stat = await lstat(file).catch(() => null);
      if (!stat?.isFile()) return null;
      return { title: titleOf(entry.path), body: await readFile(file, 'utf8'), url: null, updatedAt: Math.trunc(stat.mtimeMs) };
    },
  };
}
