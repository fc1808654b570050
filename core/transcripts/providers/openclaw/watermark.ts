import { z } from 'zod';

/**
 * How far a store was read, per session: `{generation, maxSeq}` of its hot rows (`seq` grows by one
 * per append within a generation; a rewrite re-sequences and changes the generation), and which cold
 * and reset/deleted archives were read (each identified by its generation and content hash).
 * Carried between reads as the state of the store's durable file checkpoint (written in the commit
 * window of the rows it covers), so it advances only once those rows committed, and survives a restart.
 */
const Stored = z.strictObject({
  v: z.literal(1),
  sessions: z.record(z.string(), z.tuple([z.string().nullable(), z.number().int()])),
  cold: z.record(z.string(), z.string()),
  archives: z.array(z.string()),
  /** Per part read (`s:`/`c:` and a session id, `a:` and an archive key), the lines left out as older than the window; absent before it was kept. */
  older: z.record(z.string(), z.number().int().nonnegative()).optional(),
});

export interface SessionMark {
  generation: string | null;
  maxSeq: number;
}

export class StoreWatermark {
  readonly sessions = new Map<string, SessionMark>();
  readonly cold = new Map<string, string>();
  readonly archives = new Set<string>();
  /** Lines left out as older than the window, by part read (see Stored.older): only the parts counted here are carried. */
  readonly older = new Map<string, number>();
  /**
   * Whether `older` counts every part this watermark carries: not for one written before the counts
   * were kept (no `older`), nor for one that carried a part on from such (see carried).
   */
  olderCounted = true;

  /** A resume string this reader did not write (or a damaged one) means: read everything once. */
  static parse(resume: string | undefined): StoreWatermark {
    const mark = new StoreWatermark();
    if (resume === undefined) return mark;
    let raw: unknown;
    try {
      raw = JSON.parse(resume);
    } catch {
      return mark;
    }
    const parsed = Stored.safeParse(raw);
    if (!parsed.success) return mark;
    for (const [id, [generation, maxSeq]] of Object.entries(parsed.data.sessions)) mark.sessions.set(id, { generation, maxSeq });
    for (const [id, key] of Object.entries(parsed.data.cold)) mark.cold.set(id, key);
    for (const key of parsed.data.archives) mark.archives.add(key);
    for (const [key, n] of Object.entries(parsed.data.older ?? {})) mark.older.set(key, n);
    mark.olderCounted = parsed.data.older !== undefined;
    return mark;
  }

  /**
   * Where to read a session's hot rows from: after `maxSeq` when its generation is the one read
   * last time and nothing was removed; from the start (`null`) after a rewrite or when rows shrank.
   */
  resumeAfter(sessionId: string, generation: string | null, maxSeq: number): number | null {
    const known = this.sessions.get(sessionId);
    if (!known || known.generation !== generation || maxSeq < known.maxSeq) return null;
    return known.maxSeq;
  }

  serialize(): string {
    const sessions = Object.fromEntries([...this.sessions].map(([id, m]): [string, [string | null, number]] => [id, [m.generation, m.maxSeq]]));
    // Written whenever counted, if only `{}`: its absence says the counts are not known.
    const older = this.olderCounted ? { older: Object.fromEntries(this.older) } : {};
    return JSON.stringify({ v: 1, sessions, cold: Object.fromEntries(this.cold), archives: [...this.archives], ...older } satisfies z.infer<typeof Stored>);
  }

  /** The lines left out in all the parts this watermark carries; null when they are not all counted. */
  olderLeftOut(): number | null {
    if (!this.olderCounted) return null;
    let n = 0;
    for (const lines of this.older.values()) n += lines;
    return n;
  }

  /**
   * What `previous` counted for a part read on from it or kept as it was: when `previous` did not
   * count its parts, neither does this watermark (that part's count is not known).
   */
  carried(previous: StoreWatermark, key: string): number {
    if (!previous.olderCounted) this.olderCounted = false;
    return previous.older.get(key) ?? 0;
  }

  /** Carries the lines a part left out (none is not kept). */
  count(key: string, lines: number): void {
    if (lines > 0) this.older.set(key, lines);
  }
}
