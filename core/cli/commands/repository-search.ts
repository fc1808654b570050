import type { Command } from 'commander';
import { CLOSEST_IN_MEANING, COLLECTIONS, degradedText, type Result } from '../../api/index.js';
import { withClient } from '../connect.js';
import { EXIT, parseIntOption, printJson, printText, UsageError, type CliIo, type Run } from '../output.js';

export function formatHits(result: Result<'Repository.Search'>): string {
  const lines: string[] = [];
  if (result.degraded) lines.push(`Words only: ${degradedText(result)}.`);
  if (result.hits.length === 0) lines.push('No matches.');
  else if (result.wordMatches === 0) lines.push(CLOSEST_IN_MEANING);
  result.hits.forEach((h, i) => {
    const number = h.number !== null ? `#${h.number} ` : '';
    const state = h.state ? ` (${h.state})` : '';
    lines.push(`${i + 1}. ${number}${h.title}${state}  [${h.collection}, ${h.matchedBy.join('+')}]`);
    if (h.snippet) lines.push(`   ${h.snippet}`);
    if (h.url) lines.push(`   ${h.url}`);
  });
  return `${lines.join('\n')}\n`;
}

/** `steward maintenance search --repo OWNER/NAME QUERY` (or HOST/OWNER/NAME): hybrid search of one repository cache. */
export function registerRepositorySearch(maintenance: Command, io: CliIo, run: Run): void {
  maintenance
    .command('search')
    .description('search a repository cache by words and meaning (issues, pull requests, comments, wiki)')
    .argument('<query...>', 'what to look for')
    .requiredOption('--repo <owner/name>', 'the repository (HOST/OWNER/NAME where one OWNER/NAME is maintained on two hosts)')
    .option('--collection <collection>', `only one collection (${[...COLLECTIONS, 'documents'].join(', ')})`)
    .option('--state <state>', 'only items in this state (open, closed, merged)')
    .option('--author <login>', 'only items or comments by this author')
    .option('--label <label>', 'only items with this label')
    .option('--limit <n>', 'hits to show (1-50)', '10')
    .option('--format <format>', 'text or json', 'text')
    .option('--json', 'the same as --format json')
    .action((query: string[], options: { repo: string; collection?: string; state?: string; author?: string; label?: string; limit: string; format?: string; json?: boolean }) => {
      const json = options.json === true || options.format === 'json';
      return run(async () => {
        if (options.format !== undefined && options.format !== 'text' && options.format !== 'json') throw new UsageError('--format must be text or json');
        const limit = parseIntOption('--limit', options.limit, 1, 50);
        const result = await withClient(io, (c) =>
          c.call('Repository.Search', {
            repo: options.repo,
            query: query.join(' '),
            limit,
            ...(options.collection ? { collection: options.collection as (typeof COLLECTIONS)[number] } : {}),
            ...(options.state ? { state: options.state } : {}),
            ...(options.author ? { author: options.author } : {}),
            ...(options.label ? { label: options.label } : {}),
          }),
        );
        if (json) printJson(io, result);
        // Titles and snippets are anyone's words on the forge: escaped as any print of transcript text is.
        else printText(io, formatHits(result));
        return EXIT.ok;
      }, json);
    });
}
