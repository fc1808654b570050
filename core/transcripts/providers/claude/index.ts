// Owns: Claude Code and Claude Desktop transcripts: default roots, discovery, the line parser.
// Never: takes a session id from a file name when the lines carry one.
import type { ProviderDefinition } from '../../types.js';
import { ClaudeProvider } from './provider.js';
import { claudeCodeDefaults, claudeDesktopDefaults } from './roots.js';

export { ClaudeProvider } from './provider.js';

export const claude: ProviderDefinition<'claude'> = {
  id: 'claude',
  defaultRoots: (env) => ({ roots: claudeCodeDefaults(env), desktop_roots: claudeDesktopDefaults(env) }),
  create: (roots) => new ClaudeProvider({ roots: roots.roots, desktopRoots: roots.desktop_roots }),
  copiesMessageIds: true,
};
