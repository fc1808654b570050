import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../core/index.js';
import { coreHome } from '../../support/core.js';
import { claudeLine, writeJsonl } from '../../support/transcripts.js';

/*
 * QA: a Markdown export wrote a conversation's title into its heading as Markdown and HTML, so
 * `# what did we decide about <script>alert(1)</script> & … **markdown**?` ran a tag and bolded words
 * when the file was opened. A title, and every other label the export writes as Markdown (a subagent's
 * heading, the project, a tool call's line), reads as the text it is; a message's own text stays the
 * Markdown it was written in.
 */
const SESSION = 'c0ffee00-0000-4000-8000-00000000b0b0';
const AGENT = 'f00dfacef00d';
const TITLE = `what did we decide about <script>alert(1)</script> & the 'quoted' "title" in **markdown**?`;
const SUB_PROMPT = '#1 [link](http://x) `tick` _under_ back\\slash';
const CWD = '/work/a_b*c';

const temp = coreHome('steward-export-title-', { shared: true });
let core: Core;

beforeAll(async () => {
  const { home } = temp;
  const root = join(home.dir, 'roots', 'claude');
  const dir = join(root, 'projects', '-work-a-b-c');
  const at = (s: number) => new Date(Date.UTC(2026, 5, 2, 10, 0, s));
  writeJsonl(join(dir, `${SESSION}.jsonl`), [
    claudeLine({ sessionId: SESSION, cwd: CWD, ts: at(0), text: TITLE }),
    claudeLine({
      sessionId: SESSION,
      cwd: CWD,
      ts: at(1),
      type: 'assistant',
      content: [
        { type: 'text', text: 'We chose **option B**, see `notes_v2.md`.' },
        { type: 'tool_use', id: 'toolu_01Bash', name: 'Bash', input: { command: 'rm *.log <tmp> & ls' } },
        { type: 'tool_use', id: 'toolu_02Task', name: 'Task', input: { description: 'Look', prompt: SUB_PROMPT, subagent_type: 'Explore' } },
      ],
    }),
  ]);
  const agentDir = join(dir, SESSION, 'subagents');
  writeJsonl(join(agentDir, `agent-${AGENT}.jsonl`), [
    claudeLine({ sessionId: SESSION, agentId: AGENT, cwd: CWD, ts: at(2), text: SUB_PROMPT }),
    claudeLine({ sessionId: SESSION, agentId: AGENT, cwd: CWD, ts: at(3), type: 'assistant', text: 'Found it.' }),
  ]);
  writeFileSync(join(agentDir, `agent-${AGENT}.meta.json`), JSON.stringify({ agentType: 'Ex<plore>_x' }));
  home.env.STEWARD_CLAUDE_ROOTS = root;
  core = temp.open();
  await core.call('Backfill.Run', { all: true });
});

const markdown = async () => (await core.call('Sessions.Export', { sessionId: SESSION, format: 'markdown' })).content;

describe('a Markdown export’s labels', () => {
  it('heads the conversation with its title as text, not as Markdown or HTML', async () => {
    const md = await markdown();
    const heading = md.split('\n')[0]!;
    expect(heading).toBe(`# what did we decide about &lt;script&gt;alert(1)&lt;/script&gt; &amp; the 'quoted' "title" in \\*\\*markdown\\*\\*?`);
    // Only the person's message, which stays as they wrote it, holds the tag.
    expect(md.split('<script>')).toHaveLength(2);
  });

  it('heads a subagent’s section with its type and first request as text', async () => {
    const md = await markdown();
    expect(md).toContain('\n## Subagent (Ex&lt;plore&gt;\\_x): \\#1 \\[link\\](http://x) \\`tick\\` \\_under\\_ back\\\\slash\n');
  });

  it('writes the project and a tool call’s line as text', async () => {
    const md = await markdown();
    expect(md).toContain('- Project: a_b\\*c');
    expect(md).toContain('**Tool call** Bash: rm \\*.log &lt;tmp&gt; &amp; ls');
  });

  it('keeps a message’s own Markdown as it was written', async () => {
    expect(await markdown()).toContain('\nWe chose **option B**, see `notes_v2.md`.\n');
  });
});
