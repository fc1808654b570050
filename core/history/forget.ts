import { appName, rootKinds, PROVIDERS, PROVIDER_IDS, StewardError, subagentParentOf, type EventName, type EventPayload, type ForgetCover, type ForgetKind, type ForgetResult, type Result, type ScrubResult, type ScrubStatus, type Tombstone } from '../api/index.js';
import type { DiskScrub, EraseOptions, EraseProgress, EraseResult, ScrubProgress, SessionEraser, SessionRecord, Tombstones, TranscriptFiles, TranscriptState } from '../gateway/index.js';
import { errorCode, type Logger } from '../log/index.js';
import { folderHashOf } from '../projects/index.js';
import type { Redactor } from '../secrets/index.js';
import { redactAll } from './redaction.js';
import type { SessionsView } from './sessions.js';

/**
 * The projects room as forgetting needs it: a project's label, notes folder and folder (hashed on its
 * record, see Tombstones.projectOfFolder), and its row removed.
 */
export interface ForgettableProjects {
  describe(projectKey: string): { name: string; slug: string; cwd?: string } | null;
  remove(projectKey: string): boolean;
}

export interface ForgetOptions {
  tombstones: Tombstones;
  eraser: SessionEraser;
  /** Wipes from the disk what forgets deleted, when asked (see DiskScrub). */
  scrub: DiskScrub;
  sessions: SessionsView;
  projects: ForgettableProjects;
  /** Removes a project's notes folder (the sweeper's files); true when there was one. */
  removeNotes: (projectKey: string, slug: string) => Promise<boolean>;
  /** A forgotten conversation's project: its notes may name it, so they are withheld and rebuilt (the sweeper). */
  notesStale?: (projectKey: string, firstActiveAt: number | null) => Promise<void>;
  /** Closes open exports of what is being forgotten (see SessionExporter.forgotten), before its rows go. */
  closeExports?: (kind: ForgetKind, id: string) => void;
  /** Redacts what the list shows of a forgotten conversation. */
  redactor: () => Redactor;
  /**
   * Whether the transcript files that held a conversation are still on disk (the gateway's file holds):
   * what a forget would lose for good (`lost`), and whether a lift leaves anything to import. Without it
   * nothing is known, lost or not.
   */
  transcripts?: Pick<TranscriptFiles, 'count' | 'ofProject' | 'coveredBy'> | undefined;
  emit: <E extends EventName>(name: E, payload: EventPayload<E>) => void;
  logger?: Logger | undefined;
}

const LABEL_CHARS = 200;
const PROGRESS_EVERY_MS = 500;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** What an app's conversations are called in a neutral label (see neutralLabel). */
const APPS = [...new Set([...PROVIDER_IDS.map((p) => PROVIDERS[p].label), ...rootKinds().map((r) => r.kind.label)])];
const escapeRe = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// The day is never left out (see neutralLabel): a title such as "Claude Code conversation in <text>" is not one of these.
const NEUTRAL = new RegExp(`^(?:${APPS.map(escapeRe).join('|')}) conversation of (?:\\d{1,2} [A-Z][a-z]{2} \\d{4}|an unknown day)(?: in .+)?$`);

/** What a forget asks besides its id (see Forget.Session, Forget.Project). */
export interface ForgetAsked {
  /** Then wipe the disk (see DiskScrub), owed from before anything is deleted. */
  scrub?: boolean | undefined;
  /** Forget it even when nothing is held under its id (one not imported yet), to keep it out of imports. */
  notStored?: boolean | undefined;
}

/** What a project's forget asks besides (see Forget.Project). */
export interface ForgetProjectAsked extends ForgetAsked {
  name?: string | undefined;
  /** Its folder's hash (folderHashOf), given with a folder no row holds: the row's, when there is one, is taken first. */
  folderHash?: string | undefined;
  /** Its folder's Gemini hash folders' names, given with a folder no row holds: the row's folder, when there is one, is taken first. */
  geminiFolders?: readonly string[] | undefined;
}

/**
 * An id nothing is held under, asked without `notStored`: forgetting it would tombstone it all the
 * same, and a mistyped id would sit in the forget list keeping nothing out. In the call's words (its
 * param); the CLI says its own flags and verbs instead (cli/commands/forget.ts, notStoredInCliWords).
 */
