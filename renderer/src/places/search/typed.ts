import type { SearchKind } from '../../../../core/api/index.js';
import { agentChoices, withChip, withDate, type SearchFilters } from './filters.js';
import { backwards, dateMs, RANGE_FORMS } from './range.js';

/** A project as the Project list offers it. */
export interface TypedProject {
  projectKey: string;
  name: string;
}

/**
 * What the box held once its typed filters are taken out: the chips they name and the words left, or
 * the one thing wrong with a filter (a search then runs on nothing it was not asked for).
 */
export type Typed = { filters: SearchFilters } | { problem: string };

type Found = { key: 'who'; value: SearchFilters['who'] } | { key: 'kind'; value: SearchKind } | { key: 'from' | 'to'; value: string } | { key: 'provider' | 'project'; value: string };

const pick = <T>(choices: Record<string, T>, value: string): T | undefined => (Object.hasOwn(choices, value) ? choices[value] : undefined);

const WHO: Record<string, 'me' | 'assistant'> = { user: 'me', me: 'me', assistant: 'assistant', agent: 'assistant' };
const KIND: Record<string, SearchKind> = {
  message: 'text',
  messages: 'text',
  text: 'text',
  tool_use: 'tool_use',
  tool: 'tool_use',
  call: 'tool_use',
  tool_result: 'tool_result',
  output: 'tool_result',
  result: 'tool_result',
  thinking: 'thinking',
};
const WHEN: Record<string, '7d' | '30d' | '365d'> = { '7d': '7d', '1w': '7d', week: '7d', '30d': '30d', '1m': '30d', month: '30d', '365d': '365d', '1y': '365d', year: '365d' };

/**
 * A typed end of the date range: since:/from: start it, until:/to: end it. A start may be a When chip's
 * name (`week`, `1m`: 30 days, as that chip's); anything else is read as the CLI reads --from/--to.
 */
function dateOf(name: string, value: string): Found | string {
  const end = name === 'since' || name === 'from' ? 'from' : 'to';
  const text = (end === 'from' && pick(WHEN, value.toLowerCase())) || value;
  const read = dateMs(text, end);
  if ('ms' in read) return { key: end, value: text };
  return read.invalid === 'form' ? `${name}: takes ${RANGE_FORMS}; not “${value}”.` : `${name}: ${read.error}.`;
}

/** A typed agent by the chip's value or its label, however spaced ("Claude Desktop", claude-desktop). */
function agentOf(value: string): string | undefined {
  const plain = (s: string) => s.toLowerCase().replace(/[\s_-]+/g, '-');
  return agentChoices().find((choice) => choice.value !== undefined && (choice.value === plain(value) || plain(choice.label) === plain(value)))?.value;
}

function projectOf(value: string, projects: readonly TypedProject[]): Found | string {
  const named = projects.filter((p) => p.projectKey === value || p.name.toLowerCase() === value.toLowerCase());
  if (named.length === 1) return { key: 'project', value: named[0]!.projectKey };
  return named.length === 0 ? `No project is called “${value}”: pick one in the Project list.` : `More than one project is called “${value}”: pick one in the Project list.`;
}

/**
 * The chip a typed `name:value` stands for, or what is wrong with it; undefined for a name that is no
 * filter (`tool:Bash`, `http:`), and for a project while the list is not known yet (undefined): refusing
 * a name not yet loaded would be wrong, so it is searched as written.
 */
function filterOf(name: string, value: string, projects: readonly TypedProject[] | undefined): Found | string | undefined {
  const lower = value.toLowerCase();
  switch (name) {
    case 'project':
      return projects && projectOf(value, projects);
    case 'role': {
      const who = pick(WHO, lower);
      return who ? { key: 'who', value: who } : `role: takes user or assistant, not “${value}”.`;
    }
    case 'kind': {
      const kind = pick(KIND, lower);
      return kind ? { key: 'kind', value: kind } : `kind: takes message, tool_use, tool_result or thinking, not “${value}”.`;
    }
    case 'since':
    case 'from':
    case 'until':
    case 'to':
      return dateOf(name, value);
    case 'provider':
    case 'agent': {
      const agent = agentOf(value);
      const all = agentChoices().flatMap((c) => (c.value === undefined ? [] : [c.value]));
      return agent ? { key: 'provider', value: agent } : `${name}: takes ${all.slice(0, -1).join(', ')} or ${all[all.length - 1]}, not “${value}”.`;
    }
    default:
      return undefined;
  }
}

const EXAMPLE: Record<string, string> = { project: 'project:billing-api', role: 'role:user', kind: 'kind:tool_use', since: 'since:7d', from: 'from:7d', until: 'until:2026-03-31', to: 'to:2026-03-31', provider: 'provider:codex', agent: 'agent:codex' };

/**
 * A word, or a phrase in double quotes, or `name:value` / `name:"a value"`; the spaces between are kept
 * apart. A value starts right after the colon: `kind: Deployment` (YAML), `reply to: bob` are words.
 */
const PIECE = /([A-Za-z]+):("[^"]*"?|\S+)|"[^"]*"?|\S+/g;

/**
 * The filters typed in the box (`project:billing-api role:user since:7d until:2026-03`) as the chips they name, out
 * of the words, which stay the query. Only the names below are filters: any other `word:word` (a URL,
 * a time, `tool:Bash`) is searched as written. Applied as pressing the chips would (withChip), so two
 * that cannot meet leave the last one typed.
 */
export function typedFilters(text: string, filters: SearchFilters, projects: readonly TypedProject[] | undefined): Typed {
  let next = filters;
  const words: string[] = [];
  for (const match of text.matchAll(PIECE)) {
    const [piece, rawName, rawValue] = match;
    if (rawName === undefined) {
      words.push(piece);
      continue;
    }
    const name = rawName.toLowerCase();
    const value = (rawValue ?? '').replace(/^"|"$/g, '').trim();
    if (value === '' && EXAMPLE[name]) return { problem: `${name}: needs a value, such as ${EXAMPLE[name]}.` };
    const found = filterOf(name, value, projects);
    if (typeof found === 'string') return { problem: found };
    if (found === undefined) words.push(piece);
    else if (found.key === 'from' || found.key === 'to') next = withDate(next, found.key, found.value);
    else next = withChip(next, found.key, found.value);
  }
  const reversed = backwards(next.from, next.to);
  return reversed ? { problem: reversed } : { filters: { ...next, q: words.join(' ') } };
}
