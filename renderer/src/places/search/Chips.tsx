import type { ReactElement } from 'react';
import { projectChoiceLabels } from '../../../../core/api/names.js';
import { ChoiceChips } from '../../components/index.js';
import { searchHref } from '../../navigation.js';
import { agentChoices, filtersToParams, replacesEntry, withChip, type SearchFilters } from './filters.js';
import { Dates } from './Dates.js';
import { rangeWords } from './range.js';

interface Chip<K extends keyof SearchFilters> {
  key: K;
  label: string;
  options: ReadonlyArray<{ value: SearchFilters[K]; label: string }>;
}

const CHIPS = [
  { key: 'who', label: 'Said by', options: [{ value: undefined, label: 'Anyone' }, { value: 'me', label: 'What I said' }, { value: 'assistant', label: 'The assistant' }] } satisfies Chip<'who'>,
  {
    key: 'kind',
    label: 'Kind',
    options: [
      { value: undefined, label: 'Everything' },
      { value: 'text', label: 'Messages' },
      { value: 'tool_use', label: 'Tool calls' },
      { value: 'tool_result', label: 'Tool output' },
      { value: 'thinking', label: 'Thinking' },
    ],
  } satisfies Chip<'kind'>,
  { key: 'when', label: 'When', options: [{ value: undefined, label: 'Any time' }, { value: '7d', label: 'Past week' }, { value: '30d', label: 'Past month' }, { value: '365d', label: 'Past year' }] } satisfies Chip<'when'>,
  { key: 'provider', label: 'Agent', options: agentChoices() } satisfies Chip<'provider'>,
  { key: 'sort', label: 'Order', options: [{ value: undefined, label: 'Best match' }, { value: 'newest', label: 'Newest first' }] } satisfies Chip<'sort'>,
] as const;

/**
 * The filters in use, named as their chips are (the project by its name in the list, else its key),
 * for the words an empty search says; the order is no filter.
 */
export function filterNames(filters: SearchFilters, projects: Parameters<typeof projectChoiceLabels>[0]): string[] {
  const named = CHIPS.filter((chip) => chip.key !== 'sort').flatMap((chip) => {
    const { labels, chosen } = groupOf(chip, filters);
    return chosen > 0 ? [labels[chosen]!] : filters[chip.key] === undefined ? [] : [String(filters[chip.key])];
  });
  if (filters.project === undefined) return named;
  return [...named, `project ${projectChoiceLabels(projects).get(filters.project) ?? filters.project}`];
}

/** The date range typed in the box (since:2026-01-01), when there is one: not a When chip, but shown among them. */
function rangeOf(filters: SearchFilters): string | undefined {
  return filters.from === undefined && filters.to === undefined ? undefined : rangeWords(filters.from, filters.to);
}

/**
 * A group's chips' words and the chosen one (-1: none). A typed date range is one more When chip, in
 * words ("1 Jan – 31 Mar 2025"), chosen: Any time or a When chip takes its place (withChip).
 */
function groupOf(chip: (typeof CHIPS)[number], filters: SearchFilters): { labels: string[]; chosen: number } {
  const labels = chip.options.map((option) => option.label);
  const range = chip.key === 'when' ? rangeOf(filters) : undefined;
  if (range !== undefined) return { labels: [...labels, range], chosen: labels.length };
  return { labels, chosen: (chip.options as ReadonlyArray<{ value: unknown }>).findIndex((option) => filters[chip.key] === option.value) };
}

/** Shows the search `to`, reached from `from` (the search shown): a new history entry, or in its place (replacesEntry). */
export function go(to: SearchFilters, from: SearchFilters): void {
  const href = searchHref(filtersToParams(to));
  if (replacesEntry(from, to)) window.location.replace(href);
  else window.location.hash = href;
}

/** The filters as chips (one group per filter, one chosen chip each), and the project as a list (`projects`: Projects.List's, which the place asks for once). */
export function Chips({ filters, projects }: { filters: SearchFilters; projects: Parameters<typeof projectChoiceLabels>[0] }): ReactElement {
  const labels = projectChoiceLabels(projects);
  return (
    <div className="search-chips">
      {CHIPS.map((chip) => {
        const { labels, chosen } = groupOf(chip, filters);
        return (
          <ChoiceChips
            key={chip.key}
            className="search-chips__group"
            label={chip.label}
            options={labels}
            chosen={chosen}
            // The typed range's chip is past the group's own: choosing it again changes nothing.
            onChoose={(index) => index < chip.options.length && go(withChip(filters, chip.key, chip.options[index]!.value), filters)}
          />
        );
      })}
      <Dates filters={filters} go={(to) => go(to, filters)} />
      {projects.length > 0 && (
        <label className="search-chips__project">
          <span>Project</span>
          <select className="select" value={filters.project ?? ''} onChange={(e) => go({ ...filters, project: e.currentTarget.value || undefined }, filters)}>
            <option value="">All projects</option>
            {projects.map((p) => (
              <option key={p.projectKey} value={p.projectKey}>
                {labels.get(p.projectKey)}
              </option>
            ))}
          </select>
        </label>
      )}
    </div>
  );
}

