import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { typedClient } from '../../../core/api/index.js';
import { Core } from '../../../core/core.js';
import { createMcpServer } from '../../../core/mcp/index.js';
import { projectContaining, userHomeDir } from '../../../core/projects/index.js';
import { tempHome, type TempHome } from '../../support/home.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

const HOME = '/home/ada';
const projects = ['/', HOME, `${HOME}/work/orchard`, `${HOME}/work/orchard/tools/pruner`, '/srv/site'].map((cwd) => ({ projectKey: cwd, cwd }));

describe('the project containing a folder', () => {
  it.each([
    [`${HOME}/work/orchard`, `${HOME}/work/orchard`],
    [`${HOME}/work/orchard/`, `${HOME}/work/orchard`],
    [`${HOME}/work/orchard/src/deep`, `${HOME}/work/orchard`],
    [`${HOME}/work/orchard/tools/pruner/lib`, `${HOME}/work/orchard/tools/pruner`],
    ['/srv/site/public', '/srv/site'],
    // Neither the filesystem root nor the home folder answers for what lies below them, nor for itself.
    ['/etc/ssh', null],
    ['/', null],
    [HOME, null],
    [`${HOME}/.ssh`, null],
    [`${HOME}/work/orchard-2`, null],
    ['/srv/sites', null],
  ])('%s → %s', (cwd, expected) => {
    expect(projectContaining(projects, cwd, { home: HOME })?.cwd ?? null).toBe(expected);
  });

  it('takes the home folder from HOME', () => {
    expect(userHomeDir({ HOME: '/home/grace/' })).toBe('/home/grace');
  });
});

describe('project_overview over MCP', () => {
  let home: TempHome;
  let core: Core | undefined;
  afterEach(async () => {
    await core?.shutdown();
    home.cleanup();
  });

  it('never answers for /etc/ssh from a session started in /, nor for the home folder', async () => {
    home = tempHome('steward-mcp-overview-');
    const root = join(home.dir, 'roots', 'claude');
    const userHome = home.env.HOME!;
    const orchard = join(userHome, 'work', 'orchard');
    mkdirSync(orchard, { recursive: true });
    const session = (id: string, cwd: string) => writeJsonl(join(root, 'projects', id, `${id}.jsonl`), [claudeLine({ sessionId: id, cwd, text: `working in ${id}` })]);
    session('at-root', '/');
    session('at-home', userHome);
    session('in-orchard', orchard);
    core = Core.open({ home: { dir: home.dir, kind: 'env' }, env: { ...home.env, STEWARD_CLAUDE_ROOTS: root } });
    await core.call('Backfill.Run', {});
    const opened = core;
    const server = createMcpServer((use) => use(typedClient({ call: (method, params) => opened.call(method, params), on: () => () => undefined })), { home: userHome, stewardHome: home.dir });
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'steward-test', version: '0.0.0' });
    await client.connect(clientSide);
    try {
      const overview = (cwd: string) => client.callTool({ name: 'project_overview', arguments: { cwd } });
      expect((await overview('/etc/ssh')).isError).toBe(true);
      expect((await overview(join(userHome, '.ssh'))).isError).toBe(true);
      expect((await overview(userHome)).isError).toBe(true);
      const inside = await overview(join(orchard, 'src'));
      expect(inside.isError).toBeFalsy();
      expect(inside.structuredContent).toMatchObject({ name: 'orchard', cwd: orchard });
    } finally {
      await client.close();
      await server.close();
    }
  });
});
