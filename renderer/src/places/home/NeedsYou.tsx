import type { ReactElement } from 'react';
import type { StatusItem } from '../../client.js';
import { Badge, EmptyState, Panel, plainText } from '../../components/index.js';
import { placeHref } from '../../navigation.js';
import { usePanel } from '../../store.js';

const KIND_WORDS: Partial<Record<StatusItem['kind'], string>> = {
  conflict: 'Conflict',
  'curator-paused': 'Curator paused',
  'provider-failing': 'Agent failing',
  'plan-waiting': 'Plan waiting',
  'import-failed': 'Import failed',
  'curator-failed': 'Notes failed',
  'sync-failed': 'Sync failed',
};

/** Everything the status model says needs the person or failed, each a link to where it is dealt with. */
export function NeedsYou(): ReactElement {
  const status = usePanel((state) => state.status);
  const items = [...(status?.errors ?? []), ...(status?.attention ?? [])];
  return (
    <Panel title="Needs you">
      {status !== undefined && items.length === 0 ? (
        <EmptyState icon="check" tone="good" size="compact" title="Nothing needs you">
          <p>
            Conflicts between repository caches, plans waiting for your confirmation, paused curators and agents whose transcripts keep failing to import appear
            here, each with a link to where you deal with it.
          </p>
        </EmptyState>
      ) : (
        <ul className="needs-you" data-testid="needs-you">
          {items.map((item) => (
            <li key={`${item.kind}:${item.subject ?? ''}`} className="needs-you__item">
              <Badge tone={status?.errors.includes(item) ? 'danger' : 'warn'}>{KIND_WORDS[item.kind] ?? 'Needs you'}</Badge>{' '}
              {item.place ? <a href={placeHref(item.place)}>{plainText(item.text)}</a> : plainText(item.text)}
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
