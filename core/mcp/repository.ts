import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { CLOSEST_IN_MEANING, degradedText, methods, RepositorySearchResult, StewardError, type Params, type Result, type StewardClient } from '../api/index.js';
import { checkedAnswer } from './answers.js';
import { ADD_A_REPOSITORY } from './maintenance.js';
import type { WithClient } from './projects.js';
import { defineTool, READ_ONLY } from './tools.js';

const params = methods['Repository.Search'].params.shape;

/** Agent-facing input: the contract's filters, snake-cased; a repository is named, never a path. */
export const SearchRepositoryInput = z.strictObject({
  repo: params.repo.describe('OWNER/NAME, an alias or HOST/OWNER/NAME'),
  query: params.query.describe('An error message, a symptom, a feature'),
  collection: params.collection,
  state: params.state.describe('e.g. open, closed'),
  author: params.author.describe('Login'),
  label: params.label,
  updated_after: params.from.describe('Epoch ms, at or after'),
  updated_before: params.to.describe('Epoch ms'),
  limit: params.limit,
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
        "Searches a repository cache Steward keeps (maintenance_status) by words and meaning: hits with collection, number, title, snippet, state, author, link. degraded: by words only; wordMatches 0: only close in meaning.",
      inputSchema: SearchRepositoryInput,
      annotations: READ_ONLY,
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
