import { z } from 'zod';
import { IdempotencyKey } from './ids.js';

/**
 * Spec 004's cache identity conflicts and the plans that resolve them. Every shape here is public:
 * path fingerprints and hashes only, never a cache path.
 */
const Id = z.string().min(1).max(200);

export const ConflictMember = z.strictObject({
  registrationId: z.string().nullable(),
  legacyId: z.string().nullable(),
  canonicalRepoId: z.string().nullable(),
  aliases: z.array(z.string()),
  legacyIds: z.array(z.string()),
  policyHash: z.string().nullable(),
  configHash: z.string().nullable(),
  sourceAuthorities: z.array(z.string()),
  priorEnabled: z.boolean(),
});

export const ConflictCandidate = z.strictObject({
  candidateId: z.string(),
  pathFingerprint: z.string().nullable(),
  priorEnabled: z.boolean(),
  members: z.array(ConflictMember),
});
export type ConflictCandidate = z.infer<typeof ConflictCandidate>;

export const ConflictView = z.strictObject({
  conflictId: z.string(),
  kind: z.enum(['identity_conflict', 'identity_unresolved', 'cache_clone_conflict']),
  state: z.enum(['open', 'blocked']),
  blockedReason: z.string().nullable(),
  cacheUuid: z.string().nullable(),
  canonicalRepoId: z.string().nullable(),
  aliases: z.array(z.string()),
  legacyIds: z.array(z.string()),
  createdAt: z.number().int(),
  candidates: z.array(ConflictCandidate),
});
export type ConflictView = z.infer<typeof ConflictView>;

export const PlanEffect = z.strictObject({
  effect: z.enum(['restore', 'retire', 'rebind', 'keep_unresolved']),
  registrationId: z.string().nullable(),
  legacyId: z.string().nullable(),
  canonicalRepoId: z.string().nullable(),
  pathFingerprint: z.string().nullable(),
  enabledAfter: z.boolean(),
  /** What happens to this copy, in words (a retired copy's file is never touched). */
  description: z.string(),
});

export const ConflictPlan = z.strictObject({
  planId: z.string(),
  conflictId: z.string(),
  candidateId: z.string(),
  kind: ConflictView.shape.kind,
  effects: z.array(PlanEffect),
  note: z.string(),
});
export type ConflictPlan = z.infer<typeof ConflictPlan>;

/**
 * What a candidate holds and when it last changed, for the local panel only (never MCP): a person
 * tells copies apart by these, the public-safe fingerprints beside them.
 */
export const CandidateEvidence = z.strictObject({
  candidateId: z.string(),
  /** Live items and comments in the copy; null when it cannot be read. */
  items: z.number().int().nullable(),
  sizeBytes: z.number().int().nullable(),
  /** The newest successful sync recorded for the candidate's registrations. */
  lastSyncAt: z.number().int().nullable(),
  /** When the copy's file last changed on disk. */
  lastModifiedAt: z.number().int().nullable(),
});
export type CandidateEvidence = z.infer<typeof CandidateEvidence>;

export const conflictsMethods = {
  'Conflicts.List': { params: z.strictObject({}), result: z.strictObject({ conflicts: z.array(ConflictView) }) },
  'Conflicts.Plan': { params: z.strictObject({ conflictId: Id, candidateId: Id }), result: ConflictPlan },
  'Conflicts.Evidence': {
    params: z.strictObject({ conflictId: Id }),
    result: z.strictObject({ conflictId: z.string(), candidates: z.array(CandidateEvidence) }),
  },
  'Conflicts.Apply': {
    params: z.strictObject({ planId: Id, idempotencyKey: IdempotencyKey }),
    result: z.strictObject({
      planId: z.string(),
      conflictId: z.string(),
      restored: z.array(z.string()),
      retired: z.array(z.string()),
      followUpConflicts: z.array(z.string()),
      replayed: z.boolean(),
    }),
  },
} as const;
