// Owns: OpenClaw transcripts: default roots, discovery, the entry parser.
// Never: treats a sibling archive (.reset, .deleted) as a new conversation.
import { join } from 'node:path';
import { agentFolderVar, userHome } from '../../roots.js';
import type { ProviderDefinition } from '../../types.js';
import { OpenClawProvider } from './provider.js';

export { OpenClawProvider } from './provider.js';

export const openclaw: ProviderDefinition<'openclaw'> = {
  id: 'openclaw',
  /**
   * `OPENCLAW_STATE_DIR`, else `~/.openclaw` and the state folders of its earlier names, Clawdbot and
   * Moltbot, which hold the same `agents/` layout (OpenClaw still runs from one when it finds it).
   * A folder that is not there is walked as empty; one that links to another is walked once.
   */
  defaultRoots: (env) => {
    const home = userHome(env);
    const override = agentFolderVar(env.OPENCLAW_STATE_DIR, env);
    return { roots: override ? [override] : ['.openclaw', '.clawdbot', '.moltbot'].map((name) => join(home, name)) };
  },
  create: (roots) => new OpenClawProvider(roots.roots),
};
