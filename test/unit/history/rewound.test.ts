import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { REWOUND_LINE, type Result, type SessionMessage, type SessionPart } from '../../../core/api/index.js';
import { formatSession } from '../../../core/cli/commands/sessions.js';
import { partView } from '../../../core/history/messages.js';
import { readSessionPage } from '../../../core/mcp/session-page.js';
import { Conversation } from '../../../renderer/src/places/sessions/Conversation.js';
import { sessionPart } from '../../support/rows.js';

/**
 * Turns the person rewound past in Gemini CLI (`$rewindTo`) are stored with `rewound: true` in their
 * parts' meta. Every reader says so: the part view carries it, `sessions show` and the panel say it once
 * where a run of them starts (the panel dims them), MCP get_session marks each such message.
 */
const SID = 'gm-session';
const part = (message: string, text: string, rewound: boolean): SessionPart =>
  sessionPart({ partId: `gm:${SID}:${message}:c0`, text, genuineUserTurn: true, ...(rewound ? { rewound: true as const } : {}) });
const message = (id: string, role: string, text: string, rewound = false): SessionMessage => ({ messageId: `gm:${SID}:${id}`, role, ts: 1_780_000_000_000, parts: [part(id, text, rewound)] });

const messages = [
  message('m1', 'user', 'add a login page'),
  message('m2', 'assistant', 'Done.'),
  message('m3', 'user', 'now delete the database', true),
  message('m4', 'assistant', 'Deleting it.', true),
  message('m5', 'user', 'now add a logout button'),
];

const result: Result<'Sessions.Get'> = {
  session: {
    sessionId: SID,
    projectKey: null,
    provider: 'gemini',
    app: 'Gemini CLI',
    title: 'Login page',
    agentType: null,
    startedAt: 1_780_000_000_000,
    lastAt: 1_780_000_000_000,
    messages: messages.length,
    parentSessionId: null,
    parentKind: null,
    projectName: null,
    firstRequest: 'add a login page',
    model: null,
    durationMs: null,
    toolCalls: 0,
    subagents: 0,
  },
  messages,
  subagents: [],
};

describe('a turn the person rewound past', () => {
  it('is rewound in the part view when capture marked it, and says nothing otherwise', () => {
    const stored = (meta: string | null) => ({ rowid: 1, partId: `gm:${SID}:m3:c0`, role: 'user', kind: 'text', ts: 1, place: 1, text: 'x', meta, genuineUserTurn: true, isCompactSummary: false });
    expect(partView(stored('{"rewound":true}'), 'gemini').rewound).toBe(true);
    expect(partView(stored('{"model":"gemini-2.5-pro"}'), 'gemini')).not.toHaveProperty('rewound');
    expect(partView(stored(null), 'gemini')).not.toHaveProperty('rewound');
  });

  it('steward sessions show says so once where the run starts, and marks each rewound message', () => {
    const out = formatSession(result);
    expect(out.split(`[${REWOUND_LINE}]`)).toHaveLength(2);
    expect(out.indexOf(REWOUND_LINE)).toBeGreaterThan(out.indexOf('Done.'));
    expect(out.indexOf(REWOUND_LINE)).toBeLessThan(out.indexOf('now delete the database'));
    expect(out.match(/· rewound$/gm)).toHaveLength(2);
  });

  it('the panel dims the rewound messages and says so once', () => {
    const html = renderToStaticMarkup(createElement(Conversation, { messages, subagents: [], hitPartId: undefined, app: 'Gemini CLI' }));
    expect(html.split(REWOUND_LINE)).toHaveLength(2);
    expect(html.match(/message--rewound/g)).toHaveLength(2);
    expect(html.indexOf(REWOUND_LINE)).toBeLessThan(html.indexOf('now delete the database'));
  });

  it('MCP get_session marks each rewound message', async () => {
    const { page, text } = await readSessionPage(() => Promise.resolve(result), 50, undefined, (t) => t);
    expect(page.messages.map((m) => m.rewound === true)).toEqual([false, false, true, true, false]);
    expect(text.split(`[${REWOUND_LINE}]`)).toHaveLength(3);
  });
});
