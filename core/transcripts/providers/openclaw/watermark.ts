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
});

export interface SessionMark {
  generation: string | null;
  maxSeq: number;
}

export class StoreWatermark {
  readonly sessions = new Map<string, SessionMark>();
  readonly cold = new Map<string, string>();
  readonly archives = new Set<string>();

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
    return JSON.stringify({ v: 1, sessions, cold: Object.fromEntries(this.cold), archives: [...this.archives] } satisfies z.infer<typeof Stored>);
  }
}
