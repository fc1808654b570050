import type { ProjectSummary } from '../api/index.js';
import type { GatewayReader, SessionHead } from '../gateway/index.js';
import { migrateRoom, type Db } from '../store/index.js';
import { detectRepo, displayFolder, normalizeCwd, projectKeyOf, projectNameOf, projectSlugOf } from './derive.js';
import { PROJECTS_MIGRATIONS } from './schema.js';

/** The latest conversation's labels as stored, for a caller that redacts them before it names it. */
export interface LatestLabels {
  sessionId: string;
  title: string | null;
  firstRequest: string | null;
}

/**
 * A project as the contract shows it, plus the folder name of its notes under STEWARD_HOME and what its
 * latest conversation's name was made of (`latestSession.name` is its title, else its first request).
 */
export type ProjectRecord = ProjectSummary & { slug: string; latestLabels: LatestLabels | null };

interface ProjectRow {
  project_key: string;
  name: string;
  cwd: string;
  slug: string;
  repo_id: string | null;
  repo_backed: number;
}

const SELECT = 'SELECT project_key, name, cwd, slug, repo_id, repo_backed FROM projects';

function latest(head: SessionHead | undefined): ProjectRecord['latestSession'] {
  return head ? { sessionId: head.sessionId, name: head.title ?? head.firstRequest, lastAt: head.lastTs } : null;
}

/**
 * A project's last activity is its newest stored conversation's. The row's `last_activity_at` is no
 * longer written (NULL; rows of earlier versions keep theirs, never read): it only ever rose as
 * sessions were committed, so once that conversation was forgotten or pruned it still held its time:
 * lists sorted by it, and the sweeper dated notes by it (its activity gate, the overview's "up to", a
 * changelog day on which nothing that is left happened).
 */
function toRecord(row: ProjectRow, sessions: number, head: SessionHead | undefined): ProjectRecord {
  return {
    projectKey: row.project_key,
    name: row.name,
    cwd: row.cwd,
    slug: row.slug,
    repoId: row.repo_id,
    repoBacked: row.repo_backed === 1,
    lastActivityAt: head?.lastTs ?? null,
    sessions,
    latestSession: latest(head),
    latestLabels: head ? { sessionId: head.sessionId, title: head.title, firstRequest: head.firstRequest } : null,
  };
}

const REDETECT_REPO_MS = 60 * 60_000;

export interface ProjectStoreOptions {
  /**
   * Whether a project's folder under STEWARD_HOME exists (the sweeper's notes and its per-project
   * settings live there). Wired by the owner, which knows STEWARD_HOME; without it no folder is known.
   */
  hasFolder?: (slug: string) => boolean;
}

/** The projects table: one row per working directory, derived as sessions are committed. */
export class ProjectStore {
  readonly #sessions: GatewayReader;
  readonly #hasFolder: (slug: string) => boolean;
  readonly #exists;
  readonly #insert;
  readonly #showAsWritten;
  readonly #list;
  readonly #get;
  readonly #setRepo;
  readonly #remove;
  readonly #count;
  readonly #keys;
  readonly #folders;
  readonly #slug;
  readonly #name;
  readonly #describe;
  /** When this process last looked for each project's repository (a folder may become one later). */
  readonly #detectedAt = new Map<string, number>();

