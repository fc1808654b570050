import { createHash } from 'node:crypto';
import { conversationName, type SessionSummary } from '../api/index.js';

/** The most characters of the title a file name keeps: enough to tell conversations apart in a Downloads folder. */
const TITLE_CHARS = 56;

const EXTENSIONS = { markdown: '.md', json: '.json' } as const;

/**
 * The name an export is saved under (Sessions.Export's `filename`, which the panel and the CLI save
 * under alike): the conversation's name as the panel says it (conversationName: its title, else its
 * first request's first sentence) as lower-case words joined by hyphens (letters with their marks, and digits, of any script;
 * whatever a file system or a shell stumbles on dropped), cut at a word, then eight characters of
 * its id (shortId) so two of the same title stay apart, in the format's extension. `session`: the summary the
 * export is written from, so a redacted export is named from the redacted title (it may hold a secret)
 * and a raw one from the title as written. No word: "conversation".
 */
export function exportFileName(session: Pick<SessionSummary, 'title' | 'firstRequest' | 'sessionId'>, format: keyof typeof EXTENSIONS): string {
  const words = conversationName(session).normalize('NFC').toLowerCase().match(/[\p{L}\p{M}\p{N}_]+/gu) ?? [];
  let name = '';
  for (const word of words) {
    const longer = name === '' ? word : `${name}-${word}`;
    if (longer.length > TITLE_CHARS) break;
    name = longer;
  }
  // Cut by code points, so a letter outside the BMP (𝐀) is never split into half a surrogate pair.
  if (name === '' && words[0] !== undefined) name = Array.from(words[0]).slice(0, TITLE_CHARS).join('');
  return `${name || 'conversation'}-${shortId(session.sessionId)}${EXTENSIONS[format]}`;
}

/**
 * Eight characters that tell this conversation from others of the same name: a plain id's first eight
 * (a UUID's, as `steward sessions list` shows it), else eight hex of its SHA-256. Ids with a prefix or
 * a suffix (`oc:main:<uuid>`, a subagent's `<uuid>:agent-…`) share their first characters with every
 * other of their agent or parent, so two exports into one folder would take one name.
 */
function shortId(sessionId: string): string {
  if (/^[A-Za-z0-9][A-Za-z0-9-]{7,}$/.test(sessionId)) return sessionId.slice(0, 8).replace(/-+$/, '');
  return createHash('sha256').update(sessionId).digest('hex').slice(0, 8);
}
