import type { ReactElement } from 'react';
import type { Result } from '../../../../core/api/index.js';
import { useNow } from '../../clock.js';
import { countOf, DataTable, formatBytes, formatCount, providerLabel, Together, type Column } from '../../components/index.js';
import { datesWords, olderCellWords } from './listing-words.js';
import { olderWords, storedOlderAt } from './window.js';

type Survey = Result<'Providers.Survey'>['providers'][number];

const COLUMNS: readonly Column<Survey>[] = [
  { header: 'Agent', cell: (s) => providerLabel(s.provider) },
  { header: 'Files', align: 'end', cell: (s) => formatCount(s.files) },
  { header: 'Size', align: 'end', cell: (s) => <Together>{formatBytes(s.bytes)}</Together> },
  { header: 'Dates', cell: datesWords },
  { header: 'In the folders, older than the window', align: 'end', cell: olderCellWords },
];

/** What the agents' folders hold, from their listing alone: per agent, then in one sentence. */
export function Listing({ survey }: { survey: Result<'Providers.Survey'> }): ReactElement {
  const files = survey.providers.reduce((n, s) => n + s.files, 0);
  const older = survey.providers.reduce((n, s) => n + s.older.files, 0);
  const bytes = survey.providers.reduce((n, s) => n + s.bytes, 0);
  const olderMessages = survey.providers.reduce((n, s) => n + s.olderMessages, 0);
  const uncounted = survey.providers.reduce((n, s) => n + s.olderUncounted, 0);
  // The files' times alone cannot show old messages in new files; the stored messages' dates can (a window is days wide: an hourly clock will do).
  const storedBefore = storedOlderAt(survey, useNow(3_600_000));
  return (
    <div data-testid="first-run-listing" data-files={files} data-older={older} data-older-messages={olderMessages} data-older-uncounted={uncounted}>
      <DataTable caption="What the agents' folders hold" columns={COLUMNS} rows={survey.providers.filter((s) => s.files > 0)} rowKey={(s) => s.provider} />
      <p>
        {files === 0
          ? 'No transcript was found in these folders yet. New conversations are picked up as your agents write them.'
          : `${countOf(files, 'transcript file')} (${formatBytes(bytes)}) in all; ${olderWords(files, older, olderMessages, uncounted, storedBefore)}.`}
      </p>
    </div>
  );
}
