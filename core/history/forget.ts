import type { EventName, EventPayload, ForgetKind, ForgetResult, Tombstone } from '../api/index.js';
import type { SessionEraser, Tombstones } from '../gateway/index.js';
import type { SessionsView } from './sessions.js';

/** The projects room as forgetting needs it: a project's label and notes folder, and its row removed. */
export interface ForgettableProjects {
  describe(projectKey: string): { name: string; slug: string } | null;
  remove(projectKey: string): boolean;
}

export interface ForgetOptions {
  tombstones: Tombstones;
  eraser: SessionEraser;
  sessions: SessionsView;
  projects: ForgettableProjects;
  /** Removes a project's notes folder (the sweeper's files); true when there was one. */
  removeNotes: (projectKey: string, slug: string) => Promise<boolean>;
  emit: <E extends EventName>(name: E, payload: EventPayload<E>) => void;
}

const LABEL_CHARS = 200;

/**
 * Forgetting: the tombstone first (so nothing captured meanwhile comes back), then the rows in
 * batches. One forget at a time, in the order asked.
 */
export class Forgetting {
  readonly #o: ForgetOptions;
  #chain: Promise<unknown> = Promise.resolve();

  constructor(options: ForgetOptions) {
    this.#o = options;
  }

  session(sessionId: string): Promise<ForgetResult> {
    return this.#serial(async () => {
      // A conversation not stored (pruned, or not captured yet) is tombstoned all the same.
      const stored = this.#o.sessions.find(sessionId);
      const label = stored ? ((stored.title ?? stored.firstRequest)?.slice(0, LABEL_CHARS) ?? null) : null;
      this.#o.tombstones.add('session', sessionId, label);
      const erased = await this.#o.eraser.erase([sessionId]);
      this.#o.emit('history.changed', { kind: 'session', id: sessionId, change: 'forgotten' });
      return { kind: 'session', id: sessionId, removedParts: erased.parts, removedSessions: erased.sessions, notesRemoved: false };
    });
  }

  project(projectKey: string): Promise<ForgetResult> {
    return this.#serial(async () => {
      const project = this.#o.projects.describe(projectKey);
      this.#o.tombstones.add('project', projectKey, project?.name.slice(0, LABEL_CHARS) ?? null);
      const erased = await this.#o.eraser.erase(this.#o.eraser.sessionsOfProject(projectKey));
      const notesRemoved = project ? await this.#o.removeNotes(projectKey, project.slug) : false;
      this.#o.projects.remove(projectKey);
      this.#o.emit('history.changed', { kind: 'project', id: projectKey, change: 'forgotten' });
      return { kind: 'project', id: projectKey, removedParts: erased.parts, removedSessions: erased.sessions, notesRemoved };
    });
  }

  list(): Tombstone[] {
    return this.#o.tombstones.list();
  }

  /** The next backfill imports it again (scheduled ticks read only files that changed). */
  lift(kind: ForgetKind, id: string): boolean {
    const lifted = this.#o.tombstones.remove(kind, id);
    if (lifted) this.#o.emit('history.changed', { kind, id, change: 'lifted' });
    return lifted;
  }

  #serial<T>(task: () => Promise<T>): Promise<T> {
    const next = this.#chain.then(task);
    this.#chain = next.catch(() => undefined);
    return next;
  }
}
