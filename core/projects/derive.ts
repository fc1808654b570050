import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, posix, resolve, win32 } from 'node:path';

const WINDOWS_DRIVE = /^[A-Za-z]:([\\/]|$)/;
const UNC = /^\\\\[^\\]+\\[^\\]+/;
/** WSL sees drive C: as /mnt/c: the same folder, so the same project. */
const WSL_MOUNT = /^\/mnt\/([A-Za-z])(?=\/|$)/;
/**
 * Windows' verbatim form of a drive or UNC path (`\\?\C:\…`, `\\?\UNC\server\share\…`), which Rust's
 * canonicalize gives and Codex records on Windows (openai/codex#17302, #19128): the same folder.
 */
const VERBATIM = /^\\\\\?\\(?:(UNC)\\|(?=[A-Za-z]:))/i;

function withoutVerbatim(cwd: string): string {
  const match = VERBATIM.exec(cwd);
  if (!match) return cwd;
  const rest = cwd.slice(match[0].length);
  return match[1] ? `\\\\${rest}` : rest;
}

function windowsForm(path: string): string {
  let out = win32.normalize(path);
  if (out.length > 3) out = out.replace(/\\+$/, '');
  if (/^[A-Z]:/.test(out)) out = out[0]!.toLowerCase() + out.slice(1);
  return out;
}

/**
 * The cwd as a stable key input, the same whatever system wrote it and whatever this process's own
 * folder is: a Windows path (`C:\Users\…`, or `/mnt/c/Users/…` under WSL) in Windows form with a
 * lower-case drive letter, any other in POSIX form; no trailing separator. Nothing is resolved against
 * the current folder: a cwd that is not absolute names a project, not a folder (Claude Desktop's).
 */
export function normalizeCwd(raw: string): string {
  const cwd = withoutVerbatim(raw);
  const wsl = WSL_MOUNT.exec(cwd);
  if (wsl) return windowsForm(`${wsl[1]}:\\${cwd.slice(wsl[0].length)}`);
  if (WINDOWS_DRIVE.test(cwd) || UNC.test(cwd)) return windowsForm(cwd);
  const out = posix.normalize(cwd);
  return out.length > 1 ? out.replace(/\/+$/, '') || out : out;
}

/** The drive letter as the agent wrote it (`C` of `C:\…`, `c` of WSL's `/mnt/c/…`); undefined when the cwd names none. */
function writtenDrive(raw: string): string | undefined {
  const cwd = withoutVerbatim(raw);
  return WSL_MOUNT.exec(cwd)?.[1] ?? (WINDOWS_DRIVE.test(cwd) ? cwd[0] : undefined);
}

/**
 * The folder as people are shown it: normalizeCwd's form (the key's, so every spelling of a folder is
 * shown alike), but with the drive letter the agent wrote, `C:\Users\…` as Windows writes it; the key
 * alone lower-cases it. Never compared: comparableFolder is.
 */
export function displayFolder(raw: string): string {
  const folder = normalizeCwd(raw);
  const drive = writtenDrive(raw);
  return drive === undefined ? folder : `${drive}${folder.slice(1)}`;
}

/** Whether a normalized cwd is in Windows form (a drive or UNC path), whatever system this process runs on. */
export function isWindowsForm(folder: string): boolean {
  return WINDOWS_DRIVE.test(folder) || UNC.test(folder);
}

/**
 * Whether a folder names one place on its own, on this system or written on Windows (a drive or a
 * share, whatever system reads it): a relative one would be read from wherever this process started.
 */
export function isAbsoluteFolder(folder: string): boolean {
  return isAbsolute(folder) || isWindowsForm(normalizeCwd(folder));
}

/**
 * Upper-cases each character alone, as NTFS's upcase table compares names: never a full case mapping
 * (`ß` stays `ß`), so a folder's length, and which folder is deeper, is kept.
 */
