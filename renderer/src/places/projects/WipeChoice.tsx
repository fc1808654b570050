import { useState, type ReactElement } from 'react';
import type { EventPayload } from '../../../../core/api/index.js';
import { countOf } from '../../components/index.js';
import { useCall, useEvent } from '../../hooks.js';

/** "about 3 seconds": how long a wipe of this cache takes, from the owner's estimate. */
function aboutSeconds(ms: number | undefined): string {
  if (ms === undefined) return 'a few seconds';
  if (ms < 1_500) return 'about a second';
  const seconds = Math.round(ms / 1000);
  return seconds < 120 ? `about ${countOf(seconds, 'second')}` : `about ${countOf(Math.round(seconds / 60), 'minute')}`;
}

/**
 * A forget's choice to wipe what it deletes from the disk too (the `scrub` of Forget.Session and
 * Forget.Project), with what it costs on this cache. Mounted with the question only, so the estimate
 * is asked when the person asks to forget.
 */
export function WipeChoice({ checked, onChange }: { checked: boolean; onChange: (checked: boolean) => void }): ReactElement {
  const status = useCall('Forget.ScrubStatus', {});
  return (
    <label>
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.currentTarget.checked)} /> Also wipe it from the disk now (rewrites the search index:{' '}
      {aboutSeconds(status.data?.estimatedMs)} for this cache)
    </label>
  );
}

/** What a wipe is doing, where the person looks while the forget runs; undefined before it starts. */
export function useWiping(): { sentence: string | undefined; reset: () => void } {
  const [progress, setProgress] = useState<EventPayload<'forget.scrub'>>();
  useEvent('forget.scrub', setProgress);
  if (progress === undefined || progress.complete) return { sentence: undefined, reset: () => setProgress(undefined) };
  const share = progress.total > 0 ? ` ${Math.floor((100 * progress.done) / progress.total)}%` : '';
  const doing = { index: `rewriting the search index…${share}`, free: `overwriting free space…${share}`, journal: 'emptying the journal…' }[progress.phase];
  return { sentence: `Wiping it from the disk: ${doing}`, reset: () => setProgress(undefined) };
}
