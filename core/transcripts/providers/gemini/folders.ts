import { createHash } from 'node:crypto';

/**
 * Gemini CLI's old project folders (`tmp/<sha256 of the project path>/`) name their folder only by its
 * hash; a folder Gemini registered nowhere (no `projects.json` entry, no `.project_root`) is found
 * only by hashing the folders Steward already knows from other agents. The parser cannot do that: it
 * runs off the owner's thread and knows Gemini's files alone. So it gives such a chat a project of
 * its own hash folder, named by the hash's first eight digits, and the owner, which holds the
 * projects table, resolves that name to the known folder whose hash it is (see KnownFolders) when a
 * session's project is assigned. A folder that becomes known later takes the chats on their next read.
 */
const HASH = /^[0-9a-f]{64}$/;
const UNKNOWN = /^Gemini CLI project ([0-9a-f]{8}) \(folder unknown\)$/;

/** The first eight digits of a hash folder's name (its project's and KnownFolders' key); undefined for a named folder. */
export function hashPrefixOf(folderId: string): string | undefined {
  return HASH.test(folderId) ? folderId.slice(0, 8) : undefined;
}

/** The project of the chats in a Gemini folder whose project path no one recorded: one per folder. */
export function unknownFolderProject(folderId: string): string {
  return `Gemini CLI project ${hashPrefixOf(folderId) ?? folderId.slice(0, 60)} (folder unknown)`;
}

/** The hash digits an unknown hash folder's project name holds; undefined for any other project. */
export function unknownFolderPrefix(projectCwd: string): string | undefined {
  return UNKNOWN.exec(projectCwd)?.[1];
}

/** The spellings of a folder Gemini CLI may have hashed: as stored, and a Windows drive with its letter in either case (a project shows it as written). */
function spellings(folder: string): string[] {
  if (!/^[A-Za-z]:\\/.test(folder)) return [folder];
  const rest = folder.slice(1);
  return [...new Set([folder, folder[0]!.toUpperCase() + rest, folder[0]!.toLowerCase() + rest])];
}

/** Where the owner lists the folders it knows (the projects table's): their number says when to list again. */
export interface FolderList {
  folders(): readonly string[];
  count(): number;
}

/**
 * The known folders by the first eight digits of their sha256, hashed once each and listed again only
 * when the number of projects changed. A prefix two known folders share names neither: a chat is
 * never put in a folder that is only perhaps its own.
 */
export class KnownFolders {
  readonly #list: FolderList;
  #count = -1;
  readonly #hashed = new Map<string, string[]>();
  #byPrefix = new Map<string, string | null>();

  constructor(list: FolderList) {
    this.#list = list;
  }

  /**
   * The names Gemini CLI may have given a folder's hash folder: sha256 of each spelling it may have
   * hashed, whole. A forget keeps them (never the folder) to withhold the folder's chats once nothing
   * makes the folder known. A static, so the rooms above reach it through the one name exported already.
   */
  static hashFoldersOf(folder: string): string[] {
    return [...new Set(spellings(folder).map((s) => createHash('sha256').update(s).digest('hex')))];
  }

  /** The known folder an unknown hash folder's project is, when its hash is one's; else undefined. */
  folderOf(projectCwd: string): string | undefined {
    const prefix = unknownFolderPrefix(projectCwd);
    if (prefix === undefined) return undefined;
    const count = this.#list.count();
    if (count !== this.#count) this.#index(count);
    return this.#byPrefix.get(prefix) ?? undefined;
  }

  #index(count: number): void {
    this.#count = count;
    const byPrefix = new Map<string, string | null>();
    for (const folder of this.#list.folders()) {
      if (unknownFolderPrefix(folder) !== undefined) continue;
      let prefixes = this.#hashed.get(folder);
      if (!prefixes) this.#hashed.set(folder, (prefixes = KnownFolders.hashFoldersOf(folder).map((hash) => hash.slice(0, 8))));
      for (const prefix of new Set(prefixes)) byPrefix.set(prefix, byPrefix.has(prefix) && byPrefix.get(prefix) !== folder ? null : folder);
    }
    this.#byPrefix = byPrefix;
  }
}
