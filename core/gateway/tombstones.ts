import { PROJECT_KEY_SHAPE, subagentParentOf, type ForgetKind, type Tombstone } from '../api/index.js';
import type { Db } from '../store/index.js';
import { KnownFolders } from '../transcripts/index.js';

interface TombstoneRow {
  kind: ForgetKind;
  id: string;
  label: string | null;
  created_at: number;
}

/** A Gemini CLI hash folder's name: the sha256 of the folder it ran in, whole. */
const HASH_FOLDER = /^[0-9a-f]{64}$/;
/** A project key's hash digits: `p_` and the first 16 of the sha256 of its folder (projectKeyOf). */
const KEY_DIGITS = 16;

const toTombstone = (r: TombstoneRow): Tombstone => ({ kind: r.kind, id: r.id, label: r.label, createdAt: r.created_at });

/**
 * Bumped, per database file, by every add or removal through any Tombstones over it (the owner's
 * history, capture and sweeper each hold one): each one's folder answers are read again then (see projectOfFolder).
 */
const changes = new Map<string, number>();

/**
 * What was forgotten: a session id or a project key that capture must not import again while its
 * transcripts still exist on disk. Lifting one lets the next check (files inside its window) or backfill bring it back.
 */
export class Tombstones {
  readonly #add;
  readonly #remove;
  readonly #list;
  readonly #has;
  readonly #relabel;
  readonly #find;
  readonly #keep;
  readonly #keptBy;
  readonly #dropKept;
  readonly #keptOf;
  readonly #everKept;
  readonly #folders;
  readonly #folderOf;
  readonly #ofFolder;
  readonly #keepHashFolders;
  readonly #dropHashFolders;
  readonly #hashFolders;
  readonly #projectKeys;
  readonly #cwdsOf;
  readonly #file: string;
  /** The forgotten projects' folder hashes, each the first record's, as of `changes` = `seen`. */
  #byFolder: { seen: number; ids: Map<string, string> } | undefined;
  /**
   * The Gemini hash folders forgotten projects' records keep, each the first record's, and the hash
   * digits of their keys (see projectOfHashFolder), as of `changes` = `seen`.
   */
  #byHashFolder: { seen: number; ids: Map<string, string>; keyDigits: Set<string> } | undefined;

