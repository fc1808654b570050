import type { Command } from 'commander';
import { withClient } from '../connect.js';
import { EXIT, printJson, type CliIo, type Run } from '../output.js';

export function registerProjects(program: Command, io: CliIo, run: Run): void {
  program
    .command('projects')
    .description('list the projects (working directories) seen in transcripts')
    .option('--json', 'print JSON')
    .action((options: { json?: boolean }) =>
      run(async () => {
        return withClient(io, async (client) => {
          const result = await client.call('Projects.List', {});
          if (options.json) printJson(io, result);
          else if (result.projects.length === 0) io.stdout('No projects yet.\n');
          else
            for (const p of result.projects) {
              const when = p.lastActivityAt === null ? 'never' : new Date(p.lastActivityAt).toISOString();
              io.stdout(`${p.projectKey}  ${p.name}  ${p.sessions} sessions  last ${when}${p.repoBacked ? `  repo ${p.repoId ?? '(no origin)'}` : ''}\n`);
            }
          return EXIT.ok;
        });
      }, options.json),
    );
}
