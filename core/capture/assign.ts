import type { ProjectKeys } from '../gateway/index.js';
import { comparableFolder } from '../projects/index.js';
import { GEMINI_PROJECT, KnownFolders, unknownFolderPrefix, type FolderList } from '../transcripts/index.js';

/** Answers FolderAliases keeps between changes of the projects table: one per cwd a batch names. */
const ALIASES_CACHED = 4096;

/**
 * The projects' folders by the form they are compared in (comparableFolder): one folder spelled two
 * ways (a Windows folder in another case, a WSL folder through Windows' `\\wsl$\<distro>` share) is
 * one project, the one its first spelling made. Keys stay the documented hash of the normalized cwd,
 * so a later spelling joins by being given the stored folder, never by a key of its own. Listed again
 * only when the number of projects changed, as KnownFolders is; asked for every session of a batch,
 * so each cwd's answer is kept until then.
 */
class FolderAliases {
  readonly #list: FolderList;
  readonly #keyOf: (cwd: string) => string;
  #count = -1;
  /** Each comparable form's first folder as listed (ProjectStore.folders lists the oldest first). */
  #first = new Map<string, string>();
  readonly #comparable = new Map<string, string>();
  readonly #answers = new Map<string, string>();
  /** Later spellings met in this process, each given a project's folder: Gemini CLI may have hashed one (see spellings). */
  readonly #spelled = new Set<string>();

  constructor(list: FolderList, keyOf: (cwd: string) => string) {
    this.#list = list;
    this.#keyOf = keyOf;
  }

