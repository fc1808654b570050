import { mkdirSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { projectPaths } from '../../../core/sweeper/index.js';
import { orchardOverMcp } from './orchard-over-mcp.js';

/**
 * An OVERVIEW.md written before control characters were cleaned on write may still hold C1 controls
 * and a whole terminal-title sequence: project_overview hands the agent what the hook would (clean),
 * while Projects.Get (the panel, `steward sweeper show --json`) keeps returning the stored text.
 */
describe('project_overview over MCP, of notes written before controls were cleaned', () => {
  const rig = orchardOverMcp('steward-mcp-overview-clean-');

  it('hands the agent the overview cleaned by the one rule, in its text and its structured answer', () =>
    rig.use(async ({ core, home, orchard, projectKey, client }) => {
      const { slug } = await core.call('Projects.Get', { projectKey });
      const paths = projectPaths(home.dir, slug);
      mkdirSync(paths.dir, { recursive: true });
      const stored = '# orchard\r\n\r\nPrune in \u009b31mMarch\u009b0m.\u001b]0;pwned title\u0007 Then graft.\u0085\u001b[1mBold\u001b[0m\n';
      writeFileSync(paths.overview, stored);
      const answer = (await client.callTool({ name: 'project_overview', arguments: { cwd: orchard } })) as unknown as { isError?: boolean; content: Array<{ text: string }>; structuredContent: { overview: string | null } };
      expect(answer.isError).toBeFalsy();
      const handed = '# orchard\n\nPrune in 31mMarch0m. Then graft.Bold\n';
      expect(answer.structuredContent.overview).toBe(handed);
      expect(answer.content.map((c) => c.text).join('\n')).toBe(handed);
      expect(JSON.stringify(answer)).not.toMatch(/[\u0080-\u009f]|\\u001b|\\u0007|pwned/);
      // What is stored is returned as stored: the one reader that hands the notes on cleans them.
      expect((await core.call('Projects.Get', { projectKey })).overview).toBe(stored);
    }));
});