function notStoredError(kind: ForgetKind): StewardError {
  const [what, where] = kind === 'session' ? ['conversation has that id', 'Give the whole id, as Sessions.List gives it'] : ['project has that key', 'Projects.List gives each project’s key'];
  const noun = kind === 'session' ? 'conversation' : 'project';
  return new StewardError('not_found', `No stored ${what}, so nothing was forgotten.`, {
    remediation: `${where}; to forget a ${noun} Steward has not imported (keeping it out of future imports), ask again with notStored: true.`,
  });
}

/**
 * A forgotten conversation's label built from facts, not text: its app, the day it started and its
 * project's name ("Claude Code conversation of 2 Nov 2026 in orchard"). A forget that wipes the disk
 * keeps this one: a title or first request is the conversation's own words.
 */
export function neutralLabel(record: Pick<SessionRecord, 'provider' | 'source' | 'firstTs'>, projectName: string | null): string {
  const day = record.firstTs === null ? null : new Date(record.firstTs);
  const date = day ? ` of ${day.getDate()} ${MONTHS[day.getMonth()]} ${day.getFullYear()}` : ' of an unknown day';
  return `${appName(record.provider, record.source)} conversation${date}${projectName ? ` in ${projectName}` : ''}`.slice(0, LABEL_CHARS);
}

/** Whether a label is one neutralLabel built (a wipe keeps those; any other of a conversation is its text). */
export const isNeutralLabel = (label: string): boolean => NEUTRAL.test(label);

/** What a lifted record's files are to the next scheduled check: how many are known to hold it, and how many lie inside its window. */
export interface LiftedFiles {
  held: number;
  inWindow: number;
}

/**
 * Told of a lift (capture's, wired by the owner): has the files that held what the record covered read
 * again at the next check (`sessionIds`: the conversations it erased), and says how many there are and
 * how many that check reads (see nextCheckOf).
 */
export type LiftHook = (kind: ForgetKind, id: string, sessionIds: readonly string[]) => LiftedFiles;

/**
 * Whether the next check brings back what was lifted (Forget.Lift's `nextCheck`), over every record one
 * lift lifted (a folder's spellings): 'all' when every file known to hold it is inside the window,
 * 'part' when some are older, nothing when none is known or all are older. A record that held no file
 * says nothing of the others'.
 */
function nextCheckOf(files: readonly LiftedFiles[]): Result<'Forget.Lift'>['nextCheck'] {
  const held = files.reduce((n, f) => n + f.held, 0);
  const inWindow = files.reduce((n, f) => n + f.inWindow, 0);
  if (inWindow === 0) return undefined;
  return inWindow === held ? 'all' : 'part';
}

/**
 * The forget erasing now, and what stops it alone: lifting its tombstone (Unforget) meanwhile. `notes`:
 * a project's notes, removed as its erasing begins (true when there were some).
 */
interface Running {
  kind: ForgetKind;
  id: string;
  lifted: AbortController;
  notes?: Promise<boolean>;
}

/**
 * Forgetting: the tombstone first (so nothing captured meanwhile comes back), then the rows in
 * pieces, with progress. One forget at a time, in the order asked. Stopping ends the running one
 * between pieces; the tombstone holds what is left out of every import, and the owner's next start
 * finishes it (`finishInterrupted`), as forgetting the same again does.
 */
export class Forgetting {
  readonly #o: ForgetOptions;
  readonly #abort = new AbortController();
  #chain: Promise<unknown> = Promise.resolve();
  #running: Running | undefined;
  #scrubbing = false;
  #onLift: LiftHook | undefined;

  constructor(options: ForgetOptions) {
    this.#o = options;
  }

