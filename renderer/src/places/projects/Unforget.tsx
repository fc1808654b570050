import { useEffect, useRef, type ReactElement } from 'react';
import type { Tombstone } from '../../../../core/api/index.js';
import { Button, ErrorBanner } from '../../components/index.js';
import { useAction, type ActionState } from '../../hooks.js';
import { IMPORT_HREF } from './importing.js';
import { liftedSentence } from './opened.js';
import './projects.css';

/** A `Forget.Lift` in hand: held by the view that says what was forgotten, so those words give way once it is lifted. */
export type Lift = ActionState<'Forget.Lift'>;

/** The lift a view holds, or its own: a view passes one in only to be rendered as lifted (tests). */
export function useLift(given?: Lift): Lift {
  const own = useAction('Forget.Lift');
  return given ?? own;
}

/**
 * Once lifted, how it is named (`what`, "This conversation" by default) and what the next import
 * brings back (`back`: "it", "both", "its conversations").
 */
export interface LiftedNames {
  what?: string;
  back?: string;
}

/**
 * Lifts what was forgotten, from where the person saw it forgotten: the answer replaces the button
 * and takes the focus, with the way to bring the conversations back (an import of earlier history:
 * lifting only lets the next one import them, `Forget.Lift`). `lift`: the view's, when its own words
 * give way too (useLift); else Unforget holds its own.
 */
export function Unforget({ kind, id, label = 'Unforget', lift: given, names = {} }: { kind: Tombstone['kind']; id: string; label?: string; lift?: Lift; names?: LiftedNames }): ReactElement {
  const lift = useLift(given);
  const said = useRef<HTMLParagraphElement>(null);
  const lifted = lift.data?.lifted;
  useEffect(() => {
    if (lifted !== undefined) said.current?.focus();
  }, [lifted]);
  const back = names.back ?? (kind === 'session' ? 'it' : 'its conversations');
  return (
    <div className="unforget">
      {lifted === undefined ? (
        <Button onClick={() => void lift.run({ kind, id })} disabled={lift.busy}>
          {lift.busy ? 'Unforgetting…' : label}
        </Button>
      ) : (
        <p role="status" tabIndex={-1} ref={said} className="unforget__said">
          {liftedSentence(kind, lifted, names.what)} <a href={IMPORT_HREF}>Import earlier history</a> on Projects, reaching back to when {back === 'it' ? 'it was' : 'they were'} written, brings {back} back.
        </p>
      )}
      <ErrorBanner title="Nothing was unforgotten." error={lift.error} />
    </div>
  );
}
