import { describe, expect, it } from 'vitest';
import { documentErrors, NEW_DRAFT, requestOf, type SetupDraft } from '../../../renderer/src/places/maintenance/setup-draft.js';

// The panel's Local documents: what the form sends, and which row a refusal is about.

const draft: SetupDraft = {
  ...NEW_DRAFT,
  repo: 'acme/widgets',
  documents: [
    { kind: 'worktree', path: ' /home/me/notes ', ref: '' },
    { kind: 'git', path: '', ref: '' },
    { kind: 'git', path: '/home/me/docs', ref: '' },
    { kind: 'git', path: '/home/me/site', ref: 'v2' },
  ],
};

describe('Local documents in the setup form', () => {
  it('sends each filled row as a source of the contract, a repository without a ref at its branch, and nothing for a policy change', () => {
    expect(requestOf(draft).sources).toEqual([
      { kind: 'worktree', ref: 'worktree', root: '/home/me/notes' },
      { kind: 'git', ref: 'HEAD', root: '/home/me/docs' },
      { kind: 'git', ref: 'v2', root: '/home/me/site' },
    ]);
    expect(requestOf({ ...draft, documents: [] })).not.toHaveProperty('sources');
    expect(requestOf({ ...draft, registrationId: 'reg_1' })).not.toHaveProperty('sources');
  });

  it("puts the owner's refusal beside the row it names, counting only the rows sent", () => {
    const owner = { fields: { 'sources.1.root': { message: 'There is no folder there.' } } };
    expect(documentErrors(owner, draft)).toEqual({ rows: { 2: { path: 'There is no folder there.' } } });
    const contract = { issues: [{ path: 'sources.2.ref', message: 'a ref may not start with "-"' }, { path: 'repo', message: 'expected OWNER/NAME' }] };
    expect(documentErrors(contract, draft)).toEqual({ rows: { 3: { ref: 'a ref may not start with "-"' } } });
    expect(documentErrors({ fields: { sources: { message: 'An agent may not add local document folders.' } } }, draft)).toEqual({ rows: {}, section: 'An agent may not add local document folders.' });
    expect(documentErrors(undefined, draft)).toEqual({ rows: {} });
  });
});
