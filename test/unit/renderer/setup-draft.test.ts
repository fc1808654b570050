import { describe, expect, it } from 'vitest';
import { draftOfRequest, NEW_DRAFT, requestOf } from '../../../renderer/src/places/maintenance/setup-draft.js';

describe('the Maintenance setup form’s draft', () => {
  it('leaves start at login off for a new repository, and says so to core, which would turn it on otherwise', () => {
    expect(NEW_DRAFT.serviceInstall).toBe(false);
    expect(requestOf({ ...NEW_DRAFT, repo: 'octocat/hello-world' })).toMatchObject({ repo: 'octocat/hello-world', serviceInstall: false });
    // Ticked by the person: core's default, so the field is left out.
    expect(requestOf({ ...NEW_DRAFT, repo: 'octocat/hello-world', serviceInstall: true }).serviceInstall).toBeUndefined();
  });

  it('shows an agent’s request as it was sent: start at login unless the agent left it out with false', () => {
    expect(draftOfRequest({ repo: 'octocat/hello-world' }).serviceInstall).toBe(true);
    expect(draftOfRequest({ repo: 'octocat/hello-world', serviceInstall: false }).serviceInstall).toBe(false);
  });
});
