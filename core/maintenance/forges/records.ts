import { z } from 'zod';
import type { CommentRecord, ItemRecord } from './types.js';

/**
 * Defensive shapes of forge records. Each field forgives what forges really send (GitCode's string
 * issue numbers and +08:00 offsets, JSON big integers, null bodies); an entry that still fails is
 * counted and skipped by the caller, never its page.
 */
export const Id = z.union([z.number().int().nonnegative(), z.bigint().nonnegative(), z.string().regex(/^\d{1,30}$/)]).transform(String);
export const Num = z.union([z.number().int().positive(), z.string().regex(/^\d{1,12}$/).transform(Number)]);
const Time = z
  .string()
  .nullish()
  .transform((s, ctx) => {
    if (s === null || s === undefined || s === '') return null;
    const at = Date.parse(s);
    if (!Number.isFinite(at)) {
      ctx.addIssue({ code: 'custom', message: 'not a time' });
      return z.NEVER;
    }
    return at;
  });
export const RequiredTime = Time.refine((v) => v !== null, 'missing time');
const Text = z
  .string()
  .nullish()
  .transform((s) => s ?? '');
const User = z
  .object({ login: z.string().nullish(), username: z.string().nullish(), name: z.string().nullish() })
  .nullish()
  .transform((u) => u?.login ?? u?.username ?? u?.name ?? null);
const Labels = z
  .array(z.union([z.string(), z.object({ name: z.string() })]))
  .nullish()
  .transform((ls) => (ls ?? []).map((l) => (typeof l === 'string' ? l : l.name)).slice(0, 100));
const Url = z.string().max(2_000).nullish().transform((s) => s ?? null);
const Count = z.number().int().nonnegative().nullish().transform((n) => n ?? null);
export { Time, Text, User, Labels, Url, Count };

const NUMBER_AT_END = /\/(?:issues|pulls|pull|merge_requests)\/(\d+)(?:[#?].*)?$/;

/** An issue or pull number from the tail of a URL the forge gives for a comment's parent. */
export function numberFromUrl(...urls: Array<string | null | undefined>): number | null {
  for (const url of urls) {
    const match = typeof url === 'string' ? NUMBER_AT_END.exec(url) : null;
    if (match) return Number(match[1]);
  }
  return null;
}

/** A GitHub/Gitea/GitCode issue or pull request as the list endpoints send it. */
export const RawItem = z.object({
  id: Id,
  number: Num,
  title: Text,
  body: Text,
  state: z.string().max(40).nullish(),
  user: User,
  labels: Labels,
  comments: Count,
  created_at: Time,
  updated_at: RequiredTime,
  closed_at: Time,
  merged_at: Time.optional(),
  merged: z.boolean().nullish(),
  html_url: Url,
  pull_request: z.unknown().optional(),
});
export type RawItem = z.output<typeof RawItem>;

export function itemOf(collection: ItemRecord['collection'], raw: RawItem): ItemRecord {
  const merged = collection === 'pulls' && (raw.merged === true || (raw.merged_at ?? null) !== null);
  return {
    type: 'item',
    collection,
    externalId: raw.id,
    number: raw.number,
    title: raw.title,
    body: raw.body,
    state: merged ? 'merged' : (raw.state ?? 'open').toLowerCase(),
    author: raw.user,
    labels: raw.labels,
    url: raw.html_url,
    createdAt: raw.created_at,
    updatedAt: raw.updated_at,
    closedAt: raw.closed_at,
    commentCount: raw.comments,
  };
}

export const RawComment = z.object({
  id: Id,
  body: Text,
  user: User,
  created_at: Time,
  updated_at: RequiredTime,
  html_url: Url,
  issue_url: Url.optional(),
  pull_request_url: Url.optional(),
  pull_request_review_id: Id.nullish(),
  in_reply_to_id: Id.nullish(),
  path: z.string().max(2_000).nullish(),
  line: z.number().int().nullish(),
  original_line: z.number().int().nullish(),
  position: z.number().int().nullish(),
  /** GitCode (Gitee-style) names the parent of a repo-wide comment here. */
  target: z.object({ issue: z.object({ number: Num }).nullish(), pull_request: z.object({ number: Num }).nullish() }).nullish(),
});
export type RawComment = z.output<typeof RawComment>;

export function commentOf(raw: RawComment, collection: CommentRecord['collection'], itemNumber: number): CommentRecord {
  return {
    type: 'comment',
    collection,
    externalId: raw.id,
    itemNumber,
    body: raw.body,
    author: raw.user,
    url: raw.html_url,
    createdAt: raw.created_at,
    updatedAt: raw.updated_at,
    path: raw.path ?? null,
    line: raw.line ?? raw.original_line ?? raw.position ?? null,
    reviewId: raw.pull_request_review_id ?? null,
    inReplyTo: raw.in_reply_to_id ?? null,
  };
}

/** Parses each entry on its own: the good ones are kept, the malformed ones counted. */
export function parseEach<T>(data: unknown, parse: (entry: unknown) => T | null | 'filtered'): { records: T[]; skipped: number; raw: number } | null {
  if (!Array.isArray(data)) return null;
  const records: T[] = [];
  let skipped = 0;
  for (const entry of data) {
    let out: T | null | 'filtered';
    try {
      out = parse(entry);
    } catch {
      out = null;
    }
    if (out === 'filtered') continue;
    if (out === null) skipped += 1;
    else records.push(out);
  }
  return { records, skipped, raw: data.length };
}