  /**
   * The stored folder of the oldest project `cwd` is another spelling of; else `cwd` as it came. An
   * answer stays true as projects are added, a new one never being older than the one it named, so
   * only a cwd not yet answered asks whether the projects changed (capture asks this several times
   * for every session of every batch). A cwd answered as itself before any project of its folder
   * existed, and not given one, may meet one later: its own project then moves there (newlyKnown).
   */
  folderOf(cwd: string): string {
    const answered = this.#answers.get(cwd);
    if (answered !== undefined) return answered;
    const count = this.#list.count();
    if (count !== this.#count) this.#index(count);
    const first = this.#first.get(comparableFolder(cwd));
    const folder = first !== undefined && this.#keyOf(first) !== this.#keyOf(cwd) ? first : cwd;
    if (this.#answers.size >= ALIASES_CACHED) this.#answers.clear();
    this.#answers.set(cwd, folder);
    if (folder !== cwd && this.#spelled.size < ALIASES_CACHED) this.#spelled.add(cwd);
    return folder;
  }

  /**
   * The later spellings met, which no project row holds: a Gemini CLI hash folder may be the hash of
   * one, so KnownFolders hashes them beside the projects' folders (and the answer is then aliased).
   */
  spellings(): readonly string[] {
    return [...this.#spelled];
  }

  /** How many spellings() lists: part of KnownFolders' sign to list again. */
  get spelledCount(): number {
    return this.#spelled.size;
  }

  #index(count: number): void {
    this.#count = count;
    this.#answers.clear();
    const first = new Map<string, string>();
    for (const folder of this.#list.folders()) {
      // A "folder unknown" project is a name, never another spelling of a folder.
      if (unknownFolderPrefix(folder) !== undefined) continue;
      let comparable = this.#comparable.get(folder);
      if (comparable === undefined) this.#comparable.set(folder, (comparable = comparableFolder(folder)));
      if (!first.has(comparable)) first.set(comparable, folder);
    }
    this.#first = first;
  }
}

/**
 * Where capture assigns a session's project: the projects room, with a Gemini chat known only by its
 * hash folder given the folder another agent made known (KnownFolders), and a folder spelled otherwise
 * than a project's given that project's folder (FolderAliases). Resolved here, on the owner, because
 * the owner holds the projects table and the parsers run off its thread knowing one agent's files
 * alone; and a forget, an exclusion and the project row all ask the same resolved folder.
 */
export class ProjectAssignment {
  readonly keys: ProjectKeys;
  readonly #projects: ProjectKeys;
  readonly #list: FolderList | undefined;
  readonly #known: KnownFolders | undefined;
  readonly #aliases: FolderAliases | undefined;
  /** The project count newlyKnown last looked at: a folder becomes known, or spelled twice, only with a new project. */
  #lookedAt = -1;
  /** Unknown hash folders whose chats were given back to a read for the folder they turned out to be. */
  readonly #reread = new Set<string>();
  /** Projects of a later spelling whose sessions were named to move to the earliest spelling's project. */
  readonly #merged = new Set<string>();

  constructor(projects: ProjectKeys & Partial<FolderList>) {
    this.#projects = projects;
    const { folders, count } = projects;
    this.#list = folders && count ? { folders: () => folders.call(projects), count: () => count.call(projects) } : undefined;
    const aliases = this.#list ? new FolderAliases(this.#list, (cwd) => projects.keyOf(cwd)) : undefined;
    this.#aliases = aliases;
    // A Gemini hash folder may be the hash of a spelling only another agent's session met (no row holds it).
    this.#known = this.#list && aliases ? new KnownFolders({ folders: () => [...this.#list!.folders(), ...aliases.spellings()], count: () => this.#list!.count() + aliases.spelledCount }) : undefined;
    this.keys = {
      touch: (cwd, now) => projects.touch(this.folderOf(cwd), now),
      keyOf: (cwd) => projects.keyOf(this.folderOf(cwd)),
      vacated: (projectKey) => projects.vacated(projectKey),
    };
  }

  /**
   * Keys a forget made under an earlier assignment still covers, until Unforget lifts it: until Gemini
   * parser 6 every chat of an unknown hash folder was in the one "Gemini CLI" project, so forgetting
   * that project forgot them all, including the chats of folders known since; a hash folder's own
   * "folder unknown" project, forgotten before another agent made its folder known, still forgets that
   * folder's chats once they are assigned to the known folder's project; and a later spelling's own
   * project, forgotten, still forgets that spelling's sessions now assigned to the earliest's.
   */
  formerKeysOf(cwd: string): string[] {
    const moved = this.folderOf(cwd) !== cwd;
    const former = unknownFolderPrefix(cwd) === undefined ? [] : [this.#projects.keyOf(GEMINI_PROJECT)];
    if (moved) former.push(this.#projects.keyOf(cwd));
    return former;
  }

  /**
   * The folder a session's project is: a known one for an unknown Gemini hash folder's, the oldest
   * project's for another spelling of its folder, else the same.
   */
  folderOf(cwd: string): string {
    // A known folder is itself another spelling's, maybe: the earliest project's folder either way.
    const folder = this.#known?.folderOf(cwd) ?? cwd;
    return this.#aliases?.folderOf(folder) ?? folder;
  }

  /**
   * The projects whose stored sessions belong to another project now, each once a process: an unknown
   * Gemini folder's once its folder is known, a later spelling's once an earlier one is a project.
   * Their sessions move there, re-keyed through the sink (which vacates the project they leave and
   * moves their search tags). Asked after each provider's run; lists projects only when their number
   * changed.
   */
  newlyKnown(): Set<string> {
    const found = new Set<string>();
    if (!this.#list) return found;
    const count = this.#list.count();
    if (count === this.#lookedAt) return found;
    this.#lookedAt = count;
    for (const cwd of this.#list.folders()) {
      if (this.folderOf(cwd) === cwd) continue;
      const prefix = unknownFolderPrefix(cwd);
      const seen = prefix === undefined ? this.#merged : this.#reread;
      if (seen.has(prefix ?? cwd)) continue;
      seen.add(prefix ?? cwd);
      found.add(cwd);
    }
    return found;
  }
}
