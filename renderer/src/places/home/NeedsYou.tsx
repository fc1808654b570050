import type { ReactElement } from 'react';
import { byUrgency } from '../../../../core/api/maintenance-words.js';
import type { AppStatus, StatusItem } from '../../client.js';
import { Badge, EmptyState, Panel, plainText } from '../../components/index.js';
import { placeHref } from '../../navigation.js';
import { usePanel } from '../../store.js';
import { UnreadableFiles } from '../telemetry/UnreadableFiles.js';

const KIND_WORDS: Partial<Record<StatusItem['kind'], string>> = {
  conflict: 'Conflict',
  'curator-paused': 'Curator paused',
  'provider-failing': 'Agent failing',
  'plan-waiting': 'Plan waiting',
  'files-unreadable': 'Unreadable file',
  'import-failed': 'Import failed',
  'curator-failed': 'Notes failed',
  'sync-failed': 'Sync failed',
};

/** Whether `item` is the first of its kind: files of every provider are named once, under the first warning about them. */
function first(items: readonly StatusItem[], item: StatusItem): boolean {
  return items.find((other) => other.kind === item.kind) === item;
}

/** Everything the status model says needs the person or failed, each a link to where it is dealt with. */
export function NeedsYou(): ReactElement {
  return <NeedsYouList status={usePanel((state) => state.status)} />;
}

/** The list, in the status headline's order (byUrgency): what only the person can decide, then failures, then the rest. */
export function NeedsYouList({ status }: { status: AppStatus | undefined }): ReactElement {
  const items = status ? byUrgency(status) : [];
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
              {/* The status only counts them; here, where the warning is, they are named. */}
              {item.kind === 'files-unreadable' && first(items, item) && <UnreadableFiles compact />}
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
