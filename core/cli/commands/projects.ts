import type { Command } from 'commander';
import { countOf, lastActiveAt } from '../../api/index.js';
import { withClient } from '../connect.js';
import { EXIT, localTime, printJson, type CliIo, type Run } from '../output.js';

/** A session name on one terminal line: no newlines or control characters, bounded. */
function oneLine(text: string): string {
  const flat = [...text].map((c) => (c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f ? ' ' : c)).join('').replace(/ +/g, ' ').trim();
  return flat.length > 100 ? `${flat.slice(0, 99)}…` : flat;
}

export function registerProjects(program: Command, io: CliIo, run: Run): void {
  program
    .command('projects')
    .description('list the projects (working directories) seen in transcripts')
    .option('--json', 'print JSON')
    .action((options: { json?: boolean }) =>
      run(async () => {
        return withClient(io, async (client) => {
          // The latest conversation's name is read over a shoulder too: a secret in it shows as [REDACTED].
          const result = await client.call('Projects.List', { redact: true });
          if (options.json) printJson(io, result);
          else if (result.projects.length === 0) io.stdout('No projects yet.\n');
          else
            for (const p of result.projects) {
              const at = lastActiveAt(p);
              // `sessions` counts conversations (subagents apart), as `info` and the panel call them.
              const activity = p.sessions === 0 ? 'no conversations left' : `${countOf(p.sessions, 'conversation')}  ${at === null ? 'no activity recorded' : `last ${localTime(at)}`}`;
              io.stdout(`${p.projectKey}  ${p.name}  ${activity}${p.repoBacked ? `  repo ${p.repoId ?? '(no origin)'}` : ''}\n`);
              if (p.latestSession) io.stdout(`    latest: ${oneLine(p.latestSession.name ?? '(untitled)')}\n`);
            }
          return EXIT.ok;
        });
      }, options.json),
    );
}
