import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { appName, PROVIDER_IDS, PROVIDERS, rootKinds } from '../../../core/api/index.js';
import { backfillMethods } from '../../../core/api/backfill.js';
import { runCli } from '../../../core/cli/index.js';
import { parseConfig } from '../../../core/config/index.js';
import { createProviders, PROVIDER_REGISTRY } from '../../../core/transcripts/index.js';
import { parsersOnly, resolveRoots } from '../../../core/transcripts/providers/index.js';
import { providerLabel } from '../../../renderer/src/components/format.js';
import { captureIo } from '../../support/cli.js';
import { tempHome, type TempHome } from '../../support/home.js';

let home: TempHome | undefined;
afterEach(() => {
  home?.cleanup();
  home = undefined;
});

const CODEX_ROLLOUT = fileURLToPath(new URL('../../fixtures/transcripts/codex/rollout-2026-07-13T18-41-30-019f5c5a-eb02-7ff0-90af-653b66eba9f4.jsonl', import.meta.url));

/**
 * A provider is a folder and two entries (core/api/providers.ts, the registry); everything else
 * derives. These tests name no derived place by hand: they ask each one about the providers the
 * registry declares, so the Codex and Gemini providers (added only as folder + entries) prove it.
 */
describe('one provider registry', () => {
  it('declares each provider once: a registry entry per id in the same order, one STEWARD_*_ROOTS per kind of root', () => {
    expect(PROVIDER_IDS).toEqual(['claude', 'openclaw', 'codex', 'gemini']);
    expect(Object.keys(PROVIDER_REGISTRY)).toEqual(PROVIDER_IDS);
    for (const id of PROVIDER_IDS) expect(PROVIDER_REGISTRY[id].id).toBe(id);
    const envs = rootKinds().map((k) => k.kind.env);
    expect(new Set(envs).size).toBe(envs.length);
    for (const env of envs) expect(env).toMatch(/^STEWARD_[A-Z_]+_ROOTS$/);
    expect(envs).toEqual(expect.arrayContaining(['STEWARD_CODEX_ROOTS', 'STEWARD_GEMINI_ROOTS']));
    expect(createProviders(parseConfig({}), { HOME: '/nowhere' }).map((p) => p.id)).toEqual(PROVIDER_IDS);
  });

  it('names the app that wrote a session from the kind of folder it was read under', () => {
    const sources = rootKinds().map((k) => k.kind.source);
    expect(new Set(sources).size).toBe(sources.length);
    expect(appName('claude', 'code')).toBe('Claude Code');
    expect(appName('claude', 'desktop')).toBe('Claude Desktop');
    // A row stored without a source is named by its provider, never guessed to be one of its apps.
    expect(appName('claude', null)).toBe('Claude');
    expect(appName('codex', null)).toBe('Codex CLI');
    expect(appName('gemini', 'gemini')).toBe('Gemini CLI');
    expect(appName('someday', 'x')).toBe('someday');
  });

  it('config.json takes providers.<id> for every provider, with its own kinds of root, and refuses others', () => {
    const config = parseConfig({ providers: { codex: { enabled: false, roots: ['/srv/codex'] }, gemini: { backfill: { window_days: 7 } } } });
    expect(config.providers.codex).toMatchObject({ enabled: false, roots: ['/srv/codex'] });
    expect(config.providers.gemini).toMatchObject({ enabled: true, backfill: { window_days: 7 } });
    for (const id of PROVIDER_IDS) expect(Object.keys(PROVIDERS[id].roots).every((key) => parseConfig({ providers: { [id]: { [key]: ['/r'] } } }))).toBe(true);
    expect(() => parseConfig({ providers: { codex: { desktop_roots: ['/r'] } } })).toThrow(/providers\.codex/);
    expect(() => parseConfig({ providers: { cursor: {} } })).toThrow(/providers/);
  });

  it("resolves roots the same way for every provider: its variable, then config.json, then the agent's own defaults", () => {
    const none = parseConfig({});
    expect(resolveRoots('codex', none, { HOME: '/home/ana' })).toEqual({ roots: ['/home/ana/.codex'] });
    expect(resolveRoots('codex', none, { HOME: '/home/ana', CODEX_HOME: '/data/codex' })).toEqual({ roots: ['/data/codex'] });
    expect(resolveRoots('gemini', none, { HOME: '/home/ana' })).toEqual({ roots: ['/home/ana/.gemini'] });
    expect(resolveRoots('gemini', none, { HOME: '/home/ana', GEMINI_CLI_HOME: '/profiles/work' })).toEqual({ roots: ['/profiles/work/.gemini'] });
    const configured = parseConfig({ providers: { codex: { roots: ['/cfg/codex'] }, gemini: { roots: ['/cfg/gemini'] } } });
    expect(resolveRoots('codex', configured, { HOME: '/home/ana' })).toEqual({ roots: ['/cfg/codex'] });
    for (const { provider, key, kind } of rootKinds()) {
      expect(resolveRoots(provider, configured, { HOME: '/home/ana', [kind.env]: ['/e/1', '/e/2'].join(process.platform === 'win32' ? ';' : ':') })[key as never]).toEqual(['/e/1', '/e/2']);
      expect(resolveRoots(provider, configured, { HOME: '/home/ana', [kind.env]: '' })[key as never]).toEqual([]);
    }
  });

  it('the contract and the CLI take every provider by its id, and name them all when one is wrong', async () => {
    const params = backfillMethods['Backfill.Run'].params;
    for (const id of PROVIDER_IDS) expect(params.safeParse({ provider: id }).success).toBe(true);
    expect(params.safeParse({ provider: 'cursor' }).success).toBe(false);

    home = tempHome('steward-registry-');
    const codex = join(home.dir, 'roots', 'codex');
    mkdirSync(join(codex, 'sessions', '2026', '07', '13'), { recursive: true });
    copyFileSync(CODEX_ROLLOUT, join(codex, 'sessions', '2026', '07', '13', 'rollout-2026-07-13T18-41-30-019f5c5a-eb02-7ff0-90af-653b66eba9f4.jsonl'));
    home.env.STEWARD_CODEX_ROOTS = codex;
    const io = captureIo(home.env);
    expect(await runCli(['backfill', '--provider', 'codex', '--all', '--json'], io)).toBe(0);
    expect(JSON.parse(io.out)).toMatchObject({ providers: [{ provider: 'codex', read: 1, partsWritten: 11 }] });
    const wrong = captureIo(home.env);
    expect(await runCli(['backfill', '--provider', 'cursor'], wrong)).toBe(2);
    for (const id of PROVIDER_IDS) expect(wrong.err).toContain(id);
  });

  it('the read worker has a parser for every provider, and the panel a name', () => {
    expect(Object.keys(parsersOnly()).sort()).toEqual([...PROVIDER_IDS].sort());
    for (const id of PROVIDER_IDS) expect(providerLabel(id)).not.toBe(id);
    expect(providerLabel('codex')).toBe('Codex CLI');
    expect(providerLabel('gemini')).toBe('Gemini CLI');
  });
});
