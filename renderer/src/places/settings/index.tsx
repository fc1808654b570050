import type { ReactElement } from 'react';
import { DetailList, EmptyState, ErrorBanner, formatDuration, Panel, PlaceHeader } from '../../components/index.js';
import { refreshInfo, usePanel } from '../../store.js';
import { CacheRetention } from './CacheRetention.js';
import { AgentContext } from './AgentContext.js';
import { CuratorSettings } from './CuratorSettings.js';

const HOME_KIND = { env: 'The STEWARD_HOME environment variable', 'platform-default': "This platform's app-data folder" } as const;
const TRANSPORT = { bridge: 'Desktop app (IPC)', http: 'Loopback HTTP (steward serve)' } as const;

/**
 * Settings: facts about this Steward (`App.Info`), the editable curator choice and a manual pass of
 * the cache retention window; everything else lives in config.json.
 */
export function SettingsPlace(): ReactElement {
  const info = usePanel((state) => state.info);
  const infoError = usePanel((state) => state.infoError);
  const transportKind = usePanel((state) => state.transportKind);
  return (
    <>
      <PlaceHeader title="Settings" description="How this Steward is set up, and where its settings live." />
      <ErrorBanner title="Steward's details could not be loaded." error={infoError} onRetry={() => void refreshInfo()} />
      <Panel title="About this Steward">
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
              { term: 'Running for', value: formatDuration(info.uptimeMs) },
            ]}
          />
        )}
      </Panel>
      <CuratorSettings />
      <AgentContext />
      <CacheRetention />
      <EmptyState icon="settings" title="Other settings" size="compact">
        <p>
          Settings live in <code>config.json</code> under <code>STEWARD_HOME</code>, Steward&rsquo;s home folder. Steward reads it at start
          and rejects unknown keys with a message naming the key; environment variables with the <code>STEWARD_</code> prefix override it.
        </p>
      </EmptyState>
    </>
  );
}
