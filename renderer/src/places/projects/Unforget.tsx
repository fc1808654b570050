import { useEffect, useRef, type ReactElement } from 'react';
import type { ForgetCover, Result, Tombstone } from '../../../../core/api/index.js';
import { otherSpellingsWords } from '../../../../core/api/names.js';
import { sweepRunWords } from '../../../../core/api/sweeper-words.js';
import { Button, ErrorBanner, formatPastTime } from '../../components/index.js';
import { useAction, type ActionState } from '../../hooks.js';
import { projectHref, sessionHref } from '../../navigation.js';
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

/** When a forget record was made, as a `<time>` a sentence can hold. */
function ForgottenWhen({ record }: { record: ForgetCover }): ReactElement {
  return <time dateTime={new Date(record.createdAt).toISOString()}>{formatPastTime(record.createdAt)}</time>;
}

/**
 * A conversation another record still keeps out once its own is lifted (`stillOut`): its project's,
 * forgotten after it (capture withholds a forgotten project's conversations), or the conversation it is a
 * subagent of. Said instead of the import that would bring it back, with that record's own Unforget.
 */
function StillOut({ record }: { record: ForgetCover }): ReactElement {
  const name = record.label ?? record.id;
  if (record.kind === 'project') {
    return (
      <>
        Lifted, but this conversation stays out of imports: its project <a href={projectHref(record.id)}>{name}</a> is forgotten (<ForgottenWhen record={record} />), and Steward imports
        none of a forgotten project&rsquo;s conversations.
        <Unforget kind="project" id={record.id} label={`Unforget the project ${name}`} names={{ what: `The project ${name}`, back: 'its conversations' }} />
      </>
    );
  }
  return (
    <>
      Lifted, but this conversation stays out of imports: the conversation it belongs to (<a href={sessionHref(record.id)}>{name}</a>) is forgotten (<ForgottenWhen record={record} />), and its
      subagents stay out with it.
      <Unforget kind="session" id={record.id} label="Unforget that conversation" names={{ what: 'The conversation this subagent belongs to', back: 'both' }} />
    </>
  );
}

/**
 * When what was lifted comes back (Forget.Lift's `nextCheck`): at the next check when the files that held
 * it are inside the regular checks' window, else (or for the older ones) with an import of earlier history.
 */
/** Lifted, with nothing to import (Forget.Lift's `nothingLeft`): its rows were deleted and its transcripts are gone from disk. */
export function nothingLeftWords(kind: 'session' | 'project'): string {
  return kind === 'session'
    ? "But nothing of it is left to import: the forget deleted Steward's copy, and its transcript is no longer on disk."
    : "But nothing of it is left to import: the forget deleted Steward's copy, and none of its conversations' transcripts is on disk any more.";
}

/**
 * What a lift of a forget made before anything of it was stored says when no read has met a file of it
 * (Forget.Lift's `neverStored`): one may still be on disk (older than the window, or not checked yet), so
 * it says where one comes from, not that nothing comes.
 */
export function neverStoredWords(kind: 'session' | 'project'): string {
  const noun = kind === 'session' ? 'conversation' : 'project';
  return `Steward never stored that ${noun}, and no check has found a transcript of it yet: the next check imports one inside the regular checks' window; Import earlier history brings in older ones.`;
}

/** Which of the three things a lift says about coming back (Forget.Lift's answer): one rule for the panel's words. */
export function comesBackAs(lifted: Pick<Result<'Forget.Lift'>, 'nothingLeft' | 'neverStored'>): 'nothingLeft' | 'neverStored' | 'comesBack' {
  if (lifted.nothingLeft) return 'nothingLeft';
  return lifted.neverStored ? 'neverStored' : 'comesBack';
}

