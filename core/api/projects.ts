import { z } from 'zod';
import { ProjectKey } from './ids.js';
import { CuratorPause, SweeperStateView } from './sweeper.js';

/** A project is a working directory seen in transcripts. */
export const ProjectSummary = z.strictObject({
  projectKey: z.string(),
  name: z.string(),
  cwd: z.string(),
  repoId: z.string().nullable(),
  repoBacked: z.boolean(),
  lastActivityAt: z.number().int().nullable(),
  sessions: z.number().int().nonnegative(),
  /** The most recently active conversation, named by its title (else its first request); null with none. */
  latestSession: z
    .strictObject({ sessionId: z.string(), name: z.string().nullable(), lastAt: z.number().int().nullable() })
    .nullable()
    .optional(),
});
export type ProjectSummary = z.infer<typeof ProjectSummary>;

/** Where a project's notes stand, as `steward projects` says it: one word to filter on. */
export const NOTES_STATES = ['current', 'waiting', 'failed', 'paused', 'scratch', 'ignored', 'off', 'none'] as const;
export const NotesState = z.enum(NOTES_STATES);
export type NotesState = z.infer<typeof NotesState>;
/** The word and a sentence saying why, judged by the sweeper as its own gate judges a sweep. */
export const ProjectNotes = z.strictObject({ state: NotesState, words: z.string() });
export type ProjectNotes = z.infer<typeof ProjectNotes>;

/** A project as the list gives it: where its notes stand travels with it, so no one asks per project. */
export const ProjectListed = ProjectSummary.extend({ notes: ProjectNotes });
export type ProjectListed = z.infer<typeof ProjectListed>;

export const projectsMethods = {
  'Projects.List': {
    params: z.strictObject({
      /**
       * true: each latest conversation's name redacted with the secrets module, a first request before it
       * is cut (the panel and the CLI ask for this; without it the names are as stored).
       */
      redact: z.boolean().optional(),
    }),
    result: z.strictObject({ projects: z.array(ProjectListed) }),
  },
  'Projects.Get': {
    params: z.strictObject({ projectKey: ProjectKey }),
    result: z.strictObject({
      projectKey: ProjectKey,
      name: z.string(),
      cwd: z.string(),
      repoBacked: z.boolean(),
      slug: z.string(),
      /** The folder holding this project's notes, for the local panel (never logged). */
      notesPath: z.string(),
      overview: z.string().nullable(),
      changelog: z.string().nullable(),
      /** Steward's CLAUDE.md for a non-repo project; null for repo-backed ones or when none exists yet. */
      claudeMd: z.string().nullable(),
      ignored: z.boolean(),
      state: SweeperStateView,
      paused: CuratorPause.nullable(),
    }),
  },
  /** Projects marked scratch (never swept), by name. */
  'Projects.Scratch': {
    params: z.strictObject({}),
    result: z.strictObject({ projects: z.array(z.strictObject({ projectKey: ProjectKey, name: z.string() })) }),
  },
  'Projects.SetScratch': {
    params: z.strictObject({ projectKey: ProjectKey, scratch: z.boolean() }),
    result: z.strictObject({ projectKey: ProjectKey, scratch: z.boolean() }),
  },
} as const;
