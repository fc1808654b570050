import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { CLOSEST_IN_MEANING, COLLECTIONS, degradedText, methods, RepositorySearchResult, StewardError, type Params, type Result, type StewardClient } from '../api/index.js';
import { checkedAnswer } from './answers.js';
import { ADD_A_REPOSITORY } from './maintenance.js';
import type { WithClient } from './projects.js';
import { defineTool } from './tools.js';

const params = methods['Repository.Search'].params.shape;

/** Agent-facing input: the contract's filters, snake-cased; a repository is named, never a path. */
export const SearchRepositoryInput = z.strictObject({
  repo: params.repo.describe('OWNER/NAME, an alias or HOST/OWNER/NAME'),
  query: params.query.describe('Words: an error message, a symptom, a feature'),
  collection: z.enum([...COLLECTIONS, 'documents']).optional().describe('Only one collection'),
  state: params.state.describe('e.g. open, closed'),
  author: params.author.describe("The item's or comment's author login"),
  label: params.label.describe('An item label'),
  updated_after: z.number().int().min(0).optional().describe('Updated at or after (epoch ms)'),
  updated_before: z.number().int().min(0).optional().describe('Updated before (epoch ms)'),
  limit: z.number().int().min(1).max(50).optional().describe('Default 10'),
});

export const SearchRepositoryOutput = RepositorySearchResult;

function summary(result: Result<'Repository.Search'>): string {
  const lines = result.degraded ? [`Searched by words only: ${degradedText(result)}.`] : [];
  if (result.hits.length === 0) lines.push('No matches.');
  else if (result.wordMatches === 0) lines.push(CLOSEST_IN_MEANING);
  for (const h of result.hits) {
    lines.push(`- [${h.collection}${h.number !== null ? ` #${h.number}` : ''}] ${h.title}${h.state ? ` (${h.state})` : ''}${h.url ? ` ${h.url}` : ''}\n  ${h.snippet}`);
  }
  return lines.join('\n');
}

function searchParams(input: z.infer<typeof SearchRepositoryInput>): Params<'Repository.Search'> {
  return {
    repo: input.repo,
    query: input.query,
    ...(input.collection ? { collection: input.collection } : {}),
    ...(input.state ? { state: input.state } : {}),
    ...(input.author ? { author: input.author } : {}),
    ...(input.label ? { label: input.label } : {}),
    ...(input.updated_after !== undefined ? { from: input.updated_after } : {}),
    ...(input.updated_before !== undefined ? { to: input.updated_before } : {}),
    ...(input.limit !== undefined ? { limit: input.limit } : {}),
  };
}

/**
 * A repository the search found no cache of, said with what to do when Steward maintains none at all:
 * "no registered cache holds that repository" reads as a wrong name. Any other error passes as it is.
 */
async function noneMaintained(client: StewardClient, error: unknown): Promise<unknown> {
  if (!(error instanceof StewardError && error.code === 'not_found')) return error;
  const { registry, registrations } = await client.call('Maintenance.List', {});
  if (registry.state === 'degraded' || registrations.length > 0) return error;
  return new StewardError('not_found', `Steward maintains no repository yet, so there is none to search. ${ADD_A_REPOSITORY}`);
}

/** `search_repository`: hybrid search of a repository cache Steward maintains, for agents. */
export function registerRepositoryTools(server: McpServer, withClient: WithClient): void {
  defineTool(
    server,
    'search_repository',
    {
      title: 'Search a repository',
      description:
        'Searches a repository cache Steward maintains (issues, pull requests, comments, wiki, documents) by words and meaning. ' +
        'Hits: collection, number, title, snippet, score, state, author, link. degraded: ranked by words only; wordMatches 0: hits are only close in meaning. ' +
        'A name two hosts share: error repository_ambiguous, listing each HOST/OWNER/NAME.',
      inputSchema: SearchRepositoryInput,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    checkedAnswer('search_repository', SearchRepositoryOutput, async (input) =>
      withClient(async (client) => {
        const result = await client.call('Repository.Search', searchParams(input)).catch(async (error: unknown) => {
          throw await noneMaintained(client, error);
        });
        const out = SearchRepositoryOutput.parse(result);
        return { content: [{ type: 'text' as const, text: summary(out) }], structuredContent: out };
      })),
  );
}
