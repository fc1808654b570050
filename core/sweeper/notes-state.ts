import { localTime, SWEEP_SKIP_WORDS, sweepFailureWords, sweepSkipWords, type ProjectNotes } from '../api/index.js';
import type { SweeperState } from './state.js';

/** What the gate knows of a project besides its sweep state: settings, the ignore list, a curator's pause. */
export interface NotesGate {
  enabled: boolean;
  ignored: boolean;
  /** The configured curator is paused (the provider refused, or today's budget is spent). */
  paused: boolean;
  now: number;
}

/** The sweep state the rule reads (a view without `notesStaleSince` reads as notes not withheld). */
type NotesOfState = Pick<SweeperState, 'scratch' | 'lastOutcome' | 'lastError' | 'nextAttemptAt' | 'watermark'> & { notesStaleSince?: number | null };

/** A failed or paused sweep: why, by its code (a failure's own message names the model's host), and when it is tried again. */
function failedNotes(state: NotesOfState, gate: NotesGate): ProjectNotes {
  const why = sweepFailureWords(state.lastError?.code);
  if (state.lastOutcome === 'paused' || gate.paused) return { state: 'paused', words: `${SWEEP_SKIP_WORDS.paused} The last sweep stopped: ${why}.` };
  const next = state.nextAttemptAt !== null && state.nextAttemptAt > gate.now ? ` ${sweepSkipWords('backoff', localTime(state.nextAttemptAt))}` : '';
  return { state: 'failed', words: `The last sweep failed: ${why}.${next}` };
}

/**
 * Where one project's notes stand, judged as the sweeper's gate (Sweeper#gate) judges a sweep:
 * settings first (off, scratch, ignored), then notes withheld after a forget, then a failure, then
 * whether any notes were written, then whether activity is newer than what they cover. Reads no file:
 * the caller has the state.
 */
export function projectNotes(lastActivityAt: number | null, state: NotesOfState, gate: NotesGate): ProjectNotes {
  if (!gate.enabled) return { state: 'off', words: SWEEP_SKIP_WORDS.disabled! };
  if (state.scratch) return { state: 'scratch', words: SWEEP_SKIP_WORDS.scratch! };
  if (gate.ignored) return { state: 'ignored', words: SWEEP_SKIP_WORDS.ignored! };
  if (state.notesStaleSince) return { state: 'waiting', words: 'Withheld since a conversation was forgotten; the next sweep rebuilds them.' };
  if (state.lastOutcome === 'failed' || state.lastOutcome === 'paused') return failedNotes(state, gate);
  // Never swept: "no notes yet", as the panel's label says it, whether or not there is activity to write them from.
  if (state.watermark === null) return { state: 'none', words: lastActivityAt === null ? 'No notes yet: nothing to curate.' : 'No notes yet; `steward sweeper run` writes them now.' };
  if (lastActivityAt !== null && lastActivityAt > state.watermark) {
    return { state: 'waiting', words: 'Activity since the last sweep is not in the notes yet; `steward sweeper run` curates it now.' };
  }
  return { state: 'current', words: SWEEP_SKIP_WORDS['no-activity']! };
}
