import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { SessionMessage, SessionPart } from '../../../core/api/index.js';
import { SECRET_LABEL, SecretText } from '../../../renderer/src/components/index.js';
import { MarkdownText } from '../../../renderer/src/components/MarkdownText.js';
import { Conversation } from '../../../renderer/src/places/sessions/Conversation.js';
import { PartView } from '../../../renderer/src/places/sessions/PartView.js';
import { sessionPart } from '../../support/rows.js';
import { prettyJson } from '../../../renderer/src/places/sessions/pretty-json.js';

const KEY = 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';
const GH = `ghp_${'a1B2'.repeat(9)}`;
/** Each place `of` finds in `text`, as Sessions.Get gives a part's `secrets`. */
const placesOf = (text: string, ...secrets: string[]): Array<[number, number]> =>
  secrets.map((secret) => {
    const at = text.indexOf(secret);
    return [at, at + secret.length];
  });

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();

describe('a revealed secret', () => {
  it('is marked with words a screen reader says and a class the page styles', () => {
    const html = renderToStaticMarkup(createElement(SecretText, { text: `key ${KEY} here`, ranges: [[4, 4 + KEY.length]] }));
    expect(html).toMatch(new RegExp(`<mark class="secret-mark"><span class="visually-hidden secret-mark__label">${SECRET_LABEL}: </span>${KEY}</mark>`));
    expect(SECRET_LABEL).toBe('secret, shown because you asked');
    expect(text(html)).toBe(`key ${SECRET_LABEL}: ${KEY} here`);
  });

  it('is marked in an assistant’s Markdown, in prose and in code', () => {
    const md = `Set it:\n\n\`\`\`sh\nexport KEY=${KEY}\n\`\`\`\n\nThe key **${KEY}** is \`${KEY}\`.`;
    const ranges: Array<[number, number]> = [];
    for (let at = md.indexOf(KEY); at !== -1; at = md.indexOf(KEY, at + 1)) ranges.push([at, at + KEY.length]);
    const html = renderToStaticMarkup(createElement(MarkdownText, { text: md, secrets: ranges }));
    expect(html.match(/class="secret-mark/g)).toHaveLength(3);
    expect(html).toContain(`<strong><mark class="secret-mark"><span class="visually-hidden secret-mark__label">${SECRET_LABEL}: </span>${KEY}</mark></strong>`);
  });
});

const part = (over: Partial<SessionPart>): SessionPart => sessionPart({ partId: 'cc:u1:0', genuineUserTurn: true, ...over });
const message = (role: string, parts: SessionPart[]): SessionMessage => ({ messageId: `m-${parts[0]?.partId}`, role, ts: null, parts });

/** What a rendering marks, each secret's text without the words said before it. */
const marks = (html: string) => [...html.matchAll(/<mark class="secret-mark">(.*?)<\/mark>/gs)].map((m) => (m[1] ?? '').replace(/<span class="visually-hidden[^>]*>.*?<\/span>/, '').replace(/<[^>]+>/g, '').replace(/&quot;/g, '"'));
const shown = (p: SessionPart, role = 'assistant') => renderToStaticMarkup(createElement(PartView, { part: p, role, hit: false, harness: undefined, asWritten: true }));

describe('a tool call’s input, pretty-printed, with its secrets shown', () => {
  it('marks exactly each secret where the print shows it: escapes, spacing, numbers and key order as JSON.stringify writes them', () => {
    const input = `{ "command" : "curl -H \\"Bearer ${KEY}\\" https:\\/\\/api.example.com", "n": 1.50, "env": { "b": "x", "2": "pw-ab\\u0063d-${GH}" } }`;
    const secrets = placesOf(input, KEY, `pw-ab\\u0063d-${GH}`);
    const { text: pretty, secrets: places } = prettyJson(input, secrets);
    expect(pretty).toBe(JSON.stringify(JSON.parse(input), null, 2));
    // The key "2" comes first in its object, as JSON.parse keeps it; the escape reads as the letter it is.
    expect(pretty.indexOf('"2"')).toBeLessThan(pretty.indexOf('"b"'));
    expect(places.map(([a, b]) => pretty.slice(a, b))).toEqual([KEY, `pw-abcd-${GH}`]);
  });

  it('prints as JSON.stringify does whatever the input holds, so the marks carried stand where they did', () => {
    const inputs = [
      '{"a":[],"b":{},"c":[1,[2,{"d":null}]],"e":true}',
      '{"k":1,"k":2,"__proto__":{"x":"y"},"10":"ten","1":"one"}',
      '{"n":[1e5,-0,1.50,12345678901234567890,-2.5E-3]}',
      '"a top-level string with \\ud83d\\ude00 and \\ud800 alone"',
      '{"s":"é \\u00e9 😀 \\t tab \\u0007 bell \\" quote \\\\ slash"}',
      ' [ "x" ,\n\t"y" ] ',
    ];
    for (const input of inputs) {
      const { text: pretty, secrets } = prettyJson(input, [[0, input.length]]);
      expect(pretty, input).toBe(JSON.stringify(JSON.parse(input), null, 2));
      // All of the source marked is all the print holds of it (not its first bracket or quote): not marked whole for a print that differed.
      expect(secrets, input).toHaveLength(1);
      expect(secrets[0]?.[0], input).toBeGreaterThan(0);
    }
  });

  it('the fold marks them in its body and its line, a line cut inside one from its start', () => {
    const input = JSON.stringify({ command: `curl -H "Bearer ${KEY}"`, description: 'Call the API' });
    const html = shown(part({ partId: 'cc:a1:1', kind: 'tool_use', text: input, summary: `Bash: curl -H "Bearer ${KEY.slice(0, 12)}…`, genuineUserTurn: false, secrets: placesOf(input, KEY) }));
    expect(marks(html)).toEqual([KEY.slice(0, 12), KEY]);
  });

  it('a result marks them in the output it reads as, not only in the JSON it came in', () => {
    const text = JSON.stringify({ output: `token: ${GH}\nok`, metadata: { exit_code: 0 } });
    const html = shown(part({ kind: 'tool_result', text, output: `token: ${GH}\nok`, summary: `2 lines: token: ${GH}`, genuineUserTurn: false, secrets: placesOf(text, GH) }), 'user');
    expect(marks(html)).toEqual([GH, GH]);
  });

  it('a part shown as written whose places are not told is marked whole: a secret is never shown unmarked', () => {
    const html = shown(part({ text: `I ran: export OPENAI_API_KEY=${KEY}` }), 'user');
    expect(marks(html)).toEqual([`I ran: export OPENAI_API_KEY=${KEY}`]);
  });
});

describe('a conversation read with its secrets shown', () => {
  const user = `I ran: export OPENAI_API_KEY=${KEY} and ${GH} and it still fails`;
  const answer = `Rotate \`${KEY}\` now.`;
  const call = JSON.stringify({ command: `curl -H "Bearer ${KEY}"` });
  const raw = [
    message('user', [part({ text: user, secrets: placesOf(user, KEY, GH) })]),
    message('assistant', [part({ partId: 'cc:a1:0', text: answer, genuineUserTurn: false, secrets: placesOf(answer, KEY) })]),
    message('assistant', [part({ partId: 'cc:a1:1', kind: 'tool_use', text: call, summary: `Bash: curl -H "Bearer ${KEY}"`, genuineUserTurn: false, secrets: placesOf(call, KEY) })]),
  ];
  const redacted = raw.map((m) => ({ ...m, parts: m.parts.map(({ secrets: _s, ...p }) => ({ ...p, text: p.text?.replaceAll(KEY, '[REDACTED]').replaceAll(GH, '[REDACTED]') ?? null, summary: p.summary?.replaceAll(KEY, '[REDACTED]') ?? null })) }));

  it('marks every secret where Sessions.Get placed it: in the person’s words, the Markdown, a tool call and its line', () => {
    const html = renderToStaticMarkup(createElement(Conversation, { messages: raw, subagents: [], hitPartId: undefined, app: 'Claude Code', redact: false }));
    expect(marks(html)).toEqual([KEY, GH, KEY, KEY, KEY]);
  });

  it('read redacted, nothing is marked', () => {
    const html = renderToStaticMarkup(createElement(Conversation, { messages: redacted, subagents: [], hitPartId: undefined, app: 'Claude Code' }));
    expect(html).not.toContain('secret-mark');
  });
});
