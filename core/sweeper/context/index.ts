// Owns: the session-start context for agents: Steward's notes for the project a folder belongs to, shaped as a Claude Code hook's answer.
// Never: opens a database, takes the owner lock or loads the config schema (the hook must start fast and never block a running owner); never fails the agent's session.
export { sessionContext, hookAnswer, notesFromAboveWords, CONTEXT_MAX_BYTES, type SessionContext } from './context.js';
export { notesFolderOf } from './notes-folder.js';
// The one rule for what may stand in a note, for every reader that hands notes on (MCP's project_overview).
export { clean } from '../clean.js';
