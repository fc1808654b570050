export { type PartRow, type SessionRow, type TranscriptBatch, type TranscriptFile, type TranscriptProvider, type LineStats, type ReadOptions, type DiscoveryResult } from './types.js';
export { FingerprintMap } from './fingerprint.js';
export { readCompleteLines } from './lines.js';
export { TranscriptReader, ReadFailed } from './reader.js';
export { Scan } from './scan.js';
export { ClaudeProvider, type ClaudeRoots } from './claude/index.js';
export { OpenClawProvider, isOpenClawTranscript } from './openclaw/index.js';
export { resolveRoots, type ProviderRoots } from './roots.js';
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
