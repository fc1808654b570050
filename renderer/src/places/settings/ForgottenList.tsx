import { useEffect, useState, type ReactElement } from 'react';
import type { Tombstone } from '../../../../core/api/index.js';
// A subagent's parent by the owner's own rule: names.js imports nothing, so the panel may load it.
import { subagentParentOf } from '../../../../core/api/names.js';
import { Button, conversationName, ErrorBanner, formatPastTime, Panel } from '../../components/index.js';
import { useCall } from '../../hooks.js';
import { useCheck } from '../sessions/CheckNow.js';
import { checkedSentence, offersCheck, type Check } from '../sessions/held.js';
import { keepLifted } from '../sessions/unforgotten.js';
import { Unforget, useLift, type Lift } from '../projects/Unforget.js';
import { WipeStatus } from '../projects/WipeStatus.js';
import { SECTIONS } from './sections.js';

/** How many characters of an id a row shows; the whole id is its tooltip, as Lift needs it whole. */
const ID_CHARS = 12;

/**
 * What a forgotten row is called: its label, else its id (`steward forget --not-stored` keeps no label),
 * so two unlabelled rows are told apart and each matches what `steward forget --list` prints. An
 * unlabelled subagent is named by the conversation it belongs to (`parentName`, when known): its cut id
 * would read as that conversation's.
 */
export function TombstoneName({ tombstone, parentName }: { tombstone: Pick<Tombstone, 'id' | 'label'>; parentName?: string | undefined }): ReactElement {
  const { id, label } = tombstone;
  if (label !== null) return <strong>{label}</strong>;
  if (subagentParentOf(id) !== null) return <strong title={id}>Subagent of {parentName ?? 'a conversation'}</strong>;
  return <code title={id}>{id.length > ID_CHARS + 1 ? `${id.slice(0, ID_CHARS)}…` : id}</code>;
}

/** A subagent's conversation by its name: its forget record's label when it was forgotten too, else as Steward holds it (redacted). */
function useParentName(parentId: string | null, tombstones: readonly Tombstone[]): string | undefined {
  const forgotten = tombstones.find((t) => t.kind === 'session' && t.id === parentId);
  const held = useCall('Sessions.Get', { sessionId: parentId ?? '', limit: 1, redact: true }, { skip: parentId === null || forgotten !== undefined });
  if (forgotten) return forgotten.label ?? undefined;
  return held.data ? conversationName(held.data.session) : undefined;
}

/** When this view first saw the record lifted: the row's time then says when it was unforgotten. */
function useLiftedAt(lifted: boolean): number | undefined {
  const [at, setAt] = useState<number>();
  // Set while rendering, React's way to keep what an earlier render saw: the first render that sees the lift says "just now".
  if (lifted && at === undefined) setAt(Date.now());
  return lifted ? at : undefined;
}

/**
 * After Unforget, the import the next check would run, now (Sweep.Tick, as `steward sweep`: the API
 * scopes it to nothing narrower), with what it brought back said beside the button; until pressed, that
 * the next check brings it back anyway. `check`: given only to render its result (tests).
 */
export function ImportNow({ check: given, kind }: { check?: Check; kind: Tombstone['kind'] }): ReactElement {
  const check = useCheck(given);
  const what = kind === 'session' ? 'it' : 'its conversations';
  return (
    <div className="forgotten-list__now">
      <Button onClick={() => void check.run({})} disabled={check.busy}>
        {check.busy ? 'Importing…' : 'Import now'}
      </Button>
      <span role="status">{check.data ? checkedSentence(check.data) : `Or leave it: Steward's next check brings ${what} back.`}</span>
      <ErrorBanner title="The import did not complete." error={check.error} />
    </div>
  );
}

/**
 * One forgotten row, with Unforget beside it; a subagent says so, and whose it is. Once lifted it says
 * "unforgotten", and Unforget's answer goes under the name: beside it, that sentence squeezed the name
 * to a letter a line, and Import now under it when the next check would bring it back.
 * `lift`, `check`: given only to render it lifted, or imported (tests).
 */
export function ForgottenRow({ tombstone: t, tombstones, lift: given, check }: { tombstone: Tombstone; tombstones: readonly Tombstone[]; lift?: Lift; check?: Check }): ReactElement {
  const parentId = t.kind === 'session' ? subagentParentOf(t.id) : null;
  const parentName = useParentName(parentId, tombstones);
  const lift = useLift(given);
  // The tab keeps it, as when unforgotten on its own page: that page, opened or reloaded before it is back, says it was unforgotten.
  useEffect(() => {
    if (lift.data) keepLifted(t.kind, t.id, lift.data);
  }, [t.kind, t.id, lift.data]);
  const liftedAt = useLiftedAt(lift.data?.lifted !== undefined);
  // An unlabelled subagent's name says already what it is and whose (TombstoneName).
  const what = t.kind === 'project' ? 'project, ' : parentId === null ? 'conversation, ' : t.label !== null ? `subagent of ${parentName ?? 'a conversation'}, ` : '';
  const [verb, at] = liftedAt === undefined ? ['forgotten', t.createdAt] : ['unforgotten', liftedAt];
  return (
    <li className={liftedAt === undefined ? 'forgotten-list__item' : 'forgotten-list__item forgotten-list__item--lifted'}>
      <span>
        <TombstoneName tombstone={t} parentName={parentName} />{' '}
        <span className="muted">
          {what}
          {verb} <time dateTime={new Date(at).toISOString()}>{formatPastTime(at)}</time>
        </span>
      </span>
      <Unforget kind={t.kind} id={t.id} lift={lift} />
      {offersCheck(lift.data) && <ImportNow kind={t.kind} {...(check ? { check } : {})} />}
    </li>
  );
}

/**
 * What was forgotten (`Forget.List`), each with Unforget beside it. Read once per visit, not on every
 * forget event: a lifted row stays, with what Unforget said in place of its button, until the person
 * comes back.
 */
export function ForgottenList(): ReactElement {
  const list = useCall('Forget.List', {});
  const tombstones = list.data?.tombstones ?? [];
  return (
    <Panel title={SECTIONS.forgotten.title} id={SECTIONS.forgotten.id}>
      <ErrorBanner title="The forgotten list could not be read." error={list.error} onRetry={list.reload} />
      <WipeStatus />
      {list.data !== undefined && tombstones.length === 0 && <p className="muted">Nothing is forgotten. Forget a conversation or a project from its page.</p>}
      {tombstones.length > 0 && (
        <>
          <p className="muted">Steward does not import these again while their transcripts stay on disk.</p>
          <ul className="forgotten-list">
            {tombstones.map((t) => (
              <ForgottenRow key={`${t.kind}:${t.id}`} tombstone={t} tombstones={tombstones} />
            ))}
          </ul>
        </>
      )}
    </Panel>
  );
}