  constructor(db: Db, sessions: GatewayReader, options: ProjectStoreOptions = {}) {
    migrateRoom(db, 'projects', PROJECTS_MIGRATIONS);
    this.#sessions = sessions;
    this.#hasFolder = options.hasFolder ?? (() => false);
    this.#exists = db.prepare('SELECT 1 FROM projects WHERE project_key = ?').pluck();
    // last_activity_at stays NULL: a project's last activity is read from its conversations (see toRecord).
    this.#insert = db.prepare(
      'INSERT INTO projects (project_key, cwd, slug, name, repo_id, repo_backed, last_activity_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, NULL, ?)',
    );
    this.#showAsWritten = db.prepare('UPDATE projects SET cwd = ? WHERE project_key = ? AND cwd = ?');
    this.#list = db.prepare(`${SELECT} ORDER BY project_key`);
    this.#get = db.prepare(`${SELECT} WHERE project_key = ?`);
    this.#remove = db.prepare('DELETE FROM projects WHERE project_key = ?');
    this.#count = db.prepare('SELECT COUNT(*) FROM projects').pluck();
    this.#keys = db.prepare('SELECT project_key FROM projects').pluck();
    this.#folders = db.prepare('SELECT cwd FROM projects ORDER BY rowid').pluck();
    this.#slug = db.prepare('SELECT slug FROM projects WHERE project_key = ?').pluck();
    this.#name = db.prepare('SELECT name FROM projects WHERE project_key = ?').pluck();
    this.#describe = db.prepare('SELECT name, slug, cwd FROM projects WHERE project_key = ?');
    this.#setRepo = db.prepare('UPDATE projects SET repo_id = ?, repo_backed = ? WHERE project_key = ? AND (repo_id IS NOT ? OR repo_backed <> ?)');
  }

  /**
   * Records activity in a working directory: its row, made when the project is new. Its repository is
   * looked up then and again at most hourly while it is active: a folder can become a git work tree,
   * or gain an origin, and whether it is repo-backed decides what the sweeper may write. No time is
   * recorded: the project's last activity is its newest stored conversation's (see toRecord).
   */
  touch(cwd: string, now = Date.now()): string {
    const key = projectKeyOf(cwd);
    if (this.#exists.get(key) === undefined) {
      const repo = detectRepo(cwd);
      this.#insert.run(key, displayFolder(cwd), projectSlugOf(cwd), projectNameOf(cwd), repo.repoId, repo.repoBacked ? 1 : 0, now);
      this.#detectedAt.set(key, now);
      return key;
    }
    this.#keepDriveAsWritten(key, cwd);
    if (now - (this.#detectedAt.get(key) ?? Number.NEGATIVE_INFINITY) >= REDETECT_REPO_MS) {
      const repo = detectRepo(cwd);
      this.#setRepo.run(repo.repoId, repo.repoBacked ? 1 : 0, key, repo.repoId, repo.repoBacked ? 1 : 0);
      this.#detectedAt.set(key, now);
    }
    return key;
  }

  /**
   * A row an earlier version stored with the key's lower-case drive (`c:\Users\…`) shows the drive as
   * the agent writes it once a session spells the same folder so (`C:\Users\…`); any other shown
   * folder stays the first spelling's. Asked only of a cwd whose drive was written in upper case.
   */
  #keepDriveAsWritten(key: string, cwd: string): void {
    const shown = displayFolder(cwd);
    const keyForm = normalizeCwd(cwd);
    if (shown !== keyForm) this.#showAsWritten.run(shown, key, keyForm);
  }

  /** The key a working directory has (or would have) as a project. */
  keyOf(cwd: string): string {
    return projectKeyOf(cwd);
  }

  /** Drops a project's row (forgetting it); its key comes back only with newly captured sessions. */
  remove(projectKey: string): boolean {
    return this.#remove.run(projectKey).changes > 0;
  }

  /**
   * Sessions were moved out of this project: a newer parser put them under another folder (a Cowork
   * session under the folder the user selected, a Windows path under its new key). Capture made the
   * row for those sessions alone, so it goes once no session names it — unless its folder under
   * STEWARD_HOME exists, since notes and per-project settings there are the person's. Rows emptied
   * by retention or by forgetting sessions are never asked: they stay listed, as before.
   */
  vacated(projectKey: string): boolean {
    if (this.#sessions.holdsSessions(projectKey)) return false;
    const slug = this.#slug.get(projectKey) as string | undefined;
    if (slug === undefined || this.#hasFolder(slug)) return false;
    return this.remove(projectKey);
  }

  /**
   * Most recently active first, each with its number of conversations and its latest: asked per
   * project, each an index range of its own. Asked of every session at once (a window over all of
   * them) it held the event loop 358–406 ms with 150k sessions in one project.
   *
   * A project holding no conversation (all forgotten or past the retention window, or only subagents
   * seen in its folder) has no last activity (see toRecord): such projects come after every project
   * that holds one.
   */
  list(): ProjectRecord[] {
    const records = (this.#list.all() as ProjectRow[]).map((row) => this.#record(row));
    return records.sort((a, b) => (b.lastActivityAt ?? -1) - (a.lastActivityAt ?? -1));
  }

  /** Every project row, those whose conversations are all gone included. */
  count(): number {
    return this.#count.get() as number;
  }

  /**
   * Every project's folder (or name, for a project that is no folder), oldest first: where capture
   * matches a folder known only by its hash, and finds the first spelling of a folder spelled twice.
   */
  folders(): string[] {
    return this.#folders.all() as string[];
  }

  /**
   * The projects that hold a conversation: what "from N projects" counts. A project whose
   * conversations are all forgotten or pruned stays listed (its notes are the person's), but holds nothing.
   */
  countHoldingConversations(): number {
    return (this.#keys.all() as string[]).filter((key) => this.#sessions.holdsConversations(key)).length;
  }

  /**
   * A project's name alone, for lists that name a project per row. `get` counts the project's
   * conversations too: at 30k sessions in one project that count took ~5 ms, per row of a page.
   */
  nameOf(projectKey: string): string | null {
    return (this.#name.get(projectKey) as string | undefined) ?? null;
  }

  /**
   * A project's name and notes folder alone, for forgetting it: `get` also counts its conversations and
   * reads its latest, which a forget needs neither of (the count read a table row each, 80 ms at 150k
   * sessions, until migration 12's index).
   */
  describe(projectKey: string): { name: string; slug: string; cwd: string } | null {
    return (this.#describe.get(projectKey) as { name: string; slug: string; cwd: string } | undefined) ?? null;
  }

  get(projectKey: string): ProjectRecord | undefined {
    const row = this.#get.get(projectKey) as ProjectRow | undefined;
    return row ? this.#record(row) : undefined;
  }

  /** A row with its number of conversations and its latest, each a range of the gateway's conversations index. */
  #record(row: ProjectRow): ProjectRecord {
    return toRecord(row, this.#sessions.conversationCount(row.project_key), this.#sessions.sessionsOfProject(row.project_key, 1)[0]);
  }
}
