import type { ReactElement } from 'react';
import type { Result } from '../../../../core/api/index.js';
import { countOf, DataTable, formatBytes, formatCount, providerLabel, type Column } from '../../components/index.js';
import { datesWords } from './listing-words.js';
import { olderWords } from './window.js';

type Survey = Result<'Providers.Survey'>['providers'][number];

const COLUMNS: readonly Column<Survey>[] = [
  { header: 'Agent', cell: (s) => providerLabel(s.provider) },
  { header: 'Files', align: 'end', cell: (s) => formatCount(s.files) },
  { header: 'Size', align: 'end', cell: (s) => formatBytes(s.bytes) },
  { header: 'Dates', cell: datesWords },
  { header: 'Older than the window', align: 'end', cell: (s) => (s.windowDays === 0 ? 'none (keeps everything)' : `${formatCount(s.older.files)} (${formatBytes(s.older.bytes)})${s.olderMessages > 0 ? `, and up to ${countOf(s.olderMessages, 'message')} in newer files` : ''}${s.olderUncounted > 0 ? `, and ${countOf(s.olderUncounted, 'newer file')} not counted yet` : ''}`) },
];

/** What the agents' folders hold, from their listing alone: per agent, then in one sentence. */
export function Listing({ survey }: { survey: Result<'Providers.Survey'> }): ReactElement {
  const files = survey.providers.reduce((n, s) => n + s.files, 0);
  const older = survey.providers.reduce((n, s) => n + s.older.files, 0);
  const bytes = survey.providers.reduce((n, s) => n + s.bytes, 0);
  const olderMessages = survey.providers.reduce((n, s) => n + s.olderMessages, 0);
  const uncounted = survey.providers.reduce((n, s) => n + s.olderUncounted, 0);
  return (
    <div data-testid="first-run-listing" data-files={files} data-older={older} data-older-messages={olderMessages} data-older-uncounted={uncounted}>
      <DataTable caption="What the agents' folders hold" columns={COLUMNS} rows={survey.providers.filter((s) => s.files > 0)} rowKey={(s) => s.provider} />
      <p>
        {files === 0
          ? 'No transcript was found in these folders yet. New conversations are picked up as your agents write them.'
          : `${countOf(files, 'transcript file')} (${formatBytes(bytes)}) in all; ${olderWords(files, older, olderMessages, uncounted)}.`}
      </p>
    </div>
  );
}
