import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { runIn } from '../../support/cli.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { connectMcp, type ToolResult } from '../../support/mcp.js';

/**
 * `maintenance_plan` is read-only: over the real `steward mcp` on stdio, with no owner running, it
 * answers from what STEWARD_HOME holds and creates nothing there, not even the folder.
 */
describe('steward mcp: maintenance_plan with no Steward home', () => {
  let home: TempHome | undefined;
  let client: Client | undefined;
  afterEach(async () => {
    await client?.close();
    home?.cleanup();
    home = client = undefined;
  });

  /** One maintenance_plan call; STEWARD_HOME is a folder inside a temp folder, made empty first when asked. */
  async function plan(existing: boolean): Promise<{ env: NodeJS.ProcessEnv; result: ToolResult }> {
    home = tempHome('steward-mcp-readonly-');
    const env = { ...home.env, STEWARD_HOME: join(home.dir, 'steward'), GITHUB_TOKEN: 'ghp_not_a_real_token_000000000000000000', XDG_CONFIG_HOME: join(home.dir, 'xdg') };
    if (existing) mkdirSync(env.STEWARD_HOME);
    ({ client } = await connectMcp(env));
    const result = (await client.callTool({ name: 'maintenance_plan', arguments: { repo: 'acme/widgets', collections: ['issues'] } })) as ToolResult;
    return { env, result };
  }

  it('answers with a valid plan and leaves a missing STEWARD_HOME missing', async () => {
    const { env, result } = await plan(false);
    expect(result.isError).toBeFalsy();
    const planned = result.structuredContent as { plan_id: string; status: string; action: string; effects: Array<{ description: string }> };
    expect(planned).toMatchObject({ plan_id: expect.stringMatching(/^plan_/), status: 'confirmation_required', action: 'create' });
    expect(planned.effects.map((e) => e.description).join(' ')).toContain('Starts Steward in the background');
    expect(existsSync(env.STEWARD_HOME!)).toBe(false);
    await client!.close();
    client = undefined;
    // The same plan a person gets from the CLI (which sets the home up), so its id can be applied.
    const cli = await runIn(env, 'maintenance', 'plan', '--repo', 'acme/widgets', '--collections', 'issues', '--format', 'json');
    expect((JSON.parse(cli.out) as { plan_id: string }).plan_id).toBe(planned.plan_id);
  });

  it('leaves an empty STEWARD_HOME empty', async () => {
    const { env, result } = await plan(true);
    expect(result.isError).toBeFalsy();
    expect(readdirSync(env.STEWARD_HOME!)).toEqual([]);
  });
});
