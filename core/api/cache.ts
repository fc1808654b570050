import { z } from 'zod';

const count = z.number().int().nonnegative();

export const PruneReport = z.strictObject({
  dryRun: z.boolean(),
  /**
   * Per provider: rows with a line timestamp before `cutoffMs` go; null keeps everything. Its
   * messages and whole conversations as the totals below (absent from an owner that did not count them).
   */
  cutoffs: z.array(
    z.strictObject({
      provider: z.string(),
      cutoffMs: z.number().int().nullable(),
      removedParts: count,
      removedMessages: count.optional(),
      removedConversations: count.optional(),
    }),
  ),
  /** With dryRun: what would be removed. */
  removedParts: count,
  removedSessions: count,
  /**
   * The messages those parts make up, and the conversations (top-level sessions) that went (or would
   * go) whole, their subagents with them: what a person counts. Absent from an owner that counted
   * them for a dry run only.
   */
  removedMessages: count.optional(),
  removedConversations: count.optional(),
  /**
   * A dry run's: how many of `removedConversations` have no transcript left on disk (every file that
   * held them is gone: the agent deleted it), so Steward holds the only copy and removing them loses
   * them for good. Those whose files Steward never recorded (imported before it kept track) are not
   * counted. Absent from a removal, and from an owner that did not count it.
   */
  lost: count.optional(),
  durationMs: count,
  /** False when shutdown stopped the pass between batches; the next pass finishes it. */
  complete: z.boolean(),
});
export type PruneReport = z.infer<typeof PruneReport>;

export const CacheStats = z.strictObject({
  /** Conversations (top-level sessions; a subagent's belongs to its parent). */
  conversations: count,
  /** Messages counted by the search index (the background index walk may still be adding some). */
  messages: count,
  /** Projects that hold a conversation: one whose conversations are all gone stays listed, but is not counted. */
  projects: count,
  /** Bytes on disk: the transcript cache (gateway.db with its journal), and everything in STEWARD_HOME. */
  bytes: z.strictObject({ gateway: count, home: count }),
});
export type CacheStats = z.infer<typeof CacheStats>;

export const cacheMethods = {
  /** What the transcript cache holds and the disk it takes. */
  'Cache.Stats': {
    params: z.strictObject({}),
    result: CacheStats,
  },
  /**
   * Applies the effective retention window now (the kernel default included: the caller asked),
   * removing older parts and the sessions left empty. Project rows are kept. A dry run with
   * `retentionDays` removes nothing and counts what the owner's own pass would remove at the next
   * start were `query.cache.retention.default_days` saved as that (0: nothing; a provider's own
   * explicit window still wins): what the panel asks about before it saves a retention window.
   */
  'Cache.Prune': {
    params: z
      .strictObject({ dryRun: z.boolean().optional(), retentionDays: z.number().int().nonnegative().optional() })
      .refine((p) => p.retentionDays === undefined || p.dryRun === true, { message: 'retentionDays counts only: it needs dryRun', path: ['retentionDays'] }),
    result: PruneReport,
  },
} as const;
