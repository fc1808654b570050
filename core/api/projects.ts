import { z } from 'zod';

/** A project is a working directory seen in transcripts. */
export const ProjectSummary = z.strictObject({
  projectKey: z.string(),
  name: z.string(),
  cwd: z.string(),
  repoId: z.string().nullable(),
  repoBacked: z.boolean(),
  lastActivityAt: z.number().int().nullable(),
  sessions: z.number().int().nonnegative(),
});
export type ProjectSummary = z.infer<typeof ProjectSummary>;

export const projectsMethods = {
  'Projects.List': {
    params: z.strictObject({}),
    result: z.strictObject({ projects: z.array(ProjectSummary) }),
  },
} as const;
