// Owns: OpenClaw transcripts: default roots, discovery, the entry parser.
// Never: treats a sibling archive (.reset, .deleted) as a new conversation.
import { join } from 'node:path';
import { userHome } from '../../roots.js';
import type { ProviderDefinition } from '../../types.js';
import { OpenClawProvider } from './provider.js';

export { OpenClawProvider } from './provider.js';

export const openclaw: ProviderDefinition<'openclaw'> = {
  id: 'openclaw',
  /** `OPENCLAW_STATE_DIR`, else `~/.openclaw` (folders holding `agents/`). */
  defaultRoots: (env) => ({ roots: [env.OPENCLAW_STATE_DIR?.trim() || join(userHome(env), '.openclaw')] }),
  create: (roots) => new OpenClawProvider(roots.roots),
};
