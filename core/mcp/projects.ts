import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { countOf, localDay, StewardError, type ProjectSummary, type StewardClient } from '../api/index.js';
import { forgottenProjectContaining } from '../projects/folder/index.js';
import { isAbsoluteFolder, projectContaining, projectKeyOf } from '../projects/index.js';
import { clean, notesFolderOf, notesFromAboveWords } from '../sweeper/context/index.js';
import { checkedAnswer } from './answers.js';
import { nobodyImports } from './stale.js';
import { defineTool, READ_ONLY } from './tools.js';

/**
 * Reaches the owner for one call. `via` says who answers, as the CLI's withClient passes it: `in-process`
 * when no Steward runs and the stores were opened for this call alone; a reach that does not say is an owner.
 */
export type WithClient = <T>(use: (client: StewardClient, via?: 'owner' | 'in-process') => Promise<T>) => Promise<T>;

function text(value: string) {
  return [{ type: 'text' as const, text: value }];
}

export interface ProjectToolOptions {
  /** The user's home folder, which never stands for a project. */
  home: string;
  /** STEWARD_HOME, where the notes live: which folder's notes answer is read from their files. */
  stewardHome: string;
}

/**
 * The project whose notes answer for `cwd`, by the session-start hook's own rule (notesFolderOf), so
 * the agent asking mid-session gets what it was handed at the start; else, when no folder at or above
 * has notes, the project containing `cwd` (told that it has none yet). `asked` is the project
 * containing `cwd` when the notes come from a project above it.
 */
function answeringProject(projects: readonly ProjectSummary[], cwd: string, options: ProjectToolOptions): { project: ProjectSummary | null; asked: ProjectSummary | null } {
  const own = projectContaining(projects, cwd, options);
  const folder = notesFolderOf(cwd, options.stewardHome, options.home);
  const withNotes = folder === null ? undefined : projects.find((p) => p.projectKey === projectKeyOf(folder));
  if (!withNotes) return { project: own, asked: null };
  return { project: withNotes, asked: own && own.projectKey !== withNotes.projectKey ? own : null };
}

/**
 * A project's folder as an agent may pass it on (to project_overview, to a shell), or null for one whose
 * cwd names no folder but the project itself (Gemini CLI's folder-unknown projects, Claude Desktop's
 * project with no folder): by the rule that refuses a relative cwd, so nothing given out is refused back.
 */
function folderOf(cwd: string): string | null {
  return isAbsoluteFolder(cwd) ? cwd : null;
}

const ListProjectsOutput = z.object({
  projects: z.array(z.object({ projectKey: z.string(), name: z.string(), cwd: z.string().nullable(), repoBacked: z.boolean(), lastActivityAt: z.string().nullable(), sessions: z.number() })),
  /** Where the next page starts, or null on the last one. */
  next_cursor: z.string().nullable(),
  /** With no Steward running: that nothing imports new transcripts, and since when (nobodyImports). */
  note: z.string().optional(),
});
/**
 * A folder named from `/` or a drive letter: a relative one names no folder Steward can place (the
 * server's own working directory is not the agent's), so it is refused as invalid input, never
 * answered "no project containing that folder".
 */
const absoluteFolder = z
  .string()
  .min(1)
  // A Windows folder is absolute on any system: its transcripts may have been read here.
  .refine(isAbsoluteFolder, { message: 'cwd must be an absolute folder path (from / or a drive letter), such as the current working directory' });

const ProjectOverviewOutput = z.object({ projectKey: z.string(), name: z.string(), cwd: z.string().nullable(), overview: z.string().nullable(), lastSweepAt: z.number().nullable() });

/** A page of list_projects: enough for an agent to find its project, small enough that the answer stays short as projects pile up. */
const PROJECTS_PAGE = 20;
const PROJECTS_PAGE_MAX = 100;

/**
 * The order list_projects pages in: latest activity first, never-active last, ties by key (Steward's own
 * order: Projects.List gives them by key), so that every project has one place a cursor can name without
 * looking the project up again.
 */
function newestFirst(a: Pick<ProjectSummary, 'lastActivityAt' | 'projectKey'>, b: Pick<ProjectSummary, 'lastActivityAt' | 'projectKey'>): number {
  // Never-active as the oldest of all (two of them compare equal: -Infinity less itself is NaN).
  const byTime = (b.lastActivityAt ?? Number.MIN_SAFE_INTEGER) - (a.lastActivityAt ?? Number.MIN_SAFE_INTEGER);
  if (byTime !== 0) return byTime;
  return a.projectKey < b.projectKey ? -1 : a.projectKey > b.projectKey ? 1 : 0;
}

/** A cursor holds the place of the last project of a page, (last activity, key): the next page starts after that place. */
function cursorOf(p: ProjectSummary): string {
  return Buffer.from(JSON.stringify([p.lastActivityAt, p.projectKey])).toString('base64url');
}

function afterCursor(cursor: string): Pick<ProjectSummary, 'lastActivityAt' | 'projectKey'> {
  try {
    const [lastActivityAt, projectKey] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if ((lastActivityAt === null || (typeof lastActivityAt === 'number' && Number.isFinite(lastActivityAt))) && typeof projectKey === 'string') return { lastActivityAt, projectKey };
  } catch {
    // Said below, as any cursor this tool did not give out.
  }
  throw new StewardError('invalid_params', 'The cursor is not one list_projects gave out; start again without it');
}

/**
 * One page of projects, newest activity first, after the place `cursor` holds when given. The place is
 * kept, never the project looked up again: one forgotten since or active again since moves nothing
 * already listed into this page, and hides nothing after it.
 */