function foldWindowsCase(path: string): string {
  return Array.from(path, (ch) => {
    const upper = ch.toUpperCase();
    return upper.length === ch.length ? upper : ch;
  }).join('');
}

/**
 * A WSL distro's folder as Windows names it (`\\wsl.localhost\<distro>\…`, `\\wsl$\<distro>\…`, either
 * separator, or verbatim `\\?\UNC\wsl$\…`): Claude Desktop on Windows records a WSL folder so, where an
 * agent inside WSL records the `/…` inside it and never the distro's name.
 */
const WSL_SHARE = /^(?:[\\/]{2}\?[\\/]UNC[\\/]|[\\/]{2})wsl(?:\.localhost|\$)[\\/][^\\/]+(?=[\\/]|$)/i;

/** The POSIX folder a WSL share's path names inside its distro; undefined for any other path. */
function insideWslShare(cwd: string): string | undefined {
  const share = WSL_SHARE.exec(cwd);
  if (!share) return undefined;
  return posix.join('/', cwd.slice(share[0].length).replaceAll('\\', '/'));
}

/**
 * The form two cwds are compared in: normalizeCwd's, with a Windows path's case folded, since Windows
 * names are case-insensitive (`C:\Users\Ana\App` is `c:\users\ana\app`), and a WSL share's path
 * the POSIX folder inside the distro (whose names keep their case). For comparing only: what is stored
 * and shown keeps the spelling it was first written in, and keys are still normalizeCwd's.
 */
export function comparableFolder(cwd: string): string {
  const inside = insideWslShare(cwd);
  const folder = normalizeCwd(inside ?? cwd);
  return isWindowsForm(folder) ? foldWindowsCase(folder) : folder;
}

/**
 * sha256 (hex) of the folder's comparable form: what a forgotten project's record keeps of its folder,
 * so every spelling of it stays out once its row (the one a later spelling joins) is gone, without
 * the record holding the path.
 */
export function folderHashOf(cwd: string): string {
  return createHash('sha256').update(comparableFolder(cwd)).digest('hex');
}

/** Where this process can look at the folder a cwd names, if anywhere (a Windows folder from WSL: /mnt/<drive>). */
function localFolder(cwd: string): string | null {
  const key = normalizeCwd(cwd);
  if (process.platform === 'win32') return isWindowsForm(key) ? key : null;
  if (key.startsWith('/')) return key;
  const drive = /^([a-z]):\\(.*)$/.exec(key);
  return drive ? posix.join('/mnt', drive[1]!, drive[2]!.replaceAll('\\', '/')) : null;
}

function baseName(key: string): string {
  return isWindowsForm(key) ? win32.basename(key) : posix.basename(key);
}

function cwdHash(cwd: string): string {
  return createHash('sha256').update(normalizeCwd(cwd)).digest('hex');
}

/** Keys already derived: a pure function of the text, asked for each session of every batch a run writes. */
const knownKeys = new Map<string, string>();
const KNOWN_KEYS = 1024;

/** `p_` + the first 16 hex digits of sha256(normalized cwd). */
export function projectKeyOf(cwd: string): string {
  let key = knownKeys.get(cwd);
  if (key === undefined) {
    if (knownKeys.size >= KNOWN_KEYS) knownKeys.clear();
    knownKeys.set(cwd, (key = `p_${cwdHash(cwd).slice(0, 16)}`));
  }
  return key;
}

export function projectNameOf(cwd: string): string {
  return baseName(normalizeCwd(cwd)) || normalizeCwd(cwd);
}

/** `<basename>-<first 8 hex of the key>`: a folder name that stays unique when basenames repeat. */
export function projectSlugOf(cwd: string): string {
  const base = projectNameOf(cwd).replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+|-+$/g, '').slice(0, 60) || 'project';
  return `${base}-${cwdHash(cwd).slice(0, 8)}`;
}

export interface RepoInfo {
  repoBacked: boolean;
  repoId: string | null;
}

