import type { ProjectKeys } from '../gateway/index.js';
import { GEMINI_PROJECT, KnownFolders, unknownFolderPrefix, type FolderList } from '../transcripts/index.js';

/**
 * Where capture assigns a session's project: the projects room, with a Gemini chat known only by its
 * hash folder given the folder another agent made known (KnownFolders). Resolved here, on the owner,
 * because the owner holds the projects table and the parsers run off its thread knowing Gemini's
 * files alone; and a forget, an exclusion and the project row all ask the same resolved folder.
 */
export class ProjectAssignment {
  readonly keys: ProjectKeys;
  readonly #projects: ProjectKeys;
  readonly #list: FolderList | undefined;
  readonly #known: KnownFolders | undefined;
  /** The project count newlyKnown last looked at: a hash folder becomes known only with a new project. */
  #lookedAt = -1;
  /** Unknown hash folders whose chats were given back to a read for the folder they turned out to be. */
  readonly #reread = new Set<string>();

  constructor(projects: ProjectKeys & Partial<FolderList>) {
    this.#projects = projects;
    const { folders, count } = projects;
    this.#list = folders && count ? { folders: () => folders.call(projects), count: () => count.call(projects) } : undefined;
    this.#known = this.#list ? new KnownFolders(this.#list) : undefined;
    this.keys = {
      touch: (cwd, lastActivityAt, now) => projects.touch(this.folderOf(cwd), lastActivityAt, now),
      keyOf: (cwd) => projects.keyOf(this.folderOf(cwd)),
      vacated: (projectKey) => projects.vacated(projectKey),
    };
  }

  /**
   * Keys a forget made under an earlier assignment still covers, until Unforget lifts it: until Gemini
   * parser 6 every chat of an unknown hash folder was in the one "Gemini CLI" project, so forgetting
   * that project forgot them all, including the chats of folders known since; and a hash folder's own
   * "folder unknown" project, forgotten before another agent made its folder known, still forgets that
   * folder's chats once they are assigned to the known folder's project.
   */
  formerKeysOf(cwd: string): string[] {
    if (unknownFolderPrefix(cwd) === undefined) return [];
    const former = [this.#projects.keyOf(GEMINI_PROJECT)];
    if (this.folderOf(cwd) !== cwd) former.push(this.#projects.keyOf(cwd));
    return former;
  }

  /** The folder a session's project is: a known one for an unknown Gemini hash folder's, else the same. */
  folderOf(cwd: string): string {
    return this.#known?.folderOf(cwd) ?? cwd;
  }

  /**
   * The hash prefixes of unknown Gemini folders whose folder is known now, each once a process:
   * their stored chats move there, re-keyed through the sink (which vacates the project they leave
   * and moves their search tags). Asked after each provider's run; lists projects only when their
   * number changed.
   */
  newlyKnown(): Set<string> {
    const found = new Set<string>();
    if (!this.#list) return found;
    const count = this.#list.count();
    if (count === this.#lookedAt) return found;
    this.#lookedAt = count;
    for (const cwd of this.#list.folders()) {
      const prefix = unknownFolderPrefix(cwd);
      if (prefix === undefined || this.#reread.has(prefix) || this.folderOf(cwd) === cwd) continue;
      this.#reread.add(prefix);
      found.add(prefix);
    }
    return found;
  }
}
