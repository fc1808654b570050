import type { Command } from 'commander';
import { countOf, groupBySession, indexingNote, lastCheckOf, moreLikeIt, nobodyRunsNote, numberOf, hasSearchFilter, hitLine, PART_ROLES, RepoId, SEARCH_KINDS, SEARCH_PROVIDERS, SEARCH_SORTS, type Params, type Result } from '../../api/index.js';
import { withClient } from '../connect.js';
import { forgottenOrWhole, mustBeStoredProject, mustBeStoredRepo, projectKeyFor } from '../names.js';
import { choiceOption, dateOptions, EXIT, localTime, moreHint, oneLine, pageJson, parseIntOption, printJson, printText, requiredText, UsageError, type CliIo, type Run } from '../output.js';

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
  if (result.indexing?.phase === 'retag') lines.push(`note: ${indexingNote(result.indexing)}`);
  else if (result.indexing) lines.push(`note: earlier history is still being indexed (${numberOf(result.indexing.indexedParts)} of ${countOf(result.indexing.totalParts, 'part')}); results may be missing some of it`);
  if (result.hits.length === 0) lines.push('No matches.');
  const sessions = new Map(result.sessions.map((s) => [s.sessionId, s]));
  let current: string | undefined;
  // Each conversation's hits together (see groupBySession): a heading printed again per run of hits would split one in two.
  for (const hit of [...groupBySession(result.hits).values()].flat()) {
    const s = sessions.get(hit.sessionId);
    if (hit.sessionId !== current) {
      current = hit.sessionId;
      const label = oneLine(s?.title ?? s?.firstRequest ?? '(untitled)');
      lines.push('', `${label} — ${s?.projectName ?? 'no project'} · ${s?.app ?? hit.provider} · ${hit.sessionId}`);
    }
    // Who wrote it and what it is, as the panel's hits say it (a tool call with its one line: the command, the file);
    // a call whose line says all of it has no snippet beside it.
    const what = hitLine(hit, s?.parentKind === 'subagent', s?.app ?? hit.provider);
    lines.push(`  ${localTime(hit.ts)}  ${what}${hit.snippet ? `: ${hit.snippet}` : ''}${hit.alike ? ` (${moreLikeIt(hit.alike)})` : ''}`);
  }
  if (result.rankedAmong !== undefined) lines.push('', `Ranked among the newest ${result.rankedAmong} matches; narrow the search or use --sort newest for older ones.`);
  if (result.cursor) lines.push('', moreHint(result.cursor, pinned));
  return `${lines.join('\n').replace(/^\n/, '')}\n`;
}

/** Edits (insert, delete, change, swap two neighbours) between two short words. */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const row = d[i]!;
      row[j] = Math.min(d[i - 1]![j]! + 1, row[j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j]!, d[i - 2]![j - 2]! + 1);
    }
  return d[a.length]![b.length]!;
}

/** The verb's own option nearest a `--word`, when the word reads as a slip of the keyboard for it (`--projct`). */
export function mistypedOption(word: string, options: readonly string[]): string | undefined {
  const name = /^--([^=]+)/.exec(word)?.[1];
  if (name === undefined) return undefined;
  // Close in letters and in share of the word: `--form` is `--from`, `--force` and `--to` are no option of search's.
  const near = options.map((o) => ({ o, d: editDistance(name, o.slice(2)) })).filter(({ o, d }) => d <= 2 && d / Math.max(name.length, o.length - 2) < 0.5);
  return near.sort((x, y) => x.d - y.d)[0]?.o;
}

/**
 * The query's words. Commander hands over, besides the words, those starting with `-` that are none of
 * the verb's options (a command's flags: `rm -rf`), and keeps a `--` that follows one. Words after
 * `--` are the person's text whatever they look like; before it, one that reads as a mistyped option
 * is refused, saying how to search for it.
 */
export function queryWords(words: readonly string[], raw: readonly string[], options: readonly string[]): string[] {
  const literal = raw.indexOf('--');
  const kept = literal < 0 ? -1 : words.indexOf('--');
  // Commander drops the `--` itself when nothing unknown came before it; then every word that looks
  // like an option came after it.
  const checked = literal < 0 ? words : kept < 0 ? [] : words.slice(0, kept);
  for (const word of checked) {
    const meant = mistypedOption(word, options);
    if (meant !== undefined) throw new UsageError(`unknown option '${word}' (did you mean ${meant}?); to search for it, put it after --: steward search -- ${word}`);
  }
  return kept < 0 ? [...words] : [...words.slice(0, kept), ...words.slice(kept + 1)];
}

/** A command's long options (`--project`), to tell a mistyped one. */
function longOptions(command: Command): string[] {
  return command.options.flatMap((o) => (o.long ? [o.long] : []));
}

/** `--repo` as the contract takes it (OWNER/NAME or a canonical id), or a usage error in the flag's words. */
function repoOption(value: string): string {
  if (!RepoId.safeParse(value).success) throw new UsageError(`--repo expects OWNER/NAME (or a canonical id such as github.com/OWNER/NAME), got ${JSON.stringify(value)}`);
  return value;
}

/** What `steward search` with neither words nor a filter says. */
const NOTHING_TO_SEARCH = 'the query is empty: give words to search for, or a filter such as --project, --mine, --kind or --from';

/**
 * `steward search [QUERY…]`: full-text search over every captured conversation (`Search.Query`); with
 * filters and no words, what they select, newest first.
 */