/** `git@github.com:o/r.git`, `https://user:tok@github.com/o/r`, `ssh://git@host:22/o/r.git` → `github.com/o/r`. */
export function canonicalRepoId(url: string): string {
  let rest = url.trim();
  const scp = /^(?:[^@/]+@)?([^:/]+):(?!\/)(.+)$/.exec(rest);
  if (scp && !/^[a-z]+:\/\//i.test(rest)) rest = `${scp[1]}/${scp[2]}`;
  else {
    try {
      const parsed = new URL(rest);
      if (parsed.protocol === 'file:') return `file:${decodeURIComponent(parsed.pathname).replace(/\.git$/, '')}`;
      rest = `${parsed.hostname}${parsed.pathname}`;
    } catch {
      return rest.replace(/\.git$/, '').replace(/\/+$/, '');
    }
  }
  const [host = '', ...path] = rest.split('/');
  return [host.toLowerCase(), ...path.filter(Boolean)].join('/').replace(/\.git$/, '');
}

function originUrl(config: string): string | null {
  let inOrigin = false;
  for (const raw of config.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('[')) inOrigin = /^\[remote\s+"origin"\]$/.test(line);
    else if (inOrigin) {
      const match = /^url\s*=\s*(.+)$/.exec(line);
      if (match) return match[1]!.trim();
    }
  }
  return null;
}

/** What of a git file (HEAD, config, commondir, a `gitdir:` pointer) is read: they are a few hundred bytes. */
const GIT_FILE_CAP = 256 * 1024;
/** Opening a FIFO for reading waits for a writer unless non-blocking; a regular file reads as ever. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * A small git file, or null. The open handle must be a regular file and at most GIT_FILE_CAP bytes are
 * read: the path comes from a transcript's cwd or a `gitdir:` pointer, and a FIFO there would hold the
 * event loop for good, a link to /dev/zero read until memory ran out (as transcripts' readSmallFile).
 */
function readSmall(path: string): string | null {
  let fd: number | undefined;
  try {
    fd = openSync(path, OPEN_FLAGS);
    if (!fstatSync(fd).isFile()) return null;
    const buffer = Buffer.allocUnsafe(GIT_FILE_CAP);
    let filled = 0;
    for (let n = -1; n !== 0 && filled < GIT_FILE_CAP; filled += n) n = readSync(fd, buffer, filled, GIT_FILE_CAP - filled, filled);
    return buffer.toString('utf8', 0, filled);
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Whether `cwd` lies inside a git work tree, and its canonical id from `origin`. Reads `.git`
 * directly (a folder, or a `gitdir:` file for worktrees and submodules, whose `commondir` leads to
 * the shared config) instead of spawning git for every project.
 */
export function detectRepo(cwd: string): RepoInfo {
  const start = localFolder(cwd);
  if (start === null) return { repoBacked: false, repoId: null };
  let dir = start;
  for (;;) {
    const dotGit = join(dir, '.git');
    let kind: 'dir' | 'file' | null;
    try {
      const info = statSync(dotGit);
      kind = info.isDirectory() ? 'dir' : info.isFile() ? 'file' : null;
    } catch {
      kind = null;
    }
    if (kind) {
      let gitDir = dotGit;
      if (kind === 'file') {
        const pointer = /^gitdir:\s*(.+)$/m.exec(readSmall(dotGit) ?? '');
        if (!pointer) return { repoBacked: false, repoId: null };
        gitDir = resolve(dir, pointer[1]!.trim());
      }
      const common = readSmall(join(gitDir, 'commondir'));
      const commonDir = common ? resolve(gitDir, common.trim()) : gitDir;
      if (readSmall(join(gitDir, 'HEAD')) === null) return { repoBacked: false, repoId: null };
      const url = originUrl(readSmall(join(commonDir, 'config')) ?? '');
      return { repoBacked: true, repoId: url ? canonicalRepoId(url) : null };
    }
    const parent = dirname(dir);
    if (parent === dir) return { repoBacked: false, repoId: null };
    dir = parent;
  }
}
