// Owns nothing of its own: the contract's names that load without its schemas (the provider registry,
// the word lists, where a text may be cut). The read worker parses transcripts with these alone; the
// contract's index builds every zod schema, a fifth of a second of each new thread's start.
export { PROVIDERS, PROVIDER_IDS, type ProviderId, type RootKey, type RootKind } from '../registry.js';
export { TITLE_SOURCES, type SkipReason, type TitleSource } from '../lists.js';
export { wholeAt } from '../words.js';
export { CUT_GAP } from '../part-words.js';
