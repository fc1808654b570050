import { realpathSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { openCacheForWrite } from '../../../core/maintenance/cache.js';
import { commentOf, RawComment } from '../../../core/maintenance/forges/records.js';
import { CacheWriter } from '../../../core/maintenance/lanes/store.js';
import { ragRig, REPO, type RagRig } from './rag-rig.js';

function comment(id: number, body: string, path?: string) {
  return RawComment.parse({
    id,
    pull_request_url: 'https://api.github.com/repos/inkwell-app/inkwell/pulls/12',
    body,
    user: { login: 'zoe-q' },
    created_at: '2024-06-02T10:00:00Z',
    updated_at: '2024-06-02T10:00:00Z',
    html_url: `https://github.com/inkwell-app/inkwell/pull/12#discussion_r${id}`,
    ...(path ? { path, line: 40 } : {}),
  });
}

describe('where a repository hit carries a file', () => {
  let rig: RagRig | undefined;
  afterEach(() => {
    rig?.cleanup();
    rig = undefined;
  });

  it("carries a document's path within its source and a review comment's file, and nothing for a conversation comment", async () => {
    rig = ragRig({ issues: 3, wiki: false });
    const db = openCacheForWrite(realpathSync(rig.cache), 'pf_test');
    const w = new CacheWriter(db, REPO, Date.now);
    w.transaction(() => {
      w.upsertPage('documents', 'notes:docs/architecture.md', 'r1', { title: 'architecture', body: 'The quaternion scheduler hands frames to the compositor.', url: null, updatedAt: null }, 'documents:notes', 1);
      w.upsertComment(commentOf(comment(501, 'This quaternion cast loses precision on this line.', 'src/math/rotate.ts'), 'pr-comments', 12), 'review-comments', 1);
      w.upsertComment(commentOf(comment(502, 'Thanks, the quaternion change looks good to me overall.'), 'pr-comments', 12), 'issue-comments', 1);
    });
    db.close();
    await rig.maintenance.reconcile();
    const { hits } = await rig.search('quaternion');
    const byKind = (c: string, text: RegExp) => hits.find((h) => h.collection === c && text.test(h.snippet));
    expect(byKind('documents', /scheduler/)).toMatchObject({ title: 'architecture', path: 'docs/architecture.md' });
    expect(byKind('pr-comments', /precision/)).toMatchObject({ number: 12, path: 'src/math/rotate.ts' });
    expect(byKind('pr-comments', /looks good/)).toMatchObject({ number: 12, path: null });
    expect(hits.filter((h) => h.collection === 'issues').every((h) => h.path === null)).toBe(true);
  });
});
