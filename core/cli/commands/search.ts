import type { Command } from 'commander';
import { countOf, groupBySession, hasSearchFilter, PART_ROLES, PROVIDER_IDS, SEARCH_KINDS, SEARCH_SORTS, type Params, type Result } from '../../api/index.js';
import { withClient } from '../connect.js';
import { choiceOption, dateOptions, EXIT, localTime, moreHint, pageJson, parseIntOption, printJson, requiredText, UsageError, type CliIo, type Run } from '../output.js';

interface SearchOptions {
  project?: string;
  provider?: string;
  session?: string;
  role?: string;
  kind?: string;
  mine?: boolean;
  from?: string;
  to?: string;
  repo?: string;
  sort?: string;
  limit?: string;
  cursor?: string;
  json?: boolean;
}

/** Hits grouped by conversation, each group headed by its title (or first request) and id; `pinned`: the dates the next page repeats. */
export function formatSearch(result: Result<'Search.Query'>, pinned: readonly string[] = []): string {
  const lines: string[] = [];
  if (result.fallback) lines.push(`note: ${result.fallback.message}`);
  if (result.indexing) lines.push(`note: earlier history is still being indexed (${result.indexing.indexedParts} of ${countOf(result.indexing.totalParts, 'part')}); results may be missing some of it`);
  if (result.hits.length === 0) lines.push('No matches.');
  const sessions = new Map(result.sessions.map((s) => [s.sessionId, s]));
  let current: string | undefined;
  // Each conversation's hits together (see groupBySession): a heading printed again per run of hits would split one in two.
  for (const hit of [...groupBySession(result.hits).values()].flat()) {
    const s = sessions.get(hit.sessionId);
    if (hit.sessionId !== current) {
      current = hit.sessionId;
      const label = s?.title ?? s?.firstRequest ?? '(untitled)';
      lines.push('', `${label} — ${s?.projectName ?? 'no project'} · ${s?.app ?? hit.provider} · ${hit.sessionId}`);
    }
    // User text capture did not mark as the person's is the agent's app's (a command's echo, hook output).
    const who = hit.role === 'user' && hit.kind === 'text' && !hit.genuineUserTurn && s?.parentKind !== 'subagent' ? (s?.app ?? hit.provider) : (hit.role ?? '');
    // A tool call says its one line (the command, the file) before the snippet that matched.
    const what = hit.kind === 'text' ? who : hit.summary !== null ? `${hit.role ?? ''} ${hit.kind} ${hit.summary}`.trim() : `${hit.role ?? ''} ${hit.kind}${hit.toolName ? ` ${hit.toolName}` : ''}`.trim();
    lines.push(`  ${localTime(hit.ts)}  ${what}: ${hit.snippet}`);
  }
  if (result.rankedAmong !== undefined) lines.push('', `Ranked among the newest ${result.rankedAmong} matches; narrow the search or use --sort newest for older ones.`);
  if (result.cursor) lines.push('', moreHint(result.cursor, pinned));
  return `${lines.join('\n').replace(/^\n/, '')}\n`;
}

/** What `steward search` with neither words nor a filter says. */
const NOTHING_TO_SEARCH = 'the query is empty: give words to search for, or a filter such as --project, --mine, --kind or --from';

/**
 * `steward search [QUERY…]`: full-text search over every captured conversation (`Search.Query`); with
 * filters and no words, what they select, newest first.
 */
export function registerSearch(program: Command, io: CliIo, run: Run): void {
  program
    .command('search')
    .description('search every captured conversation: words, "phrases", prefix*, AND/OR/NOT; with filters and no words, their messages newest first; prints {hits} with --json')
    .argument('[query...]', 'what to look for (leave it out to list what the filters select)')
    .option('--project <key>', 'only this project (a projectKey, see `steward projects`)')
    .option('--provider <id>', `only this provider: ${PROVIDER_IDS.join(', ')}`)
    .option('--session <id>', 'only this conversation (with its subagents)')
    .option('--role <role>', `only parts of this role: ${PART_ROLES.join(', ')}`)
    .option('--kind <kind>', `only this kind of part: ${SEARCH_KINDS.join(', ')} (tool_use: only commands; for only your own words, --mine)`)
    .option('--mine', 'only your own words: never command echoes, hook output, task notifications or the prompts an agent wrote for its subagents')
    .option('--from <date>', 'from this date (its start), time or span back (7d); without an offset, in your local time')
    .option('--to <date>', 'up to this date (through its end) or time; without an offset, in your local time')
    .option('--repo <owner/name>', "only projects of this repository")
    .option('--sort <order>', `${SEARCH_SORTS.join(' or ')} (default relevance)`)
    .option('--limit <n>', 'hits per page (1-100, default 20)')
    .option('--cursor <cursor>', 'the next page of an earlier search')
    .option('--json', 'print JSON')
    .action((words: string[], options: SearchOptions) =>
      run(async () => {
        const dates = dateOptions(options);
        const params: Params<'Search.Query'> = {
          query: words.join(' '),
          ...(options.project !== undefined ? { projectKey: options.project } : {}),
          ...(options.provider !== undefined ? { provider: choiceOption('--provider', options.provider, PROVIDER_IDS) } : {}),
          ...(options.session !== undefined ? { sessionId: requiredText('--session', options.session) } : {}),
          ...(options.role !== undefined ? { role: choiceOption('--role', options.role, PART_ROLES) } : {}),
          ...(options.kind !== undefined ? { kind: choiceOption('--kind', options.kind, SEARCH_KINDS) } : {}),
          ...(options.mine ? { genuineUserTurn: true } : {}),
          ...dates.range,
          ...(options.repo !== undefined ? { repo: options.repo } : {}),
          ...(options.sort !== undefined ? { sort: choiceOption('--sort', options.sort, SEARCH_SORTS) } : {}),
          ...(options.limit !== undefined ? { limit: parseIntOption('--limit', options.limit, 1, 100) } : {}),
          ...(options.cursor !== undefined ? { cursor: options.cursor } : {}),
        };
        if (params.query.trim() === '' && !hasSearchFilter(params)) throw new UsageError(NOTHING_TO_SEARCH);
        const result = await withClient(io, (client) => client.call('Search.Query', params));
        if (options.json) printJson(io, pageJson(result, dates.pinned));
        else io.stdout(formatSearch(result, dates.pinned));
        return EXIT.ok;
      }, options.json),
    );
}
