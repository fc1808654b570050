import type { ReactElement } from 'react';
import { projectChoiceLabels } from '../../../../core/api/names.js';
import { ChoiceChips } from '../../components/index.js';
import { searchHref } from '../../navigation.js';
import { agentChoices, filtersToParams, replacesEntry, withChip, type SearchFilters } from './filters.js';

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
  const named = CHIPS.filter((chip) => chip.key !== 'sort' && filters[chip.key] !== undefined).map(
    (chip) => (chip.options as ReadonlyArray<{ value: unknown; label: string }>).find((option) => option.value === filters[chip.key])?.label ?? String(filters[chip.key]),
  );
  if (filters.project === undefined) return named;
  return [...named, `project ${projectChoiceLabels(projects).get(filters.project) ?? filters.project}`];
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
      {CHIPS.map((chip) => (
        <ChoiceChips
          key={chip.key}
          className="search-chips__group"
          label={chip.label}
          options={chip.options.map((option) => option.label)}
          chosen={chip.options.findIndex((option) => filters[chip.key] === option.value)}
          onChoose={(index) => go(withChip(filters, chip.key, chip.options[index]!.value), filters)}
        />
      ))}
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

