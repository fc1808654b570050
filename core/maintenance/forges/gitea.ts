import { z } from 'zod';
import { commentOf, Id, itemOf, numberFromUrl, RawComment, RawItem } from './records.js';
import { allPages, type Dialect } from './rest.js';
import type { CommentRecord, StreamRecord } from './types.js';

/** Gitea clamps `limit` to its MAX_RESPONSE_ITEMS, 50 by default. */
const LIMIT = 50;

function parseComment(entry: unknown): StreamRecord | null {
  const raw = RawComment.parse(entry);
  const onPull = (raw.pull_request_url ?? '') !== '' || /\/pulls\/\d+/.test(raw.html_url ?? '');
  const number = onPull ? numberFromUrl(raw.pull_request_url, raw.html_url, raw.issue_url) : numberFromUrl(raw.issue_url, raw.html_url);
  return number === null ? null : commentOf(raw, onPull ? 'pr-comments' : 'issue-comments', number);
}

const Review = z.object({ id: Id });

/**
 * Gitea and Forgejo (`https://HOST/api/v1`). The issue list has no sort (newest created first) but
 * filters by `since`; there is no repo-wide review-comment list, so review comments are read per
 * pull request through its reviews.
 */
export const giteaDialect: Dialect = {
  kind: 'gitea',
  perPage: LIMIT,
  streams: {
    issues: { recent: 'since-only', stable: 'created-desc' },
    pulls: { recent: 'sorted', stable: 'created-asc' },
    'issue-comments': { recent: 'since-only', stable: 'created-asc' },
  },
  listPath: (stream) => ({ issues: '/issues', pulls: '/pulls', 'issue-comments': '/issues/comments', 'review-comments': '/pulls/comments' })[stream],
  listQuery(stream, order, page, since, limit) {
    if (stream === 'pulls') return { state: 'all', sort: order === 'stable' ? 'oldest' : 'recentupdate', page, limit };
    const filter = since !== undefined && order === 'recent' ? { since } : {};
    if (stream === 'issues') return { state: 'all', type: 'issues', ...filter, page, limit };
    return { ...filter, page, limit };
  },
  parse(stream, entry) {
    if (stream === 'issues') {
      const raw = RawItem.parse(entry);
      return raw.pull_request !== undefined && raw.pull_request !== null ? 'filtered' : itemOf('issues', raw);
    }
    if (stream === 'pulls') return itemOf('pulls', RawItem.parse(entry));
    return parseComment(entry);
  },
  pageQuery: (page, limit) => ({ page, limit }),
  itemCommentsPath: (number) => `/issues/${number}/comments`,
  // Gitea's and Forgejo's /api/v1/version answers {"version": "1.21.0"}; the web host answers 404.
  root: { path: '/version', answers: (data) => typeof (data as { version?: unknown } | null)?.version === 'string' },
  async pullComments(get, number, limit, signal) {
    const reviews = await allPages(get, `/pulls/${number}/reviews`, (page) => ({ page, limit }), limit, (e) => Review.parse(e).id, signal);
    const records: CommentRecord[] = [];
    let skipped = reviews.skipped;
    for (const reviewId of reviews.records) {
      const comments = await allPages(
        get,
        `/pulls/${number}/reviews/${reviewId}/comments`,
        (page) => ({ page, limit }),
        limit,
        (e) => ({ ...commentOf(RawComment.parse(e), 'pr-comments', number), reviewId }),
        signal,
      );
      records.push(...comments.records);
      skipped += comments.skipped;
    }
    return { records, skipped };
  },
};
