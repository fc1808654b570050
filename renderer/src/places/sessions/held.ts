import type { Result } from '../../../../core/api/index.js';
import type { ActionState } from '../../hooks.js';
import { importSentence } from '../projects/importing.js';
import { missedOf } from './missing.js';
import type { Page, SessionPages } from './pages.js';

/** A `Sweep.Tick` in hand: the check `steward sweep` runs, asked for from a conversation not held. */
export type Check = ActionState<'Sweep.Tick'>;

/** What the check did, in the words an import's result is said in: the messages it brought back, or that all was up to date. */
export function checkedSentence(result: Result<'Sweep.Tick'>): string {
  return `Checked now. ${importSentence(result)}`;
}

/**
 * Check now is offered once a lift says the next check brings the conversation back (`nextCheck`):
 * not before Unforget, not while another record keeps it out, and not when only Import earlier history would.
 */
export function offersCheck(lifted: Result<'Forget.Lift'> | undefined): boolean {
  return lifted !== undefined && lifted.stillOut === undefined && lifted.nextCheck !== undefined;
}

export type ViewerShows = 'forgotten' | 'not-loaded' | 'message-missing' | 'loading' | 'page';

/**
 * What the conversation's view shows. Forgotten there (`openedThen`: the page shown when it was), it says
 * so until a page is loaded since, which only a conversation held again gives (a reload of one not held
 * fails and keeps the page it had); then that page. Held, but not the message its address names: `message-missing`.
 */
export function viewerShows(forgotten: { openedThen: Page | undefined } | undefined, pages: Pick<SessionPages, 'page' | 'opened' | 'error'>): ViewerShows {
  if (forgotten && pages.opened === forgotten.openedThen) return 'forgotten';
  if (pages.error && !pages.page) return missedOf(pages.error).missing === 'part' ? 'message-missing' : 'not-loaded';
  return pages.page ? 'page' : 'loading';
}

/**
 * A conversation not shown is asked for again whenever a check or an import settles (`sweep.tick`): it
 * shows once held again. A message the conversation does not hold is settled: asked for again only once
 * the conversation changed (useMissWatch), not on every check.
 */
export function watchesChecks(shows: ViewerShows): boolean {
  return shows === 'forgotten' || shows === 'not-loaded';
}
