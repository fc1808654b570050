// Owns: Codex CLI rollouts: default roots, discovery of live and archived rollouts, the line parser.
// Never: keys a part by the file's path (an archived rollout is the same session), or stores harness context as the user's words.
import { join } from 'node:path';
import { agentFolderVar, userHome } from '../../roots.js';
import type { ProviderDefinition } from '../../types.js';
import { CodexProvider } from './provider.js';

export { CodexProvider } from './provider.js';

export const codex: ProviderDefinition<'codex'> = {
  id: 'codex',
  /** `CODEX_HOME`, else `~/.codex` (folders holding `sessions/` and `archived_sessions/`). */
  defaultRoots: (env) => ({ roots: [agentFolderVar(env.CODEX_HOME, env) ?? join(userHome(env), '.codex')] }),
  create: (roots) => new CodexProvider(roots.roots),
};
