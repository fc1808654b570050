// Owns: the transcript providers (discovery, parsing into bounded parts), the fingerprint map and the read worker.
// Never: writes to a store; it yields batches and counts, and never deletes or modifies a transcript.
export { type PartRow, type SessionRow, type TranscriptBatch, type TranscriptFile, type TranscriptProvider, type LineStats, type ReadOptions } from './types.js';
export { FingerprintMap } from './fingerprint.js';
export { TranscriptReader } from './reader.js';
export { sha256 } from './bounds.js';

import type { Config } from '../config/index.js';
import { ClaudeProvider } from './claude/index.js';
import { OpenClawProvider } from './openclaw/index.js';
import { resolveRoots } from './roots.js';
import type { TranscriptProvider } from './types.js';

/** The provider registry, in registry order. */
export function createProviders(config: Config, env: NodeJS.ProcessEnv): TranscriptProvider[] {
  const roots = resolveRoots(config, env);
  return [new ClaudeProvider({ roots: roots.claude, desktopRoots: roots.claudeDesktop }), new OpenClawProvider(roots.openclaw)];
}
