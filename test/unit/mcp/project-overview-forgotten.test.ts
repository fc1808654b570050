import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { localDay } from '../../../core/api/index.js';
import { orchardOverMcp } from './orchard-over-mcp.js';

/**
 * project_overview for the folder of a project the person forgot: the agent is told it was forgotten
 * (and how the person brings it back), as `steward context` tells the person, by the same rule.
 */
describe('project_overview over MCP, for a forgotten project', () => {
  const rig = orchardOverMcp('steward-mcp-overview-forgotten-');

  it('says the project was forgotten, for its folder and one inside it; a folder of no project is said as before', () =>
    rig.use(async ({ core, home, orchard, projectKey: key, client }) => {
      await core.call('Forget.Project', { projectKey: key });
      const overview = async (cwd: string) => (await client.callTool({ name: 'project_overview', arguments: { cwd } })) as unknown as { isError?: boolean; content: Array<{ text: string }> };
      for (const folder of [orchard, join(orchard, 'beds')]) {
        const answer = await overview(folder);
        expect(answer.isError).toBe(true);
        expect(answer.content.map((c) => c.text).join('\n')).toBe(
          `not_found: The person forgot the project holding that folder (${key}) on ${localDay(Date.now())}, so Steward keeps no notes for it; tell them, and that \`steward unforget --project ${key}\` brings it back.`,
        );
      }
      const elsewhere = await overview(join(home.env.HOME!, 'work', 'elsewhere'));
      expect(elsewhere.isError).toBe(true);
      expect(elsewhere.content[0]!.text).toMatch(/^not_found: Steward knows no project containing that folder yet/);
    }));
});
