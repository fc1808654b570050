import { StewardError, SWEEP_SKIP_WORDS, sweepFailureWords, sweepSkipWords, type ProjectSummary, type Result, type StewardClient } from '../../api/index.js';
import { localTime } from '../output.js';

/** Where a project's notes stand, as `steward projects` says it: one word to filter on, and a sentence. */
export const NOTES_STATES = ['current', 'waiting', 'failed', 'paused', 'scratch', 'ignored', 'off', 'none'] as const;
export type NotesState = (typeof NOTES_STATES)[number];
export interface ProjectNotes {
  state: NotesState;
  words: string;
}

type Got = Pick<Result<'Projects.Get'>, 'ignored' | 'state' | 'paused'>;

/** A failed or paused sweep: why, by its code (a failure's own message names the model's host), and when it is tried again. */
function failedNotes(got: Got, now: number): ProjectNotes {
  const { state } = got;
  const why = sweepFailureWords(state.lastError?.code);
  if (state.lastOutcome === 'paused' || got.paused) return { state: 'paused', words: `${SWEEP_SKIP_WORDS.paused} The last sweep stopped: ${why}.` };
  const next = state.nextAttemptAt !== null && state.nextAttemptAt > now ? ` ${sweepSkipWords('backoff', localTime(state.nextAttemptAt))}` : '';
  return { state: 'failed', words: `The last sweep failed: ${why}.${next}` };
}

/**
 * The notes of one project, judged as the sweeper's own gate judges a sweep: settings first (off,
 * scratch, ignored), then a failure, then whether activity is newer than what the notes cover.
 */
export function projectNotes(project: Pick<ProjectSummary, 'lastActivityAt'>, got: Got, enabled: boolean, now: number): ProjectNotes {
  const { state } = got;
  if (!enabled) return { state: 'off', words: SWEEP_SKIP_WORDS.disabled! };
  if (state.scratch) return { state: 'scratch', words: SWEEP_SKIP_WORDS.scratch! };
  if (got.ignored) return { state: 'ignored', words: SWEEP_SKIP_WORDS.ignored! };
  if (state.notesStaleSince) return { state: 'waiting', words: 'Withheld since a conversation was forgotten; the next sweep rebuilds them.' };
  if (state.lastOutcome === 'failed' || state.lastOutcome === 'paused') return failedNotes(got, now);
  const activity = project.lastActivityAt;
  if (activity !== null && (state.watermark === null || activity > state.watermark)) {
    return { state: 'waiting', words: `${state.watermark === null ? 'No notes yet' : 'Activity since the last sweep is not in the notes yet'}; \`steward sweeper run\` curates it now.` };
  }
  if (state.watermark === null) return { state: 'none', words: 'No notes yet: nothing to curate.' };
  return { state: 'current', words: SWEEP_SKIP_WORDS['no-activity']! };
}

/** Each project's notes, asked one project at a time (Projects.Get); a project gone since the list is left out. */
export async function notesOfProjects(client: StewardClient, projects: readonly ProjectSummary[], now = Date.now()): Promise<Map<string, ProjectNotes>> {
  // Settings.Get, not Sweeper.PlanAll: planning every project held the owner's loop 100-160 ms at 300.
  const { enabled } = (await client.call('Settings.Get', {})).sweeper;
  const notes = new Map<string, ProjectNotes>();
  for (const project of projects) {
    try {
      const got = await client.call('Projects.Get', { projectKey: project.projectKey });
      notes.set(project.projectKey, projectNotes(project, got, enabled !== false, now));
    } catch (error) {
      if (!(error instanceof StewardError && error.code === 'not_found')) throw error;
    }
  }
  return notes;
}