function pageOf(projects: readonly ProjectSummary[], limit: number, cursor: string | undefined): { page: ProjectSummary[]; next: string | null } {
  const last = cursor === undefined ? undefined : afterCursor(cursor);
  const sorted = [...projects].sort(newestFirst);
  const rest = last === undefined ? sorted : sorted.filter((p) => newestFirst(last, p) < 0);
  const page = rest.slice(0, limit);
  return { page, next: rest.length > limit ? cursorOf(page[page.length - 1]!) : null };
}

/**
 * Why no project holds `cwd`: the person forgot the one that did (by the rule `steward context` says it
 * by), told with the way back for the agent to pass on, else Steward never saw one there. The forgotten
 * project by its key alone, as Steward's other answers name it once forgotten.
 */
async function noProjectError(client: StewardClient, cwd: string, options: ProjectToolOptions): Promise<StewardError> {
  // Forget.List unanswered leaves the plain reason: the folder still has no project to answer for.
  const { tombstones } = await client.call('Forget.List', {}).catch(() => ({ tombstones: [] }));
  const record = forgottenProjectContaining(tombstones, cwd, options);
  if (record !== null) {
    return new StewardError('not_found', `The person forgot the project holding that folder (${record.id}) on ${localDay(record.createdAt)}, so Steward keeps no notes for it; tell them, and that \`steward unforget --project ${record.id}\` brings it back.`);
  }
  return new StewardError('not_found', 'Steward knows no project containing that folder yet. list_projects names the projects it knows, each with its folder.');
}

/** Why a project has no overview yet, and where its history is meanwhile. */
function noOverviewWords(name: string, projectKey: string): string {
  return (
    `No overview has been written for ${name} yet: Steward's curator writes one after new activity in the project (an offline summary unless a model is chosen for it). ` +
    `Meanwhile, search_transcripts with project_key "${projectKey}" finds what was done there.`
  );
}

/** `list_projects` and `project_overview`: the sweeper's notes as context for a new agent session. */
export function registerProjectTools(server: McpServer, withClient: WithClient, options: ProjectToolOptions): void {
  defineTool(
    server,
    'list_projects',
    {
      title: 'List projects',
      description: 'Projects (working folders) in your agent transcripts, latest activity first: projectKey, name, cwd, sessions, lastActivityAt.',
      inputSchema: {
        limit: z.number().int().min(1).max(PROJECTS_PAGE_MAX).optional().meta({ default: PROJECTS_PAGE }),
        cursor: z.string().min(1).max(500).optional().describe('next_cursor'),
      },
      annotations: READ_ONLY,
    },
    checkedAnswer('list_projects', ListProjectsOutput, async ({ limit, cursor }) => {
      const { projects, stale } = await withClient(async (client, via) => ({ ...(await client.call('Projects.List', {})), stale: await nobodyImports(client, via) }));
      const { page, next } = pageOf(projects, limit ?? PROJECTS_PAGE, cursor);
      // Times in ISO, as every other tool gives them.
      const out = {
        ...(stale !== undefined ? { note: stale } : {}),
        projects: page.map(({ projectKey, name, cwd, repoBacked, lastActivityAt, sessions }) => ({ projectKey, name, cwd: folderOf(cwd), repoBacked, lastActivityAt: lastActivityAt === null ? null : new Date(lastActivityAt).toISOString(), sessions })),
        next_cursor: next,
      };
      // A project with no folder (a Gemini CLI chat whose folder is unknown) is said by its name alone.
      const lines = out.projects.map((p) => `${p.name} (${p.projectKey})${p.cwd === null ? '' : ` — ${p.cwd}`} · ${countOf(p.sessions, 'session')}${p.lastActivityAt === null ? '' : `, last active ${p.lastActivityAt}`}`);
      if (next !== null) lines.push(`More projects: call list_projects with cursor "${next}" (next_cursor).`);
      if (stale !== undefined) lines.push(stale);
      return { content: text(lines.length > 0 ? lines.join('\n') : 'No projects yet.'), structuredContent: out };
    }),
  );
  defineTool(
    server,
    'project_overview',
    {
      title: 'Project overview',
      description: "Steward's notes on the project holding cwd, as the session-start hook gives them (or a project above's, said so): what it is, its state, key decisions, next steps.",
      inputSchema: { cwd: absoluteFolder.describe('Absolute, usually the working directory') },
      annotations: READ_ONLY,
    },
    checkedAnswer('project_overview', ProjectOverviewOutput, async ({ cwd }) =>
      withClient(async (client) => {
        const { projects } = await client.call('Projects.List', {});
        const { project, asked } = answeringProject(projects, cwd, options);
        if (!project) throw await noProjectError(client, cwd, options);
        const got = await client.call('Projects.Get', { projectKey: project.projectKey });
        // Projects.Get returns the note as stored; one written before controls were cleaned on write may
        // still hold them, and the agent is handed what the session-start hook hands it (clean).
        const overview = got.overview === null ? null : clean(got.overview);
        const out = { projectKey: got.projectKey, name: got.name, cwd: folderOf(got.cwd), overview, lastSweepAt: got.state.lastSweepAt };
        const none = typeof got.state.notesStaleSince === 'number' ? `Steward's notes for ${got.name} are being rebuilt after a forget; none are shared until then.` : noOverviewWords(got.name, got.projectKey);
        // The agent asked about its own project: it is told plainly whose notes these are instead.
        const whose = asked ? text(notesFromAboveWords(asked.name, got.name)) : [];
        return { content: [...whose, ...text(overview ?? none)], structuredContent: out };
      })),
  );
}