  /** Refused (not_found, nothing changed) when nothing is held under the id and `notStored` is not asked. */
  session(sessionId: string, { scrub = false, notStored = false }: ForgetAsked = {}): Promise<ForgetResult> {
    return this.#serial(async () => {
      // A conversation not stored (pruned, or not captured yet) is tombstoned all the same when asked,
      // or when a record covers it already. Its label is kept redacted: it outlives the conversation,
      // which may be forgotten for the secret in it.
      // With a wipe, no word of it may stay: its label is built from facts (neutralLabel), replacing one kept before.
      const stored = this.#o.sessions.findRecord(sessionId);
      if (!stored && !notStored && !this.#o.eraser.sessionHasRows(sessionId) && !this.#cover(sessionId)) throw notStoredError('session');
      if (scrub) {
        const label = stored ? neutralLabel(stored, stored.projectKey ? (this.#o.projects.describe(stored.projectKey)?.name ?? null) : null) : this.#keptNeutral(sessionId);
        this.#o.tombstones.add('session', sessionId, label);
        this.#o.tombstones.relabel('session', sessionId, label);
      } else {
        const [name] = stored ? await this.#o.sessions.redactedNames([stored]) : [null];
        this.#o.tombstones.add('session', sessionId, name?.slice(0, LABEL_CHARS) ?? null);
      }
      this.#o.closeExports?.('session', sessionId);
      if (scrub) this.#o.scrub.owe();
      return this.#thenWipe(await this.#eraseWithNotes(sessionId, stored), scrub);
    });
  }

  /**
   * `name`: what to call it when no stored row names it (a project never imported, named by its folder).
   * Refused as a conversation is (see `session`) when nothing is held under the key.
   */
  project(projectKey: string, { scrub = false, notStored = false, name, folderHash: given, geminiFolders = [] }: ForgetProjectAsked = {}): Promise<ForgetResult> {
    return this.#serial(async () => {
      const { projects, eraser, tombstones } = this.#o;
      const row = projects.describe(projectKey);
      if (!row && !notStored && !eraser.projectHasSessions(projectKey) && !tombstones.has('project', projectKey)) throw notStoredError('project');
      // The folder's hash, not its path: the row a later spelling of it joins goes with this forget.
      // With no row and no folder given (a key alone) the folder is unknowable: the record keeps none.
      const folderHash = row?.cwd === undefined ? (given ?? null) : folderHashOf(row.cwd);
      tombstones.add('project', projectKey, (row?.name ?? name)?.slice(0, LABEL_CHARS) ?? null, { folderHash });
      // And its Gemini hash folders' names: with the row gone, nothing else names their folder; with no
      // row, those of the folder it was forgotten by (hashed by the caller), as its folder hash is.
      if (row?.cwd !== undefined) tombstones.keepHashFolders(projectKey, [row.cwd]);
      else tombstones.keepHashFolderNames(projectKey, geminiFolders);
      this.#o.closeExports?.('project', projectKey);
      if (scrub) this.#o.scrub.owe();
      return this.#thenWipe(await this.#eraseProject(projectKey), scrub);
    });
  }

  /** Wipes the disk of what earlier forgets deleted, queued behind any forget (see DiskScrub). */
  scrub(): Promise<ScrubResult> {
    return this.#serial(async () => {
      const began = performance.now();
      const complete = await this.#wipe();
      return { complete, durationMs: Math.round(performance.now() - began) };
    });
  }

  scrubStatus(): ScrubStatus {
    return { pending: this.#o.scrub.pending(), running: this.#scrubbing, ...this.#o.scrub.report(), estimatedMs: this.#o.scrub.estimateMs() };
  }

  /**
   * The label an earlier forget built of facts (neutralLabel), when nothing is stored to build one from
   * again: it holds no word of the conversation, so a second wipe keeps it; any other label goes.
   */
  #keptNeutral(sessionId: string): string | null {
    const kept = this.#o.tombstones.find('session', sessionId)?.label ?? null;
    return kept !== null && isNeutralLabel(kept) ? kept : null;
  }

  /** What was forgotten, each label redacted (one kept before labels were shows a secret as [REDACTED]). */
  async list(): Promise<Tombstone[]> {
    const tombstones = this.#o.tombstones.list();
    const labels = await redactAll(
      tombstones.map((t) => t.label),
      this.#o.redactor(),
    );
    return tombstones.map((t, i) => ({ ...t, label: labels[i] ?? null }));
  }

  /**
   * The forget record that covers a conversation id (redacted, as the list shows it): its own, else
   * that of the conversation it is a subagent of, by the `{parent}:agent-` form of its id, else the
   * record that kept its id when erasing it: its parent's (a Gemini or Codex subagent's id does not
   * name it) or its project's (no id names that).
   */
  async of(sessionId: string): Promise<ForgetCover | null> {
    const cover = this.#cover(sessionId);
    if (!cover) return null;
    const [label] = await redactAll([cover.label], this.#o.redactor());
    return { ...cover, label: label ?? null };
  }

  /** The forget record that covers a conversation id, its label as stored (see `of`). */
  #cover(sessionId: string): ForgetCover | undefined {
    const { tombstones } = this.#o;
    const own = tombstones.find('session', sessionId);
    const named = subagentParentOf(sessionId);
    const record = own ?? (named === null ? undefined : tombstones.find('session', named)) ?? tombstones.keptBy(sessionId);
    return record && { ...record, via: own ? 'self' : record.kind === 'project' ? 'project' : 'parent' };
  }

  /**
   * Whether a forgotten project's row is still stored; if so, its record keeps the row's folder hash
   * and Gemini hash folders from now, before the row goes (one made before records kept them, cut
   * short, has none): its folder is knowable only while the row is there. A record whose row is gone
   * already keeps what it kept: its folder's path, and so its Gemini hash folders, are unknowable now.
   */
  #keepFolder(projectKey: string): boolean {
    const row = this.#o.projects.describe(projectKey);
    if (row === null) return false;
    if (row.cwd === undefined) return true;
    if (this.#o.tombstones.folderHashKept(projectKey) === null) this.#o.tombstones.add('project', projectKey, null, { folderHash: folderHashOf(row.cwd) });
    this.#o.tombstones.keepHashFolders(projectKey, [row.cwd]);
    return true;
  }

  /**
   * What forgetting it would lose for good (Forget.Lost): its conversations, how many of them are known
   * gone from disk, or keep theirs but lose a subagent's, so that Steward's rows are the only copy, and
   * how many no read recorded a file of.
   */
  async lost(kind: ForgetKind, id: string): Promise<Result<'Forget.Lost'>> {
    const { transcripts, eraser } = this.#o;
    const nothing = { conversations: 0, lost: 0, onlySubagentsLost: 0, subagentsLost: 0, unknown: 0 };
    const stored = kind === 'project' || Boolean(this.#o.sessions.findRecord(id)) || eraser.sessionHasRows(id);
    if (!stored) return nothing;
    // Without the file holds, nothing is known either way.
    if (!transcripts) return kind === 'project' ? nothing : { ...nothing, conversations: 1, unknown: 1 };
    const counts = kind === 'project' ? await transcripts.ofProject(id) : await transcripts.count([id]);
    return { conversations: counts.conversations, lost: counts.gone + counts.onlySubagentsGone, onlySubagentsLost: counts.onlySubagentsGone, subagentsLost: counts.subagentsGone, unknown: counts.unknown };
  }

  /**
   * Where what a forget record's lift would bring back is (TranscriptState): `gone` when every file that
   * held what it erased or withheld is known gone, `unknown` when no read recorded one of it. Undefined
   * when nothing is known: no record, or no capture to know files by. `never` for a record of what was never
   * stored (--not-stored), which deleted no copy. Asked before the lift, which drops the ids it kept and what it withheld.
   */
  async #onDisk(kind: ForgetKind, id: string): Promise<TranscriptState | 'never' | undefined> {
    const { transcripts, tombstones } = this.#o;
    if (!transcripts || !tombstones.has(kind, id)) return undefined;
    const kept = tombstones.keptOf(kind, id);
    // Only a forget that erased something deleted a copy: one of what was never stored (--not-stored) did not.
    const erasedAny = kept.length > 0 || (kind === 'session' && tombstones.everKept(id));
    if (!erasedAny) return 'never';
    return transcripts.coveredBy(kind, id, kind === 'session' ? [id, ...kept] : kept);
  }

  /** Where a lift is told (see LiftHook): set once by the owner, which holds capture. */
  onLift(hook: LiftHook): void {
    this.#onLift = hook;
  }

  /**
   * Lifts it (see `lift`), and says what the lift does not undo: a record that still keeps the
   * conversation out (its project's, forgotten after it; its parent's), and a project's notes the forget
   * it cut short removed (they come back with no row: only a sweep writes them again); else whether the
   * next check brings it back (`nextCheck`), or that nothing is left to import (`nothingLeft`: its rows
   * deleted and its transcripts gone from disk; `neverStored`: forgotten before it was stored, and no read met a file of it while forgotten: the next check or a backfill imports what is on disk).
   */
  async unforget(kind: ForgetKind, id: string): Promise<Result<'Forget.Lift'>> {
    const running = this.#running?.kind === kind && this.#running.id === id ? this.#running : undefined;
    const onDisk = await this.#onDisk(kind, id);
    const lifted = this.#liftFolder(kind, id);
    if (!lifted) return { lifted: false };
    // Awaited: a lift while they are being removed stops the rows, not their removal.
    const notesRemoved = (await running?.notes?.catch(() => false)) === true;
    const stillOut = kind === 'session' ? await this.of(id) : null;
    const { otherSpellings } = lifted;
    // A forget the lift cut short leaves rows; another spelling's record may have files of its own.
    const rowsLeft = kind === 'session' ? this.#o.eraser.sessionHasRows(id) : this.#o.eraser.projectHasSessions(id);
    const nothingLeft = !stillOut && onDisk === 'gone' && !rowsLeft && otherSpellings === 0;
    // Stored before Steward recorded its files: a backfill brings back only what is still on disk.
    const ifOnDisk = !stillOut && onDisk === 'unknown' && !rowsLeft && otherSpellings === 0;
    // Forgotten before anything of it was stored, and no read met a file of it while forgotten (it withheld none):
    // nothing stored, nothing met; what is on disk comes with the next check (inside its window) or a backfill.
    const neverStored = !stillOut && onDisk === 'never' && lifted.held === 0 && !rowsLeft && otherSpellings === 0;
    // Files known to have held it say nothing once they are gone: the next check finds none of them.
    const nextCheck = stillOut || nothingLeft ? undefined : lifted.nextCheck;
    return {
      lifted: true,
      ...(stillOut && { stillOut }),
      ...(notesRemoved && { notesRemoved: true as const }),
      ...(otherSpellings > 0 && { otherSpellings }),
      ...(nextCheck && { nextCheck }),
      ...(nothingLeft && { nothingLeft: true as const }),
      ...(ifOnDisk && { ifOnDisk: true as const }),
      ...(neverStored && { neverStored: true as const }),
    };
  }

  /** The next scheduled check reads again the files known to hold it (within its window); the next backfill imports the rest. */
  lift(kind: ForgetKind, id: string): boolean {
    return this.#liftFolder(kind, id) !== undefined;
  }

  /**
   * A project's record lifted with every other of its folder (the same folder hash): a store from
   * before one folder was one project may hold one forgotten project per spelling, and any one of them
   * keeps the folder out (Tombstones.projectOfFolder), so lifting one alone would bring nothing back.
   * One folder is one project now: asking it back asks them all. `otherSpellings`: how many more.
   */
  #liftFolder(kind: ForgetKind, id: string): { nextCheck: Result<'Forget.Lift'>['nextCheck']; otherSpellings: number; held: number } | undefined {
    // Read before the record goes.
    const folderHash = kind === 'project' ? this.#o.tombstones.folderHashKept(id) : null;
    const own = this.#lift(kind, id);
    if (!own) return undefined;
    const others = folderHash === null ? [] : this.#o.tombstones.projectsOfFolder(folderHash).flatMap((other) => this.#lift('project', other) ?? []);
    const files = [own, ...others];
    return { nextCheck: nextCheckOf(files), otherSpellings: others.length, held: files.reduce((n, f) => n + f.held, 0) };
  }

  /** Removes one record; its files, as the lift hook counts them (none known without capture). */
  #lift(kind: ForgetKind, id: string): LiftedFiles | undefined {
    // Read before the record goes: removing it drops the ids it kept.
    const erased = [...(kind === 'session' ? [id] : []), ...this.#o.tombstones.keptOf(kind, id)];
    if (!this.#o.tombstones.remove(kind, id)) return undefined;
    // What is left of it stays: the person asked for it back (the next check or backfill brings back what went).
    if (this.#running?.kind === kind && this.#running.id === id) this.#running.lifted.abort();
    this.#o.emit('history.changed', { kind, id, change: 'lifted' });
    return this.#onLift?.(kind, id, erased) ?? { held: 0, inWindow: 0 };
  }

  /**
   * Finishes forgets a stop or a crash cut short: a tombstone whose rows (or project row) are still
   * stored, then a wipe still owed. Queued behind any forget asked meanwhile; settles when they are done.
   */
  finishInterrupted(): Promise<void> {
    const { tombstones, eraser, logger } = this.#o;
    const records = tombstones.list();
    // Projects whose row is still stored, their folder kept on the record first (see #keepFolder).
    const rowed = new Set<string>();
    for (const t of records) if (t.kind === 'project' && this.#keepFolder(t.id)) rowed.add(t.id);
    const left = records.filter((t) => (t.kind === 'project' ? rowed.has(t.id) || eraser.projectHasSessions(t.id) : eraser.sessionHasRows(t.id)));
    const finishing = left.map((t) =>
      this.#serial(async () => {
        // Unforgotten while it waited: what the person asked back (and any import since) stays.
        if (!tombstones.has(t.kind, t.id)) return;
        await (t.kind === 'project' ? this.#eraseProject(t.id) : this.#eraseWithNotes(t.id, this.#o.sessions.findRecord(t.id)));
      }).then(
        () => logger?.info('interrupted forget finished', { kind: t.kind }),
        (error: unknown) => {
          if (errorCode(error) !== 'cancelled') logger?.warn('interrupted forget failed', { kind: t.kind, code: errorCode(error) });
        },
      ),
    );
    if (this.#o.scrub.pending()) {
      finishing.push(
        this.#serial(() => this.#wipe()).then(
          (complete) => logger?.info(complete ? 'interrupted disk wipe finished' : 'interrupted disk wipe stopped again; the next start finishes it'),
          (error: unknown) => logger?.warn('interrupted disk wipe failed', { code: errorCode(error) }),
        ),
      );
    }
    return Promise.all(finishing).then(() => undefined);
  }

  /** Stops the running forget between pieces, and those queued before they delete anything. */
  async stop(): Promise<void> {
    this.#abort.abort();
    await this.#chain;
  }

  async #eraseSession(sessionId: string, projectKey: string | null, signal: AbortSignal): Promise<ForgetResult> {
    // Kept before any row goes, inside the erase (a lift meanwhile cancels both): once a subagent's row
    // is gone, nothing else says whose it was (see `of`). On its project's record too, ahead of one: a
    // forget of the project later finds none of them to erase, yet its record keeps them out (capture
    // withholds by the folder's project), which is what Unforget of the conversation must say then.
    const keep = (order: readonly string[]) => {
      this.#o.tombstones.keep('session', sessionId, order.filter((id) => id !== sessionId));
      if (projectKey) this.#o.tombstones.keep('project', projectKey, order);
    };
    const erased = await this.#erase('session', sessionId, signal, (options) => this.#o.eraser.erase([sessionId], undefined, { ...options, onOrder: keep }));
    this.#o.emit('history.changed', { kind: 'session', id: sessionId, change: 'forgotten' });
    return { kind: 'session', id: sessionId, removedParts: erased.parts, removedSessions: erased.sessions, notesRemoved: false };
  }

  /**
   * A conversation's rows, its project's notes withheld before any goes: a forget cut short (a stop;
   * the next start finishes the rows) still keeps them from agents. Marked again once the rows are
   * gone, so a rebuild that read some of them meanwhile runs again (the sweeper counts the marks).
   */
  #eraseWithNotes(sessionId: string, stored: SessionRecord | undefined): Promise<ForgetResult> {
    const stale = async () => stored?.projectKey && (await this.#o.notesStale?.(stored.projectKey, stored.firstTs));
    return this.#asRunning('session', sessionId, async ({ lifted }) => {
      await stale();
      const result = await this.#eraseSession(sessionId, stored?.projectKey ?? null, lifted.signal);
      await stale();
      return result;
    });
  }

  /**
   * Its sessions a page at a time (reading all their ids at once held the event loop 130 ms at 150k).
   * Its notes go first: they name what is forgotten, and a forget that stops part-way (the next start
   * finishes the rows) must not leave them handed to agents meanwhile. Its row goes last, so such a
   * forget still lists the project to finish.
   */
  #eraseProject(projectKey: string): Promise<ForgetResult> {
    return this.#asRunning('project', projectKey, async (running) => {
      const project = this.#o.projects.describe(projectKey);
      running.notes = project ? this.#o.removeNotes(projectKey, project.slug) : Promise.resolve(false);
      const notesRemoved = await running.notes;
      // Each page's ids kept before its rows go, as a conversation's subagents are (see #eraseSession);
      // and the Gemini hash folders of the folders they were recorded in (other spellings of the row's).
      const keep = (order: readonly string[]) => {
        this.#o.tombstones.keep('project', projectKey, order);
        this.#o.tombstones.keepHashFoldersOf(projectKey, order);
      };
      const erased = await this.#erase('project', projectKey, running.lifted.signal, (options) => this.#o.eraser.eraseProject(projectKey, undefined, { ...options, onOrder: keep }));
      this.#o.projects.remove(projectKey);
      this.#o.emit('history.changed', { kind: 'project', id: projectKey, change: 'forgotten' });
      return { kind: 'project', id: projectKey, removedParts: erased.parts, removedSessions: erased.sessions, notesRemoved };
    });
  }

  /**
   * Runs a forget's erasing as the running one from its first step (notes included): a lift that
   * comes before its rows start to go stops it all the same.
   */
  async #asRunning(kind: ForgetKind, id: string, erase: (running: Running) => Promise<ForgetResult>): Promise<ForgetResult> {
    const running: Running = { kind, id, lifted: new AbortController() };
    this.#running = running;
    try {
      return await erase(running);
    } finally {
      this.#running = undefined;
    }
  }

  /** A wipe that fails leaves the forget done (its rows are gone): `scrubbed: false`, and ScrubStatus says why. */
  async #thenWipe(result: ForgetResult, scrub: boolean): Promise<ForgetResult> {
    if (!scrub) return result;
    const scrubbed = await this.#wipe().catch((error: unknown) => {
      this.#o.logger?.warn('disk wipe failed; the next start tries again', { code: errorCode(error) });
      return false;
    });
    return { ...result, scrubbed };
  }

  /** Runs the wipe until it ends or the owner stops, saying how far it has come every half second. */
  async #wipe(): Promise<boolean> {
    let reported = performance.now();
    let last: ScrubProgress | undefined;
    const report = (p: ScrubProgress, complete: boolean) => this.#o.emit('forget.scrub', { phase: p.phase, done: p.done, total: p.total, complete });
    this.#scrubbing = true;
    const began = performance.now();
    try {
      this.#dropTextLabels();
      const complete = await this.#o.scrub.run({
        signal: this.#abort.signal,
        onProgress: (progress) => {
          // A new phase is said at once (the panel names what it is doing), and so is the end of one.
          if (progress.phase === last?.phase && progress.done < progress.total && performance.now() - reported < PROGRESS_EVERY_MS) return;
          last = progress;
          reported = performance.now();
          report(progress, false);
        },
      });
      if (complete) report({ phase: 'journal', done: 1, total: 1 }, true);
      this.#o.logger?.info(complete ? 'disk wiped' : 'disk wipe stopped; the next start finishes it', { durationMs: Math.round(performance.now() - began) });
      return complete;
    } finally {
      this.#scrubbing = false;
    }
  }

  /**
   * A wipe leaves no text of what earlier forgets deleted: a conversation forgotten without one kept its
   * (redacted) title or first request as its label, which goes now (the list then names it by its id).
   */
  #dropTextLabels(): void {
    for (const t of this.#o.tombstones.list()) {
      if (t.kind === 'session' && t.label !== null && !isNeutralLabel(t.label)) this.#o.tombstones.relabel('session', t.id, null);
    }
  }

  /**
   * Erases in pieces, saying how far it has come every half second and once when it is over: done, or
   * failed (its counts then say how far it came), so nothing goes on saying it is forgetting.
   */
  async #erase(kind: ForgetKind, id: string, lifted: AbortSignal, erase: (options: EraseOptions) => Promise<EraseResult>): Promise<EraseResult> {
    const report = (p: EraseProgress, complete: boolean, failed = false) =>
      this.#o.emit('forget.progress', { kind, id, sessionsDone: p.sessionsDone, sessionsTotal: p.sessionsTotal, removedParts: p.parts, complete, ...(failed ? { failed } : {}) });
    let last: EraseProgress = { sessionsDone: 0, sessionsTotal: 0, parts: 0 };
    let reported = performance.now();
    try {
      const erased = await erase({
        signal: AbortSignal.any([this.#abort.signal, lifted]),
        onProgress: (progress) => {
          last = progress;
          if (performance.now() - reported < PROGRESS_EVERY_MS) return;
          reported = performance.now();
          report(progress, false);
        },
      });
      report(last, true);
      return erased;
    } catch (error) {
      // A lift ends its own (history.changed) and a stop ends the owner. What a failure leaves stays out
      // of every import (its record holds) until the next start finishes it (finishInterrupted), as
      // forgetting it again does.
      if (errorCode(error) !== 'cancelled') {
        this.#o.logger?.warn('forget failed part-way; the next start finishes it, or forgetting it again does', { kind, code: errorCode(error) });
        report(last, true, true);
      }
      throw error;
    }
  }

  #serial<T>(task: () => Promise<T>): Promise<T> {
    const next = this.#chain.then(task);
    this.#chain = next.catch(() => undefined);
    return next;
  }
}
