import type { ReactElement } from 'react';
import type { Result } from '../../../../core/api/index.js';
import { folderFoundWords } from '../../../../core/api/root-words.js';
import { Badge, ErrorBanner, Panel, PathText, providerLabel } from '../../components/index.js';
import { useCall } from '../../hooks.js';
import { placeHref } from '../../navigation.js';
import { useFolderSurvey } from './survey.js';
import { SECTIONS } from '../settings/sections.js';

type Provider = Result<'Providers.Roots'>['providers'][number];
type Survey = Result<'Providers.Survey'>;

/** What chose a kind's folders when the person did (`set by STEWARD_CODEX_ROOTS`, `set in Settings`); null for the defaults. */
function setBy(kind: Provider['roots'][number]): string | null {
  if (kind.source === 'default') return null;
  return kind.source === 'environment' ? `set by ${kind.env}` : 'set in Settings';
}

/** A found folder's badge: good when it holds conversations, plain when it holds none yet (folderFoundWords). */
function FoundBadge({ files }: { files: number | undefined }): ReactElement {
  const words = folderFoundWords(true, files);
  return <Badge tone={words === 'Found' ? 'good' : 'neutral'}>{words}</Badge>;
}

/**
 * Each folder found or not. A default folder not found means only that the agent is not installed
 * here; one the person set that is not found is likely a typo: marked, with what set it. A found
 * folder with no transcript says so (`files`: what the agent's folders hold, undefined until counted).
 */
export function Folders({ provider, files }: { provider: Provider; files?: number | undefined }): ReactElement {
  const folders = provider.roots.flatMap((kind) => kind.watched.map((folder) => ({ ...folder, kind })));
  if (folders.length === 0) {
    const byEnv = provider.roots.find((kind) => kind.source === 'environment');
    return <p className="muted">No folder{byEnv ? ` (${byEnv.env} names none)` : ''}.</p>;
  }
  return (
    <ul className="watched__folders">
      {folders.map((folder) => (
        <li key={`${folder.kind.key}:${folder.path}`}>
          {folder.exists ? <FoundBadge files={files} /> : <Badge tone={setBy(folder.kind) ? 'warn' : 'neutral'}>{folderFoundWords(false, files)}</Badge>} <PathText path={folder.path} />
          {!folder.exists && setBy(folder.kind) && <span className="muted"> · {setBy(folder.kind)}</span>}
          {provider.roots.length > 1 && <span className="muted"> · {folder.kind.label}</span>}
        </li>
      ))}
    </ul>
  );
}

/** Home's card: asks what the folders hold itself, again after a check that found other files (Getting started passes its own). */
export function Watched(): ReactElement {
  const survey = useFolderSurvey();
  return <WatchedFolders survey={survey.data} />;
}

/**
 * Each agent Steward reads, whether it is on, and the folders it looks in, found or not, and found
 * with no conversation yet (`survey`: what the folders hold, undefined until listed).
 */
export function WatchedFolders({ survey }: { survey: Survey | undefined }): ReactElement {
  const roots = useCall('Providers.Roots', {});
  return (
    <Panel title="Agents watched" actions={<a href={placeHref('settings', SECTIONS.agents.id)}>Change in Settings</a>}>
      <ErrorBanner title="The watched folders could not be listed." error={roots.error} onRetry={roots.reload} />
      <ul className="watched" data-testid="watched">
        {roots.data?.providers.map((provider) => (
          <li key={provider.provider} className="watched__agent" data-provider={provider.provider}>
            <h3 className="watched__name">
              {providerLabel(provider.provider)} {provider.enabled ? <Badge tone="accent">On</Badge> : <Badge>Off</Badge>}
            </h3>
            {provider.enabled && <Folders provider={provider} files={survey?.providers.find((p) => p.provider === provider.provider)?.files} />}
          </li>
        ))}
      </ul>
    </Panel>
  );
}
