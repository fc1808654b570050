import type { ReactElement } from 'react';
import { DetailList, ErrorBanner, formatDuration, Panel } from '../../components/index.js';
import { useNow } from '../../clock.js';
import { refreshInfo, usePanel } from '../../store.js';
import { SECTIONS } from './sections.js';

const HOME_KIND = { env: 'The STEWARD_HOME environment variable', 'platform-default': "This platform's app-data folder" } as const;
const TRANSPORT = { bridge: 'Desktop app (IPC)', http: 'Loopback HTTP (steward serve)' } as const;

/** Facts for bug reports and developers, out of the way of the settings. "Running for" keeps moving. */
export function AboutBox(): ReactElement {
  const info = usePanel((state) => state.info);
  const infoError = usePanel((state) => state.infoError);
  const transportKind = usePanel((state) => state.transportKind);
  const now = useNow(1_000);
  return (
    <Panel title={SECTIONS.about.title} id={SECTIONS.about.id}>
      <ErrorBanner title="Steward's details could not be loaded." error={infoError} onRetry={() => void refreshInfo()} />
      {info === undefined ? (
        <p className="muted">Loading…</p>
      ) : (
        <DetailList
          label="About this Steward"
          items={[
            { term: 'Version', value: info.version },
            { term: 'Protocol', value: String(info.protocol) },
            { term: 'Platform', value: info.platform },
            { term: 'Home folder from', value: HOME_KIND[info.homeKind] },
            { term: 'Connected through', value: transportKind ? TRANSPORT[transportKind] : '—' },
            // Counted from when the reply came, so it moves without asking the owner again.
            { term: 'Running for', value: formatDuration(info.uptimeMs + (now - (usePanel.getState().infoAt ?? now))) },
          ]}
        />
      )}
    </Panel>
  );
}
