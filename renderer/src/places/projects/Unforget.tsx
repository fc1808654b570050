import { useEffect, useRef, type ReactElement } from 'react';
import type { Tombstone } from '../../../../core/api/index.js';
import { Button, ErrorBanner } from '../../components/index.js';
import { useAction } from '../../hooks.js';
import { placeHref } from '../../navigation.js';
import { liftedSentence } from './opened.js';
import './projects.css';

/**
 * Lifts what was forgotten, from where the person saw it forgotten: the answer replaces the button
 * and takes the focus, with the way to bring the conversations back (an import of earlier history).
 */
export function Unforget({ kind, id, label = 'Unforget' }: { kind: Tombstone['kind']; id: string; label?: string }): ReactElement {
  const lift = useAction('Forget.Lift');
  const said = useRef<HTMLParagraphElement>(null);
  const lifted = lift.data?.lifted;
  useEffect(() => {
    if (lifted !== undefined) said.current?.focus();
  }, [lifted]);
  return (
    <div className="unforget">
      {lifted === undefined ? (
        <Button onClick={() => void lift.run({ kind, id })} disabled={lift.busy}>
          {lift.busy ? 'Unforgetting…' : label}
        </Button>
      ) : (
        <p role="status" tabIndex={-1} ref={said} className="unforget__said">
          {liftedSentence(kind, lifted)} <a href={placeHref('projects')}>Import earlier history</a> on Projects brings {kind === 'session' ? 'it' : 'its conversations'} back.
        </p>
      )}
      <ErrorBanner title="Nothing was unforgotten." error={lift.error} />
    </div>
  );
}
