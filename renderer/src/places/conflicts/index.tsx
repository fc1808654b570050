import type { ReactElement } from 'react';
import { EmptyState, PlaceHeader } from '../../components/index.js';

/**
 * Conflicts: cache identity conflicts waiting for a decision. The maintenance issue fills this in
 * from `Conflicts.Plan`; until then it explains the empty state.
 */
export function ConflictsPlace(): ReactElement {
  return (
    <>
      <PlaceHeader title="Conflicts" description="Repository caches whose identities disagree and need your decision." />
      <EmptyState icon="check" tone="good" title="No conflicts">
        <p>None means all cache identities agree: every enrolled cache points at the repository it was registered for.</p>
        <p>
          If two registrations ever claim the same cache, or a cache no longer matches its registration, Steward stops maintaining it and
          lists the conflict here with a plan to resolve it.
        </p>
      </EmptyState>
    </>
  );
}
