import { z } from 'zod';
import { ProjectKey, SessionId } from './ids.js';
import { FORGET_KINDS } from './lists.js';

const count = z.number().int().nonnegative();

/** A tombstone: what was forgotten stays out of the cache while its transcripts still exist on disk. */
export const Tombstone = z.strictObject({
  kind: z.enum(FORGET_KINDS),
  id: z.string(),
  /** What it was called when it was forgotten (a title, a project name), so the list can be read. */
  label: z.string().nullable(),
  createdAt: z.number().int(),
});
export type Tombstone = z.infer<typeof Tombstone>;

export const ForgetResult = z.strictObject({
  kind: z.enum(FORGET_KINDS),
  id: z.string(),
  removedParts: count,
  removedSessions: count,
  /** A project's notes folder (OVERVIEW.md, CHANGELOG.md …) was removed with it. */
  notesRemoved: z.boolean(),
});
export type ForgetResult = z.infer<typeof ForgetResult>;

/** Forgetting conversations and projects (history); a tombstone keeps them from being imported again. */
export const forgetMethods = {
  /** Deletes a conversation (its parts, index rows and subagents) and tombstones its id. */
  'Forget.Session': {
    params: z.strictObject({ sessionId: SessionId }),
    result: ForgetResult,
  },
  /** Deletes every conversation of a project, its row and its notes, and tombstones its key. */
  'Forget.Project': {
    params: z.strictObject({ projectKey: ProjectKey }),
    result: ForgetResult,
  },
  'Forget.List': {
    params: z.strictObject({}),
    result: z.strictObject({ tombstones: z.array(Tombstone) }),
  },
  /** Lifts a tombstone; the next backfill imports the conversation or project again. */
  'Forget.Lift': {
    params: z.strictObject({ kind: z.enum(FORGET_KINDS), id: z.string().min(1).max(300) }),
    result: z.strictObject({ lifted: z.boolean() }),
  },
} as const;

export const forgetEvents = {
  /** Something was forgotten or a tombstone lifted: lists that show it should reload. */
  'history.changed': z.strictObject({ kind: z.enum(FORGET_KINDS), id: z.string(), change: z.enum(['forgotten', 'lifted']) }),
  /**
   * How far a forget has come: sessions of the conversations (subagents included) whose rows are gone,
   * and parts deleted; sent every half second while it runs, and once with `complete` when it is done.
   */
  'forget.progress': z.strictObject({
    kind: z.enum(FORGET_KINDS),
    id: z.string(),
    sessionsDone: count,
    sessionsTotal: count,
    removedParts: count,
    complete: z.boolean(),
  }),
} as const;
