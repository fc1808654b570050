// Owns: Gemini CLI chats: default roots, discovery of main and subagent chats, the record parser, project folders (a hash folder's project, matched to known folders by KnownFolders on the owner).
// Never: stores a message block twice because its file was rewritten or Gemini recorded its turn again, or invents a project path Gemini did not record.
import { join } from 'node:path';
import { agentFolderVar, userHome } from '../../roots.js';
import type { ProviderDefinition } from '../../types.js';
import { GeminiProvider } from './provider.js';

export { chatPlace, GEMINI_PROJECT, GeminiProvider } from './provider.js';
export { contentCallKey } from './messages.js';
export { hashPrefixOf, KnownFolders, unknownFolderProject, unknownFolderPrefix, type FolderList } from './folders.js';

export const gemini: ProviderDefinition<'gemini'> = {
  id: 'gemini',
  /** `~/.gemini`, or `$GEMINI_CLI_HOME/.gemini` (Gemini CLI's own home override); folders holding `tmp/`. */
  defaultRoots: (env) => ({ roots: [join(agentFolderVar(env.GEMINI_CLI_HOME, env) ?? userHome(env), '.gemini')] }),
  create: (roots) => new GeminiProvider(roots.roots),
};
