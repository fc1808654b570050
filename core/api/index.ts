// Owns: the one contract — every method and event (zod schemas), the domain's word lists and how a count is said in English, typed errors, the dispatcher and the event bus.
// The panel imports these files at run time, each importing nothing: registry.ts (the providers), reading.ts (whose words a message holds), part-words.ts (what a role and each kind of part are called), import-words.ts (what an import left out), maintenance-words.ts (why a cache's sync failed, what a repository search says), names.ts (how a person names a project), indexing-words.ts (what a search says while the index is re-tagged), sweeper-words.ts (why a sweep of notes did not run) and retention-words.ts (what a clean-up would take for good).
// Never: imports another room or a Node built-in; every runtime (core, electron, the browser panel) can load it.
export * from './contract.js';
export * from './errors.js';
export * from './dispatcher.js';
export * from './events.js';
export * from './client.js';
export * from './lists.js';
export { namedFor, paramsWords, refusedField } from './params-words.js';
export { contractFingerprint } from './fingerprint.js';
export { countOf, cutShortWords, nounFor, numberOf, sessionCountWords, wholeAt, type CutKept } from './words.js';
export { lostWords } from './retention-words.js';
export { DATE_FORMS, EpochMs, LAST_MS, localDay, localTime, parseDateText, parseIsoDate } from './dates.js';
export { appName, PROVIDERS, PROVIDER_IDS, rootKinds, type ProviderId, type RootKey, type RootKind, type ProviderDescriptor } from './registry.js';
export { ProviderRootsView, ProviderSurvey } from './providers.js';
export { ROOT_LEFT_OUT_REASONS, ROOT_LEFT_OUT_WHY, ROOT_LEFT_OUT_WORDS, folderFoundWords, type RootLeftOutReason } from './root-words.js';
export { ProjectKey, IdempotencyKey, SessionId, RepoId, REPO_ID_SHAPE } from './ids.js';
export { noStoredProjectWords, otherSpellingsWords, PROJECT_KEY_SHAPE, projectChoiceLabels, projectsNamed, subagentParentOf, type NamedProject, type PlacedProject } from './names.js';
export { PROTOCOL_VERSION, MAINTENANCE_PROTOCOL, AppStatus, StatusItem, STATUS_STATES, STATUS_PLACES, STATUS_KINDS, PAUSED_TEXT, statusLines, type StatusState, type StatusPlace, type StatusKind } from './app.js';
export { HttpUrl, StartAtLoginView, SettingsValues, SettingsConfigView, EDITABLE_SETTINGS, SETTINGS_APPLIED_NOW, isEditableSetting } from './settings.js';
export { TelemetryEntry } from './telemetry.js';
export { ProviderSweepStats, SweepResult, UnreadableFile } from './sweep.js';
export { NOTES_STATES, NotesState, ProjectListed, ProjectNotes, ProjectSummary } from './projects.js';
export { SweeperOutcome, SweeperStateView, SweeperStateDegraded, SweeperRunResult, CuratorPause, SweeperBudget } from './sweeper.js';
export { FORCEABLE_SKIPS, SWEEP_FAILURE_WORDS, SWEEP_OUTCOME_WORDS, SWEEP_SKIP_WORDS, nothingNewWords, sweepFailureWords, sweepRunWords, sweepSkipWords } from './sweeper-words.js';
export { HookPlan, HookStatus } from './hooks.js';
export { PruneReport, CacheStats } from './cache.js';
export { RegistrationStatus, CollectionStatus, JobStatus, MaintenancePolicy, SetupRequest, DocumentSource, SetupEffect, SetupBlocker, SetupPlan, SetupApplied, WaitingPlan, type ReconcileResult } from './maintenance.js';
export { ConflictView, ConflictCandidate, ConflictPlan, CandidateEvidence } from './conflicts.js';
export { setupPlanJson, setupAppliedJson } from './setup-json.js';
export { CHECKED_OUT_REF, DOCUMENT_SOURCES_LIMIT, folderWords, WORKTREE_REF } from './document-sources.js';
export { RepositoryHit, RepositorySearchResult, SEARCH_DEGRADED, DEGRADED_TEXT, degradedText, repoMatches, type SearchDegraded } from './repository.js';
export { indexingNote, lastCheckOf, nobodyImportsNote, nobodyIndexesNote, nobodyRunsNote, percentDown, type IndexingFigure } from './indexing-words.js';
export { hasSearchFilter, NOTHING_TO_SEARCH, SEARCH_APPS, searchAppOf, SEARCH_PROVIDERS, SearchHit, SearchSession, SearchQueryResult, SearchIndexingResult, type NothingToFind, type SearchApp } from './search.js';
export { commandText, EDITING_TOOLS, patchedFiles, SHELL_TOOLS, TOOL_ARGUMENTS, toolArgumentKeys, type ToolArgumentKind } from './tool-arguments.js';
export { readToolResult, type ToolResultReading } from './tool-results.js';
export { commandLine, conversationName, EMPTY_MESSAGE_KIND, groupBySession, harnessKind, hitVoice, isBlankText, joinedContext, withoutBlankEnds, lastActiveAt, moreLikeIt, subagentPlaces, subagentsAt, timeSpan, voiceOf, type ContextPart, type HarnessKind, type ShownPart, type SubagentPlaces, type SubagentStart, type Voice, type VoicedPart } from './reading.js';
export { byRemedy, failuresOf, remedyOf, remedyWords, SKIP_WORDS, WITHHELD_WORDS, unreadableWhy, whatIsWrong, type Remedy, type RunFailures } from './import-words.js';
export {
  byUrgency,
  CLOSEST_IN_MEANING,
  collectionLabel,
  COLLECTION_LABELS,
  DECISION_KINDS,
  failureWords,
  FORGE_TOKEN_NAMES,
  frontierWords,
  generationWords,
  isDecision,
  laneWords,
  policyWords,
  reasonWords,
  STATE_LABELS,
  tokenNameOf,
} from './maintenance-words.js';
export { COMPACTION_FOLD, COMPACTION_SPEAKER, CUT_GAP, foldLine, imageLine, isCompactionSummary, isSummaryMessage, kindLabel, MAIN_AGENT, outputLinesWords, partFold, resultImageLines, resultImagesLine, REWOUND_LINE, rewoundMarks, roleWord, ROLE_WORDS, TOOL_OUTPUT, type PartFold } from './part-words.js';
export { SessionSummary, ParentKind, SessionPart, SessionMessage, SessionSubagent, SessionExport, SessionExportPiece, harnessLine, hitLine, hitLineFrom, hitSpeaker, messageSpeaker, SESSION_MISSING, missingError, missingOf, pageCountWords, partHolderOf, type SessionMissing } from './sessions.js';
export { FORGET_VIA, type ForgetVia, ForgetCover, Tombstone, ForgetResult, ScrubResult, ScrubStatus } from './forget.js';
