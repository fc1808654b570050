import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StewardError } from '../../../core/api/index.js';
import { Core } from '../../../core/index.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { connectInProcess, toolText, type ToolResult } from '../../support/mcp.js';

// A forge's API root is an endpoint Steward asks over HTTP: like every other endpoint address (HttpUrl),
// one that is not http:// or https:// is refused at the contract, as invalid_params naming the field,
// before anything is planned or written.

const NOT_HTTP = ['ftp://forge.example/api/v1', 'file:///etc/passwd', 'javascript:alert(1)', 'forge.example/api/v1'];

let home: TempHome;
let core: Core;
let client: Client;

beforeAll(async () => {
  home = tempHome('steward-base-url-scheme-');
  core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: home.env });
  client = await connectInProcess(core, { home: home.dir, stewardHome: home.dir });
});

afterAll(async () => {
  await client?.close();
  await core?.shutdown();
  home?.cleanup();
});

const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as ToolResult;

async function refusal(run: () => Promise<unknown>): Promise<StewardError> {
  const error = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StewardError);
  return error as StewardError;
}

/** Nothing a refused request could have written: no registry, no cache folder, no registration. */
async function nothingWritten(): Promise<void> {
  expect(existsSync(join(home.dir, 'managed-caches.json'))).toBe(false);
  expect(existsSync(join(home.dir, 'caches'))).toBe(false);
  expect((await core.call('Maintenance.List', {})).registrations).toEqual([]);
}

describe('a forge base URL that is not http(s)', () => {
  it('is refused by Maintenance.Plan, .Apply and .Add as invalid_params naming baseUrl; nothing is written', async () => {
    for (const baseUrl of NOT_HTTP) {
      const requests: Array<[string, () => Promise<unknown>]> = [
        ['Plan', () => core.call('Maintenance.Plan', { repo: 'acme/widgets', forge: 'gitea', baseUrl })],
        ['Apply', () => core.call('Maintenance.Apply', { repo: 'acme/widgets', forge: 'gitea', baseUrl, planId: 'plan_x', idempotencyKey: 'scheme-1' })],
        ['Add', () => core.call('Maintenance.Add', { repo: 'acme/widgets', forge: 'gitea', baseUrl, idempotencyKey: 'scheme-2' })],
      ];
      for (const [method, request] of requests) {
        const error = await refusal(request);
        expect(error.code, `${method} ${baseUrl}`).toBe('invalid_params');
        expect((error.details?.issues as Array<{ path: string }>).map((i) => i.path), `${method} ${baseUrl}`).toEqual(['baseUrl']);
        expect(error.message, `${method} ${baseUrl}`).toBe('baseUrl must be a URL that starts with http:// or https://');
      }
    }
    await nothingWritten();
  });

  it('is refused by maintenance_plan and enable_cache_maintenance as invalid_params naming base_url; nothing is written', async () => {
    for (const base_url of NOT_HTTP) {
      const plan = await call('maintenance_plan', { repo: 'acme/widgets', forge: 'gitea', base_url });
      expect(plan.isError, base_url).toBe(true);
      expect(toolText(plan), base_url).toMatch(/^invalid_params: .*base_url must be a URL that starts with http:\/\/ or https:\/\/$/);
      const apply = await call('enable_cache_maintenance', { repo: 'acme/widgets', forge: 'gitea', base_url, plan_id: 'plan_x', idempotency_key: 'scheme-3', write_mode: 'live' });
      expect(apply.isError, base_url).toBe(true);
      expect(toolText(apply), base_url).toMatch(/^invalid_params: .*base_url must be a URL that starts with http:\/\/ or https:\/\/$/);
    }
    await nothingWritten();
  });

  it('still takes an http(s) address to the forge rules (https, plain http on this machine only)', async () => {
    const plain = await refusal(() => core.call('Maintenance.Plan', { repo: 'acme/widgets', forge: 'gitea', baseUrl: 'http://forge.example/api/v1' }));
    expect(plain.code).toBe('invalid_params');
    expect(plain.message).toMatch(/must use https/);
  });
});
