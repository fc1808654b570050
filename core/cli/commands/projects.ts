import type { Command } from 'commander';
import { typedClient } from '../../api/index.js';
import { resolveHome } from '../../config/index.js';
import { connect } from '../connect.js';
import { EXIT, printJson, type CliIo } from '../output.js';

export function registerProjects(program: Command, io: CliIo, run: (action: () => Promise<number>, json?: boolean) => Promise<void>): void {
  program
    .command('projects')
    .description('list the projects (working directories) seen in transcripts')
    .option('--json', 'print JSON')
    .action((options: { json?: boolean }) =>
      run(async () => {
        const connection = connect(resolveHome(io.env), io.env);
        try {
          const result = await typedClient(connection.transport).call('Projects.List', {});
          if (options.json) printJson(io, result);
          else if (result.projects.length === 0) io.stdout('No projects yet.\n');
          else
            for (const p of result.projects) {
              const when = p.lastActivityAt === null ? 'never' : new Date(p.lastActivityAt).toISOString();
              io.stdout(`${p.projectKey}  ${p.name}  ${p.sessions} sessions  last ${when}${p.repoBacked ? `  repo ${p.repoId ?? '(no origin)'}` : ''}\n`);
            }
          return EXIT.ok;
        } finally {
          await connection.close();
        }
      }, options.json),
    );
}
