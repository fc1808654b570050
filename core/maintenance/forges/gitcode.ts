import { commentOf, itemOf, numberFromUrl, RawComment, RawItem } from './records.js';
import { allPages, type Dialect } from './rest.js';
import type { StreamRecord, StreamTraits } from './types.js';

const PER_PAGE = 100;
const SORTED: StreamTraits = { recent: 'sorted', stable: 'created-asc' };

function parseIssueComment(entry: unknown): StreamRecord | null {
  const raw = RawComment.parse(entry);
  const onPull = (raw.target?.pull_request ?? null) !== null || /\/(pulls|merge_requests)\/\d+/.test(raw.html_url ?? '');
  const number = raw.target?.issue?.number ?? raw.target?.pull_request?.number ?? numberFromUrl(raw.issue_url, raw.pull_request_url, raw.html_url);
  return number === null || number === undefined ? null : commentOf(raw, onPull ? 'pr-comments' : 'issue-comments', number);
}

/**
 * GitCode API v5 (`https://api.gitcode.com/api/v5`), laid out like Gitee v5: page/per_page with
 * total_count/total_page headers, string issue numbers, +08:00 timestamps. Pull-request comments are
 * read per pull request. Field shapes are parsed defensively: they are not all documented.
 */
export const gitcodeDialect: Dialect = {
  kind: 'gitcode',
  perPage: PER_PAGE,
  streams: { issues: SORTED, pulls: SORTED, 'issue-comments': { recent: 'since-only', stable: 'created-asc' } },
  listPath: (stream) => ({ issues: '/issues', pulls: '/pulls', 'issue-comments': '/issues/comments', 'review-comments': '/pulls/comments' })[stream],
  listQuery(stream, order, page, since, perPage) {
    const filter = since !== undefined && order === 'recent' && stream !== 'pulls' ? { since } : {};
    if (stream === 'issue-comments') return { ...filter, page, per_page: perPage };
    const sort = order === 'stable' ? { sort: 'created', direction: 'asc' } : { sort: 'updated', direction: 'desc' };
    return { state: 'all', ...sort, ...filter, page, per_page: perPage };
  },
  parse(stream, entry) {
    if (stream === 'issues') return itemOf('issues', RawItem.parse(entry));
    if (stream === 'pulls') return itemOf('pulls', RawItem.parse(entry));
    return parseIssueComment(entry);
  },
  pageQuery: (page, perPage) => ({ page, per_page: perPage }),
  itemCommentsPath: (number) => `/issues/${number}/comments`,
  // v5 has no root document; like Gitee v5 it answers /user (the token's own user) with a JSON object.
  root: { path: '/user', answers: (data) => typeof data === 'object' && data !== null && !Array.isArray(data) },
  pullComments: (get, number, perPage, signal) =>
    allPages(get, `/pulls/${number}/comments`, (page) => ({ page, per_page: perPage }), perPage, (e) => commentOf(RawComment.parse(e), 'pr-comments', number), signal),
};
