import type { Command } from 'commander';
import { FORGE_TOKEN_NAMES } from '../../api/index.js';
import { withClient } from '../connect.js';
import { EXIT, printJson, UsageError, type CliIo, type Run } from '../output.js';

const NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

function nameOf(name: string): string {
  if (!NAME.test(name)) throw new UsageError('a secret name is letters, digits, _ . - and starts with a letter (e.g. GITHUB_TOKEN)');
  return name;
}

/**
 * `steward secrets set NAME` takes the value on stdin, never as an argument (arguments show in
 * `ps` and shell history). The owner keeps it in the OS keychain (the app) or its 0600 secrets file.
 */
export function registerSecrets(program: Command, io: CliIo, run: Run): void {
  const secrets = program.command('secrets').description('named secrets such as forge tokens (GITHUB_TOKEN, GITEA_TOKEN, GITCODE_TOKEN)');
  secrets
    .command('set <name>')
    .description('store a secret read from standard input')
    .option('--json', 'print JSON')
    .action((name: string, options: { json?: boolean }) =>
      run(async () => {
        const key = nameOf(name);
        // Only the forge tokens are read: any other name (a typo) would be kept, never used and never listed.
        const known = Object.values(FORGE_TOKEN_NAMES);
        if (!known.includes(key)) throw new UsageError(`Steward reads no secret named ${key}: a forge token is ${known.slice(0, -1).join(', ')} or ${known.at(-1)!}`);
        if (!io.stdin) throw new UsageError('no standard input to read the value from');
        const value = (await io.stdin()).trim();
        if (value === '') throw new UsageError(`the value is empty: pipe it on standard input, e.g. \`printenv ${key} | steward secrets set ${key}\``);
        const result = await withClient(io, (c) => c.call('Secrets.Set', { name: key, value }));
        if (options.json) printJson(io, result);
        else io.stdout(`stored ${result.name} (${result.source})\n`);
        return EXIT.ok;
      }, options.json),
    );
  secrets
    .command('unset <name>')
    .description('forget a stored secret (the environment is not touched)')
    .option('--json', 'print JSON')
    .action((name: string, options: { json?: boolean }) =>
      run(async () => {
        const result = await withClient(io, (c) => c.call('Secrets.Set', { name: nameOf(name), value: null }));
        if (options.json) printJson(io, result);
        else io.stdout(`forgot ${result.name}${result.source === 'none' ? '' : ` (still set in the ${result.source})`}\n`);
        return EXIT.ok;
      }, options.json),
    );
  secrets
    .command('list')
    .description('which forge tokens are present, and where they come from (never their values)')
    .option('--json', 'print JSON')
    .action((options: { json?: boolean }) =>
      run(async () => {
        const result = await withClient(io, (c) => c.call('Secrets.List', {}));
        if (options.json) printJson(io, result);
        else for (const s of result.secrets) io.stdout(`${s.name}  ${s.present ? `present (${s.source})` : 'missing'}\n`);
        return EXIT.ok;
      }, options.json),
    );
}
