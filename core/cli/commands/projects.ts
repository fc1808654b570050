import type { Command } from 'commander';
import { countOf, lastActiveAt, projectChoiceLabels, SWEEP_SKIP_WORDS, type StewardClient } from '../../api/index.js';
import { withClient } from '../connect.js';
import { projectKeyFor } from '../names.js';
import { EXIT, localTime, oneLine, printJson, printText, type CliIo, type Run } from '../output.js';

/** The projects, each with its latest conversation and where its notes stand; two of one name told apart by their folders. */
async function listProjects(io: CliIo, client: StewardClient, json: boolean): Promise<number> {
  // The latest conversation's name is read over a shoulder too: a secret in it shows as [REDACTED].
  // Each row says where its notes stand, judged in the owner by the sweeper's own gate: one call in all.
  const result = await client.call('Projects.List', { redact: true });
  if (json) {
    printJson(io, result);
    return EXIT.ok;
  }
  if (result.projects.length === 0) io.stdout('No projects yet.\n');
  // Two projects of one name (two folders called "payments") are told apart as the panel's lists do,
  // by as much of each folder as differs; the key before it is what `--project` takes then.
  const labels = projectChoiceLabels(result.projects);
  for (const p of result.projects) {
    const at = lastActiveAt(p);
    // `sessions` counts conversations (subagents apart), as `info` and the panel call them.
    const activity = p.sessions === 0 ? 'no conversations left' : `${countOf(p.sessions, 'conversation')}  ${at === null ? 'no activity recorded' : `last ${localTime(at)}`}`;
    printText(io, `${p.projectKey}  ${labels.get(p.projectKey) ?? p.name}  ${activity}${p.repoBacked ? `  repo ${p.repoId ?? '(no origin)'}` : ''}\n`);
    if (p.latestSession) io.stdout(`    latest: ${oneLine(p.latestSession.name ?? '(untitled)')}\n`);
    io.stdout(`    notes: ${p.notes.state} — ${p.notes.words}\n`);
  }
  return EXIT.ok;
}

/** Marks a project scratch (never swept) or takes the mark off (Projects.SetScratch), as the panel's switch does. */
async function setScratch(io: CliIo, text: string, scratch: boolean, json: boolean): Promise<number> {
  const verb = scratch ? 'projects scratch' : 'projects unscratch';
  return withClient(io, async (client) => {
    const projectKey = await projectKeyFor(client, text, verb);
    const before = await client.call('Projects.Get', { projectKey });
    const result = await client.call('Projects.SetScratch', { projectKey, scratch });
    if (json) {
      printJson(io, { ...result, name: before.name, changed: before.state.scratch !== scratch, ignored: before.ignored });
      return EXIT.ok;
    }
    const already = before.state.scratch === scratch ? 'already ' : '';
    if (scratch) printText(io, `${before.name}: ${already}a scratch project; Steward never writes notes for it (its conversations stay searchable).\n`);
    else printText(io, `${before.name}: ${already}not a scratch project; its notes are curated again from its next activity (\`steward sweeper run\` curates it now).\n`);
    // The mark is not the only thing that keeps notes away: a folder pattern in Settings does too.
    if (!scratch && before.ignored) io.stdout(`Still no notes: ${SWEEP_SKIP_WORDS.ignored}\n`);
    return EXIT.ok;
  });
}

export function registerProjects(program: Command, io: CliIo, run: Run): void {
  const projects = program
    .command('projects')
    .description('list the projects (working directories) seen in transcripts, each with where its notes stand (current, waiting, none, failed, paused, scratch, ignored, off)')
    .option('--json', 'print JSON')
    .action((options: { json?: boolean }) => run(() => withClient(io, (client) => listProjects(io, client, options.json ?? false)), options.json));
  projects
    .command('scratch <project>')
    .description('mark a project scratch: Steward never writes notes for it (its conversations stay searchable)')
    .option('--json', 'print JSON')
    .action((project: string, options: { json?: boolean }) => run(() => setScratch(io, project, true, options.json ?? false), options.json));
  projects
    .command('unscratch <project>')
    .description("take a project's scratch mark off: its notes are curated again")
    .option('--json', 'print JSON')
    .action((project: string, options: { json?: boolean }) => run(() => setScratch(io, project, false, options.json ?? false), options.json));
}
