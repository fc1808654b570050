import type { EventPayload, Tombstone } from '../../../../core/api/index.js';
import { countOf, formatCount } from '../../components/index.js';
import { placeHref } from '../../navigation.js';

/** How far forgetting a project has come, from its `forget.progress` events (none yet: it has just begun). */
export function forgettingSentence(progress: EventPayload<'forget.progress'> | undefined): string {
  if (progress === undefined || progress.sessionsTotal === 0) return 'Forgetting…';
  // The counts are sessions: a subagent is one of its own.
  return `Forgetting… ${formatCount(progress.sessionsDone)} of ${countOf(progress.sessionsTotal, 'conversation')} and subagents deleted so far.`;
}

/** The project opened last from the list: the list highlights it and gives it the focus on return. */
let lastOpened: string | undefined;
/** Whether the open view was reached from the list, so Back can return through history. */
let fromList = false;
export function openedFromList(projectKey: string): void {
  lastOpened = projectKey;
  fromList = true;
}

/** The list is showing again (by Back, Escape or an address): the next view is not reached from it until a row is opened. */
export function listShown(): void {
  fromList = false;
}

export function lastOpenedProject(): string | undefined {
  return lastOpened;
}

/** Back to the list: through history when the list is the previous page, else by address. */
export function backToList(projectKey: string): void {
  lastOpened = projectKey;
  if (fromList) {
    fromList = false;
    window.history.back();
  } else window.location.hash = placeHref('projects');
}

/**
 * The conversation opened from a project's list is kept in the project's own history entry
 * (`history.state`), not in the page's script: Back finds it there after the conversation was reloaded
 * too, as Search keeps the match opened (search/Results.tsx); a project opened afresh is a new entry,
 * and starts at its heading.
 */
const OPENED = 'projectOpened';

type Entry = Pick<History, 'state' | 'replaceState'>;

const stateOf = (entry: Entry): Record<string, unknown> => (typeof entry.state === 'object' && entry.state !== null ? (entry.state as Record<string, unknown>) : {});

/** A conversation opened from the project's list in this tab: the entry shown (the project) remembers it, beside whatever else it holds. */
export function conversationOpened(sessionId: string, entry: Entry = window.history): void {
  entry.replaceState({ ...stateOf(entry), [OPENED]: sessionId }, '');
}

/** The conversation to give the focus back to, if the person comes back from one (the view's heading then keeps its hands off the focus). */
export function conversationToReturnTo(entry: Entry = window.history): string | undefined {
  const sessionId = stateOf(entry)[OPENED];
  return typeof sessionId === 'string' ? sessionId : undefined;
}

/** As conversationToReturnTo, once: the entry forgets it. */
export function takeConversationToReturnTo(entry: Entry = window.history): string | undefined {
  const { [OPENED]: sessionId, ...rest } = stateOf(entry);
  if (typeof sessionId !== 'string') return undefined;
  entry.replaceState(rest, '');
  return sessionId;
}

/** What the list says after a project was forgotten from its view: the project's row is gone, so the sentence is where the person looks. */
export interface ForgottenProject {
  projectKey: string;
  name: string;
  /** The forget also asked to wipe it from the disk: the list says how that went (WipeStatus). */
  wipeAsked?: boolean;
}
let forgottenProject: ForgottenProject | undefined;

export function projectForgotten(project: ForgottenProject): void {
  forgottenProject = project;
}

/** The project forgotten last, until the list that says so has been shown (then `forgottenProjectShown`). */
export function lastForgottenProject(): ForgottenProject | undefined {
  return forgottenProject;
}

export function forgottenProjectShown(): void {
  forgottenProject = undefined;
}

/** The list's sentence about a project just forgotten. */
export function forgottenSentence(project: ForgottenProject): string {
  return `Forgot ${project.name}: its conversations and notes were deleted from Steward, and it is not imported again while its transcripts stay on disk.`;
}

/** What Unforget says once the tombstone is lifted (or was already gone, lifted elsewhere); `what` names it where "this" would not (a subagent's page lifting its conversation). */
export function liftedSentence(kind: 'session' | 'project', lifted: boolean, what = kind === 'session' ? 'This conversation' : 'This project'): string {
  return lifted ? `${what} is no longer forgotten.` : `Nothing to unforget: ${what.charAt(0).toLowerCase()}${what.slice(1)} is not forgotten.`;
}

/** A project's own forget record (`Forget.List`), by its key or by the name it had (in any case), as an address may name it. */
export function forgottenProjectRecord(tombstones: readonly Tombstone[], keyOrName: string): Tombstone | undefined {
  const name = keyOrName.toLowerCase();
  return tombstones.find((t) => t.kind === 'project' && (t.id === keyOrName || t.label?.toLowerCase() === name));
}