  constructor(db: Db) {
    this.#file = db.name;
    this.#add = db.prepare(
      `INSERT INTO history_tombstones (kind, id, label, created_at, folder_hash) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT(kind, id) DO UPDATE SET label = COALESCE(excluded.label, label), folder_hash = COALESCE(excluded.folder_hash, folder_hash)`,
    );
    this.#remove = db.prepare('DELETE FROM history_tombstones WHERE kind = ? AND id = ?');
    this.#list = db.prepare('SELECT kind, id, label, created_at FROM history_tombstones ORDER BY created_at DESC, kind, id');
    this.#has = db.prepare('SELECT 1 FROM history_tombstones WHERE kind = ? AND id = ?').pluck();
    this.#relabel = db.prepare('UPDATE history_tombstones SET label = ? WHERE kind = ? AND id = ?');
    this.#find = db.prepare('SELECT kind, id, label, created_at FROM history_tombstones WHERE kind = ? AND id = ?');
    this.#keep = db.prepare('INSERT OR IGNORE INTO history_tombstone_kept (session_id, kind, id) SELECT value, ?, ? FROM json_each(?)');
    // Through the tombstone itself: a kept id counts only while its record is still there.
    this.#keptBy = db.prepare(
      `SELECT t.kind, t.id, t.label, t.created_at FROM history_tombstone_kept k JOIN history_tombstones t ON t.kind = k.kind AND t.id = k.id
        WHERE k.session_id = ? ORDER BY t.created_at, t.kind DESC, t.id LIMIT 1`,
    );
    this.#dropKept = db.prepare('DELETE FROM history_tombstone_kept WHERE kind = ? AND id = ?');
    this.#keptOf = db.prepare('SELECT session_id FROM history_tombstone_kept WHERE kind = ? AND id = ?').pluck();
    this.#everKept = db.prepare('SELECT 1 FROM history_tombstone_kept WHERE session_id = ? LIMIT 1').pluck();
    this.#folders = db.prepare("SELECT folder_hash AS hash, id FROM history_tombstones WHERE folder_hash IS NOT NULL AND kind = 'project' ORDER BY created_at, id");
    this.#ofFolder = db.prepare("SELECT id FROM history_tombstones WHERE folder_hash = ? AND kind = 'project' ORDER BY created_at, id").pluck();
    this.#folderOf = db.prepare("SELECT folder_hash FROM history_tombstones WHERE kind = 'project' AND id = ?").pluck();
    this.#keepHashFolders = db.prepare('INSERT OR IGNORE INTO history_tombstone_gemini (kind, id, hash_folder) SELECT ?, ?, value FROM json_each(?)');
    this.#dropHashFolders = db.prepare('DELETE FROM history_tombstone_gemini WHERE kind = ? AND id = ?');
    // Through the record itself, as kept ids are: a hash folder counts only while its record is there.
    this.#hashFolders = db.prepare(
      "SELECT g.hash_folder AS hash, t.id FROM history_tombstone_gemini g JOIN history_tombstones t ON t.kind = g.kind AND t.id = g.id WHERE t.kind = 'project' ORDER BY t.created_at, t.id",
    );
    this.#projectKeys = db.prepare("SELECT id FROM history_tombstones WHERE kind = 'project'").pluck();
    this.#cwdsOf = db.prepare('SELECT DISTINCT cwd FROM sessions WHERE session_id IN (SELECT value FROM json_each(?)) AND cwd IS NOT NULL').pluck();
  }

  /**
   * `folderHash`: a project's folder, hashed (folderHashOf), so its record keeps out every spelling of
   * it (see projectOfFolder); a record that has one keeps it when added again without.
   */
  add(kind: ForgetKind, id: string, label: string | null, { now = Date.now(), folderHash = null }: { now?: number; folderHash?: string | null } = {}): void {
    this.#add.run(kind, id, label, now, folderHash);
    this.#changed();
  }

  /** Replaces a label outright (`add` keeps the one before when it is given none). */
  relabel(kind: ForgetKind, id: string, label: string | null): void {
    this.#relabel.run(label, kind, id);
  }

  remove(kind: ForgetKind, id: string): boolean {
    this.#dropKept.run(kind, id);
    this.#dropHashFolders.run(kind, id);
    const removed = this.#remove.run(kind, id).changes > 0;
    this.#changed();
    return removed;
  }

  /** The folder hash a project's record keeps (folderHashOf), or null: none, or one made before records kept it. */
  folderHashKept(projectKey: string): string | null {
    return (this.#folderOf.get(projectKey) as string | null | undefined) ?? null;
  }

  /** Every forgotten project whose record keeps this folder hash, the first forgotten first (one per spelling, in a store from before one folder was one project). */
  projectsOfFolder(folderHash: string): string[] {
    return this.#ofFolder.all(folderHash) as string[];
  }

  /**
   * Keeps on a project's record the names of the Gemini hash folders of `folders` (KnownFolders.hashFoldersOf:
   * sha256 of each spelling, never a path): once the forget erased the row that made the folder known,
   * a chat in one of them is known by nothing else (see projectOfHashFolder).
   */
  keepHashFolders(projectKey: string, folders: readonly string[]): void {
    this.keepHashFolderNames(projectKey, folders.flatMap((folder) => KnownFolders.hashFoldersOf(folder)));
  }

  /**
   * The same, given the hash folders' names themselves (64 hex digits): a project no row names,
   * forgotten by a folder the caller hashed (the CLI's `--not-stored`), whose path the owner never sees.
   */
  keepHashFolderNames(projectKey: string, hashFolders: readonly string[]): void {
    const hashes = [...new Set(hashFolders)];
    if (hashes.length === 0) return;
    this.#keepHashFolders.run('project', projectKey, JSON.stringify(hashes));
    this.#changed();
  }

  /**
   * Keeps the hash folders (keepHashFolders) of the folders these conversations were recorded in, before
   * their rows go: each spelling of the project's folder that capture met, which Gemini may have hashed.
   */
  keepHashFoldersOf(projectKey: string, sessionIds: readonly string[]): void {
    if (sessionIds.length > 0) this.keepHashFolders(projectKey, this.#cwdsOf.all(JSON.stringify(sessionIds)) as string[]);
  }

  /**
   * The forgotten project whose record keeps this Gemini hash folder's name (the full 64 digits), else
   * the one whose key is `p_` and its first 16 digits: a key is those digits of the sha256 of its
   * folder (projectKeyOf), the sha256 Gemini names the folder's hash folder by, so a record made before
   * records kept hash folders (migration 24 could give it none) still keeps that folder's chats out.
   * Every key is made so; one of a project that is no folder (Claude Desktop's, "Gemini CLI", a
   * "folder unknown" one) hashes a name, never a full path, so no hash folder's digits are its own.
   */
  projectOfHashFolder(hashFolder: string): { kind: 'project'; id: string } | undefined {
    const { ids, keyDigits } = this.#hashFoldersForgotten();
    const digits = HASH_FOLDER.test(hashFolder) ? hashFolder.slice(0, KEY_DIGITS) : undefined;
    const id = ids.get(hashFolder) ?? (digits !== undefined && keyDigits.has(digits) ? `p_${digits}` : undefined);
    return id === undefined ? undefined : { kind: 'project', id };
  }

  /** Held in memory until a record is added or removed, as #foldersForgotten is: asked for each Gemini chat capture reads. */
  #hashFoldersForgotten(): { ids: Map<string, string>; keyDigits: Set<string> } {
    const seen = changes.get(this.#file) ?? 0;
    if (this.#byHashFolder?.seen !== seen) {
      const keys = (this.#projectKeys.all() as string[]).filter((key) => PROJECT_KEY_SHAPE.test(key));
      this.#byHashFolder = { seen, ids: firstOfEach(this.#hashFolders.all() as Array<{ hash: string; id: string }>), keyDigits: new Set(keys.map((key) => key.slice(2))) };
    }
    return this.#byHashFolder;
  }

  #changed(): void {
    changes.set(this.#file, (changes.get(this.#file) ?? 0) + 1);
  }

  /** The one tombstone of this kind and id, if any. */
  find(kind: ForgetKind, id: string): Tombstone | undefined {
    const row = this.#find.get(kind, id) as TombstoneRow | undefined;
    return row && toTombstone(row);
  }

  /**
   * Keeps, on a record, the ids of the conversations erased with it (ids only): a forgotten
   * conversation's subagents, a forgotten project's conversations and theirs. A conversation forgotten
   * on its own is kept on its project's record ahead of one (it counts only once that record is there),
   * as that project's forget later finds nothing of it to erase.
   */
  keep(kind: ForgetKind, id: string, sessionIds: readonly string[]): void {
    if (sessionIds.length > 0) this.#keep.run(kind, id, JSON.stringify(sessionIds));
  }

  /** The record that kept this conversation's id (the first forgotten, should two; a conversation's before its project's). */
  keptBy(sessionId: string): Tombstone | undefined {
    const row = this.#keptBy.get(sessionId) as TombstoneRow | undefined;
    return row && toTombstone(row);
  }

  /** The conversation ids a record keeps (see `keep`): what it erased, whose files a lift has read again. */
  keptOf(kind: ForgetKind, id: string): string[] {
    return this.#keptOf.all(kind, id) as string[];
  }

  /**
   * Whether some record kept this conversation's id, its record there or not: a forget that erased it
   * keeps it on its project's (see `keep`), one of an id never stored keeps it nowhere.
   */
  everKept(sessionId: string): boolean {
    return this.#everKept.get(sessionId) !== undefined;
  }

  list(): Tombstone[] {
    return (this.#list.all() as TombstoneRow[]).map(toTombstone);
  }

  has(kind: ForgetKind, id: string): boolean {
    return this.#has.get(kind, id) !== undefined;
  }

  /**
   * The record that forgets a session: its own, that of the conversation it is a subagent of (by row or
   * by id), else its project's. A branch is a conversation of its own: forgetting the one it branched
   * from keeps it.
   */
  coverOf(session: { sessionId: string; parentSessionId: string | null; parentKind?: string | null }, projectKey: string | null): { kind: ForgetKind; id: string } | undefined {
    if (this.has('session', session.sessionId)) return { kind: 'session', id: session.sessionId };
    const parent = (session.parentKind === 'branch' ? null : session.parentSessionId) ?? subagentParentOf(session.sessionId);
    if (parent !== null && this.has('session', parent)) return { kind: 'session', id: parent };
    return projectKey !== null && this.has('project', projectKey) ? { kind: 'project', id: projectKey } : undefined;
  }

  /**
   * The forgotten project whose folder hashes to this (folderHashOf of any spelling of it): a later
   * spelling's own key is not its record's, and the row it was joined through went with the forget.
   */
  projectOfFolder(folderHash: string): { kind: 'project'; id: string } | undefined {
    const id = this.#foldersForgotten().get(folderHash);
    return id === undefined ? undefined : { kind: 'project', id };
  }

  /**
   * Held in memory until a record is added or removed: capture asks for every session it admits, and
   * records are few. The owner writes them only through a Tombstones (another process asks the owner).
   */
  #foldersForgotten(): Map<string, string> {
    const seen = changes.get(this.#file) ?? 0;
    if (this.#byFolder?.seen !== seen) this.#byFolder = { seen, ids: firstOfEach(this.#folders.all() as Array<{ hash: string; id: string }>) };
    return this.#byFolder.ids;
  }
}

/** Each hash's first record, the rows coming the first forgotten first. */
function firstOfEach(rows: ReadonlyArray<{ hash: string; id: string }>): Map<string, string> {
  const ids = new Map<string, string>();
  for (const { hash, id } of rows) if (!ids.has(hash)) ids.set(hash, id);
  return ids;
}
