import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REWOUND_LINE } from '../../../core/api/index.js';
import type { Core } from '../../../core/index.js';
import { coreHome } from '../../support/core.js';

/**
 * A turn the person rewound past in Gemini CLI (`$rewindTo`) is kept and marked in every reader: the
 * Markdown export too says so once where the run starts and marks each such message's heading, as
 * `steward sessions show` does (a QA session read an abandoned prompt in an export as a real one).
 */
const SESSION = '92f625c6-a764-48e3-b922-3766d41f9c4c';
const temp = coreHome('steward-rewound-export-', { shared: true });
let core: Core;

beforeAll(async () => {
  const { home } = temp;
  const root = join(home.dir, 'roots', 'gemini');
  const chat = join(root, 'tmp', 'site', 'chats', 'session-2026-05-22T14-59-92f625c6.jsonl');
  mkdirSync(dirname(chat), { recursive: true });
  writeFileSync(chat, readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'transcripts', 'gemini', 'current-session.jsonl')));
  writeFileSync(join(root, 'tmp', 'site', '.project_root'), '/home/sam/site\n');
  home.env.STEWARD_GEMINI_ROOTS = root;
  core = temp.open();
  await core.call('Backfill.Run', { all: true });
});

describe('a Markdown export of a conversation with a rewound turn', () => {
  it('says so once, just before the rewound turn, and marks its heading', async () => {
    const { messages } = await core.call('Sessions.Get', { sessionId: SESSION });
    expect(messages.at(-1)!.parts.some((p) => p.rewound === true)).toBe(true);
    const md = (await core.call('Sessions.Export', { sessionId: SESSION, format: 'markdown' })).content;
    expect(md.split(REWOUND_LINE)).toHaveLength(2);
    expect(md.indexOf(REWOUND_LINE)).toBeLessThan(md.indexOf('actually, stop'));
    expect(md.indexOf(REWOUND_LINE)).toBeGreaterThan(md.indexOf('run the tests and fix what fails'));
    expect(md.match(/^#+ [^\n]* · rewound$/gm)).toHaveLength(1);
    expect(md).toMatch(/· rewound\n\nactually, stop/);
  });
});
