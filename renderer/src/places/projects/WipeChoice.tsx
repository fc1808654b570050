import { useState, type ReactElement } from 'react';
import type { EventPayload } from '../../../../core/api/index.js';
import { countOf } from '../../components/index.js';
import { useCall, useEvent } from '../../hooks.js';
import { wipingSentence } from './wipe-words.js';

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

/**
 * What a wipe asked with a forget is doing, where the person looks while the forget runs: waiting for
 * the disk once the rows are gone, then each phase; undefined before the forget has deleted its rows.
 */
export function useWiping(): { sentence: string | undefined; reset: () => void } {
  const [progress, setProgress] = useState<EventPayload<'forget.scrub'>>();
  const [erased, setErased] = useState(false);
  useEvent('forget.scrub', setProgress);
  useEvent('forget.progress', (p) => {
    // A failed forget's last word is no erase: the wipe waits for none.
    if (p.complete && p.failed !== true) setErased(true);
  });
  const reset = () => {
    setProgress(undefined);
    setErased(false);
  };
  return { sentence: wipingSentence(progress, erased), reset };
}
