import { randomBytes } from 'node:crypto';
import { repoMatches, type EventName, type EventPayload, type SearchIndexingResult } from '../api/index.js';
import { Checkpointer, DiskScrub, HistoryReader, SearchIndex, SearchReader, SessionEraser, Tombstones, TranscriptFiles } from '../gateway/index.js';
import type { Logger } from '../log/index.js';
import type { ProjectStore } from '../projects/index.js';
import { createRedactor, secretValuesFromEnv } from '../secrets/index.js';
import type { Db } from '../store/index.js';
import { searchCursorKey } from './cursor-key.js';
import { SessionExporter } from './export.js';
import { Forgetting } from './forget.js';
import { IndexBackfill } from './indexer.js';
import { HistorySearch } from './search.js';
import { SessionsView } from './sessions.js';

export interface HistoryOptions {
  db: Db;
  projects: ProjectStore;
  env: NodeJS.ProcessEnv;
  /** STEWARD_HOME, where the key search and listing cursors are marked under is kept; left out, a key for this process alone. */
  home?: string;
  logger: Logger;
  emit: <E extends EventName>(name: E, payload: EventPayload<E>) => void;
  /** Removes a forgotten project's notes folder (the sweeper's files); true when there was one. */
  removeNotes: (projectKey: string, slug: string) => Promise<boolean>;
  /** Withholds and rebuilds a project's notes after one of its conversations was forgotten. */
  notesStale?: (projectKey: string, firstActiveAt: number | null) => Promise<void>;
}

/**
 * History: search over every captured conversation, reading and exporting them, and forgetting.
 * Everything it knows of sessions, parts, the index and tombstones it reads through the gateway.
 */
export class History {
  readonly search: HistorySearch;
  readonly sessions: SessionsView;
  readonly exporter: SessionExporter;
  readonly forgetting: Forgetting;
  readonly #backfill: IndexBackfill;
  readonly #checkpointer: Checkpointer;
  readonly #searchReader: SearchReader;
  readonly #index: SearchIndex;
  /** The walk under way, until it settles. */
  #walking: Promise<void> | undefined;

  constructor(o: HistoryOptions) {
    const index = new SearchIndex(o.db);
    this.#index = index;
    const reader = new HistoryReader(o.db);
    // Capture's WAL checkpoint thread and disk gate (one per connection): the walk and forgetting write through it.
    this.#checkpointer = Checkpointer.of(o.db, o.logger);
    // The name alone: `get` also counts the project's conversations, per row of every list.
    const names = { nameOf: (key: string) => o.projects.nameOf(key) };
    // Built per export or redacted read: secret-looking environment values are read when it runs.
    const redactor = () => createRedactor(secretValuesFromEnv(o.env));
    // One key for every cursor of this home, a search's and a listing's alike, read when a first cursor needs it.
    let key: Buffer | undefined;
    const home = o.home;
    const cursorKey = () => (key ??= home === undefined ? randomBytes(32) : searchCursorKey(home));
    this.sessions = new SessionsView(reader, names, redactor, cursorKey);
    const directory = { repoProjects: (repo: string) => o.projects.list().filter((p) => repoMatches(repo, [p.repoId])).map((p) => p.projectKey) };
    this.#searchReader = new SearchReader(o.db);
    this.search = new HistorySearch(this.#searchReader, index, this.sessions, reader, directory, redactor, cursorKey);
    this.exporter = new SessionExporter(this.sessions, redactor);
    this.forgetting = new Forgetting({
      tombstones: new Tombstones(o.db),
      eraser: new SessionEraser(o.db, index, this.#checkpointer),
      scrub: new DiskScrub(o.db, index, this.#checkpointer),
      sessions: this.sessions,
      projects: {
        describe: (key) => o.projects.describe(key),
        remove: (key) => o.projects.remove(key),
      },
      removeNotes: o.removeNotes,
      notesStale: o.notesStale,
      closeExports: (kind, id) => this.exporter.forgotten(kind, id),
      redactor,
      transcripts: new TranscriptFiles(o.db),
      emit: o.emit,
      logger: o.logger,
    });
    this.#backfill = new IndexBackfill({ index, checkpointer: this.#checkpointer, logger: o.logger, onProgress: (progress) => o.emit('search.indexing', progress) });
  }

  /** Indexes history stored before the index existed, in the background (an owner; a CLI after it imports). */
  startIndexing(): void {
    this.#backfill.start();
    const walk = this.#backfill.whenIdle();
    this.#walking = walk;
    void walk.finally(() => {
      if (this.#walking === walk) this.#walking = undefined;
    });
  }

  /** How far the index's walks have come (null: all is searchable), and whether one is under way here. */
  indexing(): SearchIndexingResult {
    const progress = this.#index.walkProgress();
    const { phase, indexedParts, totalParts } = progress;
    return { indexing: progress.complete ? null : { phase, indexedParts, totalParts }, walking: this.#walking !== undefined };
  }

  /** Settles once the walk has indexed and merged all it can (tests and benchmarks). */
  whenIndexed(): Promise<void> {
    return this.#backfill.whenIdle();
  }

  async stop(): Promise<void> {
    this.exporter.close();
    // A forget stops between pieces; the owner's next start finishes it.
    await this.forgetting.stop();
    await this.#backfill.stop();
    // The walk's checkpoint thread (capture's too, if it runs here): its stop is idempotent.
    await this.#checkpointer.stop();
    await this.#searchReader.close();
  }
}
