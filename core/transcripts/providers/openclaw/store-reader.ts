import { stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { PROVIDERS } from '../../../api/constants/index.js';
import { sha256 } from '../../bounds.js';
import { countMalformed, countSkip } from '../../lines.js';
import { asObject, parseLine, Projection, type Json } from '../../projection.js';
import type { LineStats, ReadOptions, TranscriptBatch, TranscriptFile } from '../../types.js';
import { ArchiveTooLarge, archiveLines } from '../../compressed.js';
import { readSmallFile, refused } from '../../small-file.js';
import { eventText } from './decode.js';
import type { EntryContext } from './entry.js';
import { AgentStore, type ArchiveRow, type ColdArchiveRow, type EventRow } from './store.js';
import { StoreWatermark } from './watermark.js';

/** The entry parser the JSONL reader uses, so an entry is one part whichever layout held it. */
export interface EntryProjector {
  projectEntry(line: Json, context: EntryContext, projection: Projection, options: ReadOptions, stats: LineStats, index?: number): void;
}

/** Rows per keyset batch: each batch is one short statement, so OpenClaw's checkpoints are never held up. */
const EVENT_BATCH = 500;
/** OpenClaw's own bound on a decoded cold archive. */
const MAX_ARCHIVE_BYTES = 64 * 1024 * 1024;
const COLD_NAME = /^[a-f0-9]{64}\.jsonl\.zst$/;
const SESSIONS_PER_TURN = 256;

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** `agents/<id>/agent/openclaw-agent.sqlite` names its agent; a store elsewhere says it in `schema_meta`. */
function storeAgentId(path: string, store: AgentStore): string {
  const dir = dirname(path);
  if (basename(dir) === 'agent' && basename(dirname(dirname(dir))) === 'agents') return basename(dirname(dir));
  return store.agentId() ?? basename(path).replace(/\.(sqlite|db)$/, '');
}

/** Where OpenClaw keeps a store's file-backed cold archives: beside the agent's sessions. */
function coldArchivePath(storePath: string, name: string): string {
  const dir = dirname(storePath);
  const artifacts = basename(dir) === 'agent' ? join(dirname(dir), 'sessions') : dir;
  return join(artifacts, 'cold', name);
}

/** A cold archive's own file, where the store keeps it as one (storage 'file', a name OpenClaw gives); undefined otherwise. */
function coldFile(storePath: string, archive: ColdArchiveRow): string | undefined {
  return archive.storage === 'file' && COLD_NAME.test(archive.archive_name) ? coldArchivePath(storePath, archive.archive_name) : undefined;
}

/**
 * One read of an agent store: each session's hot rows after its watermark (all of them after a
 * rewrite), then the cold and reset/deleted archives not read before. Every entry goes through
 * the JSONL parser's `projectEntry` under the session's header, so its part ids are the ones the
 * same entry has in a JSONL file or a migration archive.
 */
class StoreRead {
  readonly projection = new Projection('openclaw', PROVIDERS.openclaw.roots.roots.source);
  readonly next = new StoreWatermark();
  /**
   * The conversations the store holds, as this read listed them: each session with rows, cold or
   * reclaimed into an archive, read this time or not (ReadCheckpoint.holds). Only a listing says so:
   * one whose rows were rewritten during the read, or whose archive could not be read, is still held.
   */
  readonly holds = new Set<string>();
  /**
   * Of those, the ones whose lines the store keeps in a file of their own (a cold archive under
   * `sessions/cold/`), by that file's path (ReadCheckpoint.heldIn): the store only names it.
   */
  readonly heldIn = new Map<string, string>();
  readonly #store: AgentStore;
  readonly #file: TranscriptFile;
  readonly #agentId: string;
  readonly #previous: StoreWatermark;
  readonly #projector: EntryProjector;
  readonly #options: ReadOptions;
  readonly #stats: LineStats;

  constructor(store: AgentStore, file: TranscriptFile, projector: EntryProjector, options: ReadOptions, stats: LineStats) {
    this.#store = store;
    this.#file = file;
    this.#agentId = storeAgentId(file.path, store);
    this.#previous = StoreWatermark.parse(typeof options.resume?.state === 'string' ? options.resume.state : undefined);
    this.#projector = projector;
    this.#options = options;
    this.#stats = stats;
  }

  /** Every batch but the last: the hot rows, then the archives, of a store that holds sessions. */
  async *batches(): AsyncGenerator<TranscriptBatch> {
    if (!this.#store.shape.events) return;
    yield* this.hotRows();
    yield* this.coldArchives();
    yield* this.resetArchives();
  }

  async *hotRows(): AsyncGenerator<TranscriptBatch> {
    const generations = this.#store.generations();
    for (const [i, { sessionId, title }] of this.#store.sessions().entries()) {
      if (i % SESSIONS_PER_TURN === SESSIONS_PER_TURN - 1) await turn();
      const maxSeq = this.#store.maxSeq(sessionId);
      if (maxSeq === null) continue;
      this.#holds(sessionId);
      const generation = generations.get(sessionId) ?? null;
      const after = this.#previous.resumeAfter(sessionId, generation, maxSeq);
      const key = `s:${sessionId}`;
      // A session read on from its watermark adds to what the reads before left out; one read whole counts afresh.
      const kept = after === null ? 0 : this.next.carried(this.#previous, key);
      if (after === maxSeq) {
        this.next.sessions.set(sessionId, { generation, maxSeq });
        this.next.count(key, kept);
        continue;
      }
      const outside = this.#outside();
      const context = this.#context(sessionId);
      let last = after ?? Number.MIN_SAFE_INTEGER;
      for (;;) {
        const rows = this.#store.events(sessionId, last, EVENT_BATCH);
        for (const row of rows) {
          this.#event(row, context);
          last = row.seq;
        }
        if (this.projection.pending >= this.#options.batchParts) yield this.projection.take(false);
        if (rows.length < EVENT_BATCH) break;
        await turn();
      }
      this.#title(context, title);
      // A rewrite during this read re-sequenced the rows: the next read takes the session whole.
      if (this.#store.generation(sessionId) === generation) this.next.sessions.set(sessionId, { generation, maxSeq: last });
      this.next.count(key, kept + this.#outside() - outside);
    }
  }

  /** Transcripts moved out of the hot rows (schema 20+): in the store or in `sessions/cold/`. */
  async *coldArchives(): AsyncGenerator<TranscriptBatch> {
    for (const archive of this.#store.coldArchives()) {
      this.#holds(archive.session_id);
      const file = coldFile(this.#file.path, archive);
      if (file !== undefined) this.heldIn.set(this.#conversation(archive.session_id), file);
      const key = `${archive.generation}:${archive.archive_sha256}`;
      const counted = `c:${archive.session_id}`;
      if (this.#previous.cold.get(archive.session_id) === key) {
        this.next.cold.set(archive.session_id, key);
        this.next.count(counted, this.next.carried(this.#previous, counted));
        continue;
      }
      const bytes = await this.#coldBytes(archive);
      const outside = this.#outside();
      if (yield* this.#archive(bytes, archive.archive_sha256, archive.session_id, true)) this.next.cold.set(archive.session_id, key);
      this.next.count(counted, this.#outside() - outside);
    }
  }

  /** Reset and deleted generations OpenClaw reclaimed into blobs; their `.reset`/`.deleted` files are derived from them. */
  async *resetArchives(): AsyncGenerator<TranscriptBatch> {
    for (const archive of this.#store.archives()) {
      this.#holds(archive.session_id);
      const key = archiveKey(archive);
      const counted = `a:${key}`;
      if (this.#previous.archives.has(key)) {
        this.next.archives.add(key);
        this.next.count(counted, this.next.carried(this.#previous, counted));
        continue;
      }
      const bytes = this.#store.archiveBlob(archive.session_id, archive.generation);
      const outside = this.#outside();
      if (yield* this.#archive(bytes, archive.archive_sha256, archive.session_id, false)) this.next.archives.add(key);
      this.next.count(counted, this.#outside() - outside);
    }
  }

  /** One archive's entries; false when it could not be read whole (it is tried again next read). */
  async *#archive(bytes: Buffer | null, expectedSha: string, sessionId: string, cold: boolean): AsyncGenerator<TranscriptBatch, boolean> {
    if (!bytes || sha256(bytes) !== expectedSha) {
      countMalformed(this.#stats);
      return false;
    }
    const context = this.#bareContext(sessionId);
    // A reset archive is the JSONL file itself: a line's place counts the blank ones too, as the file's reader does.
    let line = 0;
    try {
      for (const lines of archiveLines(bytes, MAX_ARCHIVE_BYTES)) {
        for (const text of lines) {
          if (text !== '') this.#archiveLine(text, context, cold, line);
          line += 1;
        }
        if (this.projection.pending >= this.#options.batchParts) yield this.projection.take(false);
        await turn();
      }
      return true;
    } catch (error) {
      if (!(error instanceof ArchiveTooLarge)) throw error;
      this.#stats.oversizeLines += 1;
      countSkip(this.#stats, 'too_large');
      return false;
    }
  }

  /**
   * A cold archive wraps each row as `{kind: "event", row: {seq, event_json}}` beside index records; a
   * reset archive is the JSONL itself, `ordinal` its line.
   */
  #archiveLine(text: string, context: EntryContext, cold: boolean, ordinal: number): void {
    const record = parseLine(text);
    if (cold && record && record.kind !== 'event') return;
    this.#stats.lines += 1;
    const row = asObject(record?.row);
    const eventJson = cold ? row?.event_json : undefined;
    const line = cold ? (typeof eventJson === 'string' ? parseLine(eventJson) : undefined) : record;
    if (!line) return countMalformed(this.#stats);
    const index = cold ? this.#lineOfSeq(context, typeof row?.seq === 'number' ? row.seq : undefined, line) : ordinal;
    this.#projector.projectEntry(line, context, this.projection, this.#options, this.#stats, index);
  }

  /**
   * The JSONL line a store row was (see EntryContext.headerSeq): its seq past the header row's. Where
   * the header row is gone, the first row seen stands one line after it. A numbering that still differs
   * from the file's is caught by the parts' content keys, which store one entry once.
   */
  #lineOfSeq(context: EntryContext, seq: number | undefined, line: Json): number | undefined {
    if (seq === undefined) return undefined;
    context.headerSeq ??= line.type === 'session' ? seq : seq - 1;
    return seq - context.headerSeq;
  }

  async #coldBytes(archive: ColdArchiveRow): Promise<Buffer | null> {
    if (archive.storage === 'sqlite') return this.#store.coldBlob(archive.session_id);
    const path = coldFile(this.#file.path, archive);
    if (path === undefined) return null;
    try {
      // Too large, or no regular file (a FIFO, a link to a device): not read, and counted as an archive that could not be.
      const read = await readSmallFile(path, MAX_ARCHIVE_BYTES + 1024 * 1024);
      return refused(read) ? null : read.bytes;
    } catch {
      return null;
    }
  }

  /** The lines this read has left out as older than the window so far. */
  #outside(): number {
    return this.#stats.skipped?.outside_window ?? 0;
  }

  #event(row: EventRow, context: EntryContext): void {
    this.#stats.lines += 1;
    const text = eventText(row);
    const line = text === undefined ? undefined : parseLine(text);
    if (!line) return countMalformed(this.#stats);
    this.#projector.projectEntry(line, context, this.projection, this.#options, this.#stats, this.#lineOfSeq(context, row.seq, line));
  }

  /** The session's header row (seq 0 or 1) gives its cwd; the store's session id is the header id even where that row is gone. */
  #context(sessionId: string): EntryContext {
    const context = this.#bareContext(sessionId);
    const first = this.#store.firstEvent(sessionId);
    const text = first && eventText(first);
    const header = text === undefined ? undefined : parseLine(text);
    if (first && header) this.#lineOfSeq(context, first.seq, header);
    if (header?.type === 'session') this.#projector.projectEntry(header, context, this.projection, this.#options, { lines: 0, failedLines: 0, oversizeLines: 0 });
    return context;
  }

  /** A session of the store, by the conversation id its entries are stored under (see EntryProjection). */
  #holds(sessionId: string): void {
    this.holds.add(this.#conversation(sessionId));
  }

  /** The conversation id a session of the store is stored under (see EntryProjection). */
  #conversation(sessionId: string): string {
    return `oc:${this.#agentId}:${sessionId}`;
  }

  #bareContext(sessionId: string): EntryContext {
    return { agentId: this.#agentId, header: { id: sessionId, cwd: null } };
  }

  /** The window's display name titles a session that named itself nowhere else. */
  #title(context: EntryContext, title: string | null): void {
    const id = `oc:${this.#agentId}:${context.header?.id ?? ''}`;
    if (title && this.projection.hasSession(id)) this.projection.title(this.projection.session(id), title, 'sidecar');
  }
}

function archiveKey(archive: ArchiveRow): string {
  return `${archive.session_id}:${archive.generation}:${archive.archive_sha256}`;
}

/**
 * An OpenClaw agent store (2026.7.2+), read as the entries its JSONL held. The watermark of the
 * read before (the file checkpoint's state, `options.resume`) limits it to what is new; the watermark
 * this read reached is this read's checkpoint state (a byte offset means nothing in a database). A
 * store without `transcript_events` (2026.5.30–2026.7.1) holds no sessions.
 */
export async function* readAgentStore(file: TranscriptFile, options: ReadOptions, stats: LineStats, projector: EntryProjector): AsyncGenerator<TranscriptBatch> {
  // A store deleted since the listing says so (ENOENT) rather than failing to open.
  await stat(file.path);
  const store = AgentStore.open(file.path);
  try {
    const read = new StoreRead(store, file, projector, options, stats);
    // What a store opened without locks gave is used only once the store is known unchanged since it was opened.
    for await (const batch of read.batches()) {
      store.assertUnchanged();
      yield own(batch);
    }
    store.assertUnchanged();
    // A store without session tables lists nothing, and says nothing of what it held.
    const holds = store.shape.events ? { holds: [...read.holds], ...(read.heldIn.size > 0 ? { heldIn: Object.fromEntries(read.heldIn) } : {}) } : {};
    stats.checkpoint = { offset: 0, headHash: '', tailHash: '', state: read.next.serialize(), olderLeftOut: read.next.olderLeftOut(), ...holds };
    yield own(read.projection.take(true));
  } catch (error) {
    throw store.failure(error);
  } finally {
    store.close();
  }
}

/**
 * The store is the live source of every session it holds (SessionRow.ownFile): a JSONL file of the
 * same session (Doctor's migration archive, a copy left in sessions/) only holds a copy of its
 * entries, and never speaks for what the store says, whichever was read first.
 */
function own(batch: TranscriptBatch): TranscriptBatch {
  for (const session of batch.sessions) session.ownFile = true;
  return batch;
}