function ComesBack({ nextCheck, back, ifOnDisk = false }: { nextCheck: Result<'Forget.Lift'>['nextCheck']; back: string; ifOnDisk?: boolean | undefined }): ReactElement {
  // Its files are inside the window; a message in them older than it (a conversation begun long ago) waits for Import earlier history.
  if (nextCheck === 'all') return <>Steward&rsquo;s next check brings {back} back (any message older than the regular checks reach comes with Import earlier history).</>;
  const earlier = <a href={IMPORT_HREF}>Import earlier history</a>;
  if (nextCheck === 'part') {
    return (
      <>
        Steward&rsquo;s next check brings back what the regular checks reach; {earlier} on Projects, reaching back to when {back === 'it' ? 'it was' : 'they were'} written, brings back the rest.
      </>
    );
  }
  return (
    <>
      {earlier} on Projects, reaching back to when {back === 'it' ? 'it was' : 'they were'} written, brings {back} back
      {/* Stored before Steward recorded its files (Forget.Lift's ifOnDisk): whether they are still there is not known. */}
      {ifOnDisk ? ` if ${back === 'it' ? 'its transcript is' : 'their transcripts are'} still on disk` : ''}.
    </>
  );
}

/** Sweep now for a project from where it was unforgotten, with what the sweep did said beside it. */
function SweepAgain({ projectKey }: { projectKey: string }): ReactElement {
  const sweep = useAction('Sweeper.Run');
  return (
    <span className="unforget__sweep">
      <Button variant="quiet" onClick={() => void sweep.run({ projectKey })} disabled={sweep.busy}>
        {sweep.busy ? 'Sweeping…' : 'Sweep now'}
      </Button>
      <span role="status">{sweep.data && sweepRunWords(sweep.data)}</span>
      <ErrorBanner title="The sweep did not complete; nothing was written." error={sweep.error} />
    </span>
  );
}

/**
 * A project's notes the forget this lift cut short removed (`notesRemoved`): they do not come back with
 * its rows; only a sweep writes them again, best once the import brought its conversations back.
 */
function NotesRemoved({ kind, id }: { kind: Tombstone['kind']; id: string }): ReactElement {
  return (
    <>
      {' '}
      Its notes (OVERVIEW.md, CHANGELOG.md) were removed when the forget this cut short began, and do not come back with the import: the project&apos;s next sweep writes them again,
      best once its conversations are back.{kind === 'project' && <SweepAgain projectKey={id} />}
    </>
  );
}

/**
 * Lifts what was forgotten, from where the person saw it forgotten: the answer replaces the button
 * and takes the focus, with when the conversations come back (the next check, for files inside its
 * window; an import of earlier history, for older ones: `Forget.Lift`), or what still keeps it out, and whether
 * its notes wait for a sweep. `lift`: the view's, when its own words give way too (useLift); else
 * Unforget holds its own.
 */
export function Unforget({ kind, id, label = 'Unforget', lift: given, names = {} }: { kind: Tombstone['kind']; id: string; label?: string; lift?: Lift; names?: LiftedNames }): ReactElement {
  const lift = useLift(given);
  const said = useRef<HTMLDivElement>(null);
  const lifted = lift.data?.lifted;
  useEffect(() => {
    if (lifted !== undefined) said.current?.focus();
  }, [lifted]);
  const back = names.back ?? (kind === 'session' ? 'it' : 'its conversations');
  const stillOut = lift.data?.stillOut;
  return (
    <div className="unforget">
      {lifted === undefined ? (
        <Button onClick={() => void lift.run({ kind, id })} disabled={lift.busy}>
          {lift.busy ? 'Unforgetting…' : label}
        </Button>
      ) : (
        <div role="status" tabIndex={-1} ref={said} className="unforget__said">
          {stillOut ? (
            <StillOut record={stillOut} />
          ) : (
            <>
              {liftedSentence(kind, lifted, names.what)}{' '}
              {lift.data && comesBackAs(lift.data) === 'nothingLeft' ? (
                nothingLeftWords(kind)
              ) : lift.data && comesBackAs(lift.data) === 'neverStored' ? (
                neverStoredWords(kind)
              ) : (
                <ComesBack nextCheck={lift.data?.nextCheck} back={back} ifOnDisk={lift.data?.ifOnDisk} />
              )}
              {lift.data?.otherSpellings !== undefined && <> {otherSpellingsWords(lift.data.otherSpellings)}</>}
            </>
          )}
          {lift.data?.notesRemoved && <NotesRemoved kind={kind} id={id} />}
        </div>
      )}
      <ErrorBanner title="Nothing was unforgotten." error={lift.error} />
    </div>
  );
}
