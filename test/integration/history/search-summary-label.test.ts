import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../core/core.js';
import { formatSearch } from '../../../core/cli/commands/search.js';
import { searchOutput } from '../../../core/mcp/history.js';
import { readSessionPage } from '../../../core/mcp/session-page.js';
import { hitLabel } from '../../../renderer/src/places/search/sentences.js';
import { coreHome } from '../../support/core.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

/**
 * A search hit in a compaction summary says who it is from as `sessions show`, exports, MCP get_session
 * and the panel's conversation say it: "Conversation summary", not the app (Claude stores the summary
 * as user text capture did not mark as the person's, which reads as the app's otherwise).
 */
const CLAUDE = 'cafe0000-aaaa-4222-8333-444455556666';
const SUMMARY = 'This session is being continued from a previous conversation.\nSummary: the greenhouse vents open at noon.';

const temp = coreHome('steward-search-summary-', { shared: true });
let core: Core;

beforeAll(async () => {
  const { home } = temp;
  const at = (s: number) => new Date(Date.now() - 600_000 + s * 1_000);
  const root = join(home.dir, 'claude');
  writeJsonl(join(root, 'projects', '-work-greenhouse', `${CLAUDE}.jsonl`), [
    claudeLine({ sessionId: CLAUDE, cwd: '/work/greenhouse', ts: at(1), text: 'When do the greenhouse vents open?' }),
    claudeLine({ sessionId: CLAUDE, cwd: '/work/greenhouse', ts: at(2), text: SUMMARY, extra: { isCompactSummary: true, isVisibleInTranscriptOnly: true } }),
    claudeLine({ sessionId: CLAUDE, cwd: '/work/greenhouse', ts: at(3), text: '<command-name>/clear</command-name>\n<command-message>clear greenhouse</command-message>' }),
  ]);
  home.env.STEWARD_CLAUDE_ROOTS = root;
  home.env.STEWARD_OPENCLAW_ROOTS = '';
  core = temp.open();
  await core.call('Backfill.Run', { all: true });
});

describe('a search hit in a compaction summary', () => {
  it('is marked a summary, and the CLI, MCP and the panel say "Conversation summary"', async () => {
    const result = await core.call('Search.Query', { query: 'vents noon', redact: true });
    expect(result.hits).toHaveLength(1);
    const hit = result.hits[0]!;
    expect(hit).toMatchObject({ isCompactSummary: true, genuineUserTurn: false, role: 'user', kind: 'text' });
    const cli = formatSearch(result);
    expect(cli).toContain('Conversation summary');
    expect(cli).not.toMatch(/Claude Code: /);
    const mcp = searchOutput(result, (t) => t);
    expect(mcp.hits[0]!.speaker).toBe('Conversation summary');
    expect(hitLabel(hit, false, 'Claude Code')).toBe('Conversation summary');
  });

  it('other text the app wrote in the person’s name still reads as the app’s', async () => {
    const result = await core.call('Search.Query', { query: 'greenhouse', sort: 'newest', redact: true });
    const command = result.hits.find((h) => h.snippet.includes('clear'))!;
    expect(command).toMatchObject({ isCompactSummary: false, genuineUserTurn: false });
    expect(hitLabel(command, false, 'Claude Code')).toBe('Claude Code');
    expect(searchOutput(result, (t) => t).hits.find((h) => h.partId === command.partId)!.speaker).toBe('Claude Code');
    const asked = result.hits.find((h) => h.genuineUserTurn)!;
    expect(hitLabel(asked, false, 'Claude Code')).toBe('You');
    // An agent reading MCP would take "You" for itself: there the person is the User.
    expect(searchOutput(result, (t) => t).hits.find((h) => h.partId === asked.partId)!.speaker).toBe('User');
    const page = await readSessionPage((limit) => core.call('Sessions.Get', { sessionId: CLAUDE, limit }), 50, undefined, (t) => t);
    expect(page.text).toContain('— User ');
    expect(page.text).not.toContain('— You ');
  });
});
