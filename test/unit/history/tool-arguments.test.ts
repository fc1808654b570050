import { describe, expect, it } from 'vitest';
import { TOOL_ARGUMENTS } from '../../../core/api/index.js';
import type { GatewayReader, OrderedPart, StoredPart } from '../../../core/gateway/index.js';
import { partView } from '../../../core/history/messages.js';
import type { ProjectStore } from '../../../core/projects/index.js';
import { GatewayDigestSource } from '../../../core/sweeper/gateway-source.js';

/**
 * A stored call's argument is read in two places: the fold's one line (history) and the project
 * notes' digest (which file a call touched, which command it ran). Both take the argument names from
 * one list (core/api/tool-arguments.ts), so Gemini's `absolute_path` reaches both.
 */
const stored = (toolName: string, input: unknown): StoredPart & OrderedPart => ({
  rowid: 1,
  partId: 'gm:s1:m1:tu-1',
  sessionId: 's1',
  role: 'assistant',
  kind: 'tool_use',
  ts: 1,
  place: 1,
  text: JSON.stringify(input),
  meta: JSON.stringify({ name: toolName, toolUseId: 'tu-1' }),
  isMeta: false,
  isCompactSummary: false,
  isSidechain: false,
  genuineUserTurn: false,
});

/** The digest's reading of one call, through the sweeper's source with one session of one part. */
function digestUse(part: StoredPart) {
  const reader = { sessionsOfProject: () => [{ sessionId: 's1', title: null }], partsOfSession: () => [part], firstPartsOfSession: () => [] };
  const source = new GatewayDigestSource({} as ProjectStore, reader as unknown as GatewayReader);
  return source.recentSessions('p1', { sessions: 1, messages: 10 })[0]?.messages[0]?.toolUses[0];
}

describe('a tool call’s argument, one list for the fold and the digest', () => {
  it('Gemini’s read_file says its file in the fold and in the digest', () => {
    const read = stored('read_file', { absolute_path: '/home/dana/site/build.sh' });
    expect(partView(read, 'gemini').summary).toBe('read_file: /home/dana/site/build.sh');
    expect(digestUse(read)).toEqual({ name: 'read_file', filePath: '/home/dana/site/build.sh' });
  });

  it('a folder given as dir_path (Gemini’s list_directory, Codex’s list_dir) is what the call names', () => {
    const list = stored('list_directory', { dir_path: '/home/dana/site/src' });
    expect(partView(list, 'gemini').summary).toBe('list_directory: /home/dana/site/src');
    expect(digestUse(list)?.filePath).toBe('/home/dana/site/src');
    // A search says its pattern in the fold; the digest keeps the folder it searched.
    const grep = stored('search_file_content', { pattern: 'fetchPlots', dir_path: 'src' });
    expect(partView(grep, 'gemini').summary).toBe('search_file_content: fetchPlots');
    expect(digestUse(grep)?.filePath).toBe('src');
  });

  it('Codex’s spawn_agent says what it asked the agent in the fold, as Claude’s Task says its description', () => {
    const spawn = stored('spawn_agent', { task_name: 'worker', message: 'Draft the 1.4.0 changelog from git log v1.3.0..HEAD' });
    expect(partView(spawn, 'codex').summary).toBe('spawn_agent: Draft the 1.4.0 changelog from git log v1.3.0..HEAD');
  });

  it('every argument of the list is read by both: a path by the digest as a file, a command as the command', () => {
    for (const { key, kind } of TOOL_ARGUMENTS) {
      const part = stored('some_tool', { [key]: 'value-of-it' });
      expect(partView(part, 'codex').summary, key).toBe('some_tool: value-of-it');
      const use = digestUse(part);
      expect(use?.filePath, key).toBe(kind === 'path' ? 'value-of-it' : undefined);
      expect(use?.command, key).toBe(kind === 'command' ? 'value-of-it' : undefined);
    }
  });
});
