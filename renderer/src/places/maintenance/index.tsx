import type { ReactElement } from 'react';
import { EmptyState, PlaceHeader } from '../../components/index.js';

/**
 * Maintenance: the repository caches Steward keeps synced and indexed. The maintenance issue fills
 * this in from `Maintenance.List` / `Maintenance.Plan`; until then it explains the empty state.
 */
export function MaintenancePlace(): ReactElement {
  return (
    <>
      <PlaceHeader title="Maintenance" description="Repository caches that Steward keeps in sync and indexed for retrieval." />
      <EmptyState icon="maintenance" title="No repository caches enrolled">
        <p>
          Repository caches appear once enrolled with <code>steward maintenance enable</code>. Steward then keeps each cache&rsquo;s issues,
          comments, pull requests, wiki and local documents current, and plans every change for you to confirm before it is applied.
        </p>
        <p>No cache has been enrolled on this machine yet, so there is nothing to maintain.</p>
      </EmptyState>
    </>
  );
}
