import type { ReactElement } from 'react';
import type { CandidateEvidence as Holding, ConflictCandidate } from '../../../../core/api/index.js';
import { countOf, formatCount, formatRelativeTime } from '../../components/index.js';

function sizeWords(bytes: number): string {
  if (bytes < 1024 * 1024) return `${formatCount(Math.max(1, Math.round(bytes / 1024)))} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** What a copy holds and when it last changed: how a person tells two copies apart (this panel only). */
function Holdings({ evidence }: { evidence: Holding | undefined }): ReactElement | null {
  if (!evidence) return null;
  const parts = [
    evidence.items !== null ? `holds ${countOf(evidence.items, 'item')}` : 'cannot be read',
    evidence.sizeBytes !== null ? sizeWords(evidence.sizeBytes) : null,
    evidence.lastSyncAt !== null ? `last synced ${formatRelativeTime(evidence.lastSyncAt)}` : 'never synced here',
    evidence.lastModifiedAt !== null ? `file changed ${formatRelativeTime(evidence.lastModifiedAt)}` : null,
  ].filter((p): p is string => p !== null);
  return (
    <span className="conflict-holdings" data-testid="candidate-holdings">
      This copy {parts.join(' · ')}.
    </span>
  );
}

export function CandidateEvidence({ candidate, evidence }: { candidate: ConflictCandidate; evidence: Holding | undefined }): ReactElement {
  return (
    <span className="conflict-candidate__body">
      <Holdings evidence={evidence} />
      <span>
        <strong>Path fingerprint</strong> <span className="conflict-mono">{candidate.pathFingerprint ?? 'none (legacy record)'}</span>
        <span className="muted"> · previously {candidate.priorEnabled ? 'enabled' : 'disabled'}</span>
      </span>
      <ul className="conflict-members">
        {candidate.members.map((m) => (
          <li key={`${m.registrationId ?? ''}:${m.legacyId ?? ''}`}>
            {m.canonicalRepoId ?? (m.aliases.join(', ') || '—')}
            {m.aliases.length > 0 && m.canonicalRepoId !== null && <> · aliases {m.aliases.join(', ')}</>}
            {m.policyHash !== null && <> · policy <span className="conflict-mono">{m.policyHash}</span></>}
            {m.configHash !== null && <> · config <span className="conflict-mono">{m.configHash.slice(0, 16)}</span></>}
            {m.sourceAuthorities.length > 0 && <> · sources <span className="conflict-mono">{m.sourceAuthorities.join(', ')}</span></>}
            {m.legacyIds.length > 0 && <> · legacy {m.legacyIds.join(', ')}</>}
          </li>
        ))}
      </ul>
    </span>
  );
}

