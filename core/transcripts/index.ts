// Owns: the transcript providers (discovery, parsing into bounded parts and flags, parser versions and resume state), where their roots are, the fingerprint map and the read worker.
// Never: writes to a store; it yields batches and counts, and never deletes or modifies a transcript.
export { PART_FLAGS, TOOL_RESULT_ROLE, countsAsMessage, messageOf, namedBlock, startsMessage, type PartRow, type SessionRow, type TitleClaim, type TranscriptBatch, type TranscriptFile, type TranscriptProvider, type LineStats, type ReadOptions, type DiscoveryResult } from './types.js';
export { FingerprintMap } from './fingerprint.js';
export { TranscriptReader, type UpcomingRead } from './reader.js';
export { failWhenNothingRead } from './lines.js';
export { FIRST_LINE_MS, isLineTime, LAST_LINE_MS, sha256 } from './bounds.js';
export { blankSession } from './projection.js';
export { COPIED_ID_PROVIDERS, createProviders, PROVIDER_REGISTRY } from './providers/index.js';
export { transcriptsHandlers } from './handlers.js';
export { chatPlace as geminiChatPlace, contentCallKey as geminiContentCallKey, GEMINI_PROJECT, hashPrefixOf as geminiHashPrefix, KnownFolders, unknownFolderPrefix, type FolderList } from './providers/gemini/index.js';