export function registerSearch(program: Command, io: CliIo, run: Run): void {
  let rawArgs: readonly string[] = [];
  const search = program
    .command('search')
    .description('search every captured conversation: words, "phrases", prefix*, AND/OR/NOT, NEAR(a b, 5), (groups); with filters and no words, their messages newest first; prints {hits} with --json')
    .argument('[query...]', 'what to look for; column:word searches one column: body:, thinking:, tool_input:, tool_output: (anything else, text: too, is searched as written); leave it out to list what the filters select')
    .option('--project <project>', 'only this project: its name or key, as `steward projects` lists them')
    .option('--provider <id>', `only this provider: ${SEARCH_PROVIDERS.join(', ')} (claude is Claude Code and Claude Desktop)`)
    .option('--session <id>', 'only this conversation (with its subagents)')
    .option('--role <role>', `only parts of this role, the same for every agent: ${PART_ROLES.join(', ')} (user: what was said in your turn, never tool output; tool: every tool's output)`)
    .option('--kind <kind>', `only this kind of part: ${SEARCH_KINDS.join(', ')} (tool_use: only commands; for only your own words, --mine)`)
    .option('--mine', 'only your own words: never command echoes, hook output, task notifications or the prompts an agent wrote for its subagents')
    .option('--from <date>', 'from this date (its start), time or span back (7d); without an offset, in your local time')
    .option('--to <date>', 'up to this date (through its end) or time; without an offset, in your local time')
    .option('--repo <owner/name>', "only projects of this repository")
    .option('--sort <order>', `${SEARCH_SORTS.join(' or ')} (default relevance)`)
    .option('--limit <n>', 'hits per page (1-100, default 20)')
    .option('--cursor <cursor>', 'the next page of an earlier search')
    .option('--json', 'print JSON')
    // A query may hold a command's own flags (`rm -rf node_modules`): words commander does not know as
    // the verb's options are the query's (see queryWords), which decides what a mistyped option is.
    .allowUnknownOption()
    .action((words: string[], options: SearchOptions) =>
      run(async () => {
        const dates = dateOptions(options);
        const params: Params<'Search.Query'> = {
          query: queryWords(words, rawArgs, longOptions(search)).join(' '),
          ...(options.provider !== undefined ? { provider: choiceOption('--provider', options.provider, SEARCH_PROVIDERS) } : {}),
          ...(options.session !== undefined ? { sessionId: requiredText('--session', options.session) } : {}),
          ...(options.role !== undefined ? { role: choiceOption('--role', options.role, PART_ROLES) } : {}),
          ...(options.kind !== undefined ? { kind: choiceOption('--kind', options.kind, SEARCH_KINDS) } : {}),
          ...(options.mine ? { genuineUserTurn: true } : {}),
          ...dates.range,
          ...(options.repo !== undefined ? { repo: repoOption(options.repo) } : {}),
          ...(options.sort !== undefined ? { sort: choiceOption('--sort', options.sort, SEARCH_SORTS) } : {}),
          ...(options.limit !== undefined ? { limit: parseIntOption('--limit', options.limit, 1, 100) } : {}),
          ...(options.cursor !== undefined ? { cursor: options.cursor } : {}),
          // Snippets and headings are read over a shoulder, or shared on a screen: secrets show as [REDACTED].
          redact: true,
        };
        if (params.query.trim() === '' && !hasSearchFilter(params) && options.project === undefined) throw new UsageError(NOTHING_TO_SEARCH);
        const result = await withClient(io, async (client, via) => {
          const projectKey = options.project !== undefined ? await projectKeyFor(client, options.project) : undefined;
          const found = await client.call('Search.Query', { ...params, ...(projectKey !== undefined ? { projectKey } : {}) });
          // "No matches." would be untrue of a conversation or project that is not there: say so, as
          // `sessions show` does (a forgotten one in its words: when, and the way back). Asked only of an empty answer: hits show the filter holds something.
          if (found.hits.length === 0 && params.sessionId !== undefined) await client.call('Sessions.Get', { sessionId: params.sessionId, limit: 1 }).catch(forgottenOrWhole(client, params.sessionId));
          // A name was resolved among the stored projects already; a key was passed on unchecked.
          if (found.hits.length === 0 && projectKey !== undefined && projectKey === options.project) await mustBeStoredProject(client, projectKey);
          if (found.hits.length === 0 && params.repo !== undefined) await mustBeStoredRepo(client, params.repo);
          // With no Steward running, nothing imports the agents' new transcripts meanwhile: said as MCP's search says it.
          const lastCheck = via === 'in-process' ? lastCheckOf(await client.call('Sweep.Status', {})) : undefined;
          return { found, lastCheck };
        });
        if (options.json) printJson(io, pageJson(result.found, dates.pinned));
        else printText(io, formatSearch(result.found, dates.pinned));
        // Nor does anything walk the index: asking again would say the same. One sentence for both, after
        // the results, whose note ("Updating the search index…") is what "it" names.
        if (result.lastCheck !== undefined) io.stderr(`${nobodyRunsNote(result.found.indexing, result.lastCheck, localTime)}\n`);
        return EXIT.ok;
      }, options.json),
    );
  // What the person typed after `search`, kept to tell the words they wrote after `--` (never options).
  const parseOptions = search.parseOptions.bind(search);
  search.parseOptions = (argv) => {
    rawArgs = [...argv];
    return parseOptions(argv);
  };
}
