import type { SessionMessage } from '../../../../core/api/index.js';
import type { Direction } from './pages.js';

const ROLE_LABEL: Record<string, string> = { user: 'You', assistant: 'Assistant', toolResult: 'Tool result' };

/**
 * Who a message is from, as the reader would say it. A subagent's user turns are the prompts the
 * main agent wrote for it (and its tool results), never the person's words.
 */
export function speakerOf(role: string | null, inSubagent: boolean): string {
  if (role === 'user' && inSubagent) return 'Main agent';
  return ROLE_LABEL[role ?? ''] ?? role ?? 'Message';
}

/** The element id of a message, so a view can move the focus to it. */
export function messageElementId(messageId: string): string {
  return `message-${messageId}`;
}

/**
 * Where the reader lands after earlier or later messages were loaded: the first new message after
 * what was shown, or the last new one before it, so they go on reading from where they were. A
 * message cut at the page edge continues one already shown, and is not new.
 */
export function landingMessage(shown: readonly SessionMessage[], got: readonly SessionMessage[], direction: Direction): string | undefined {
  if (direction === 'cursor') {
    const last = shown[shown.length - 1]?.messageId;
    return (got.find((m) => m.messageId !== last) ?? got[0])?.messageId;
  }
  const first = shown[0]?.messageId;
  const fresh = got.filter((m) => m.messageId !== first);
  return (fresh[fresh.length - 1] ?? got[got.length - 1])?.messageId;
}
