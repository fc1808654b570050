// The one rule for what of a transcript's text may stand in a note: the writer applies it to what it
// writes, and the session-start context to what it reads (notes written before the rule took C1 controls
// and whole terminal-title sequences may still hold them). No imports: the hook loads it, and starts light.

/** Control characters, ANSI escapes, bidi reordering controls and CRLF never reach a note. */
export function clean(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    // eslint-disable-next-line no-control-regex -- removing escape sequences is the point
    .replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, '')
    // An operating-system command (a terminal title: ESC ] … BEL or ESC \) goes whole, not only its ends.
    // eslint-disable-next-line no-control-regex -- removing escape sequences is the point
    .replace(/\u001b\][^\u0007\u001b]{0,4096}(?:\u0007|\u001b\\)/g, '')
    // eslint-disable-next-line no-control-regex -- removing control characters (C0, DEL and C1) is the point
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '')
    // Bidi embeddings, overrides and isolates reorder the text around them ("Trojan Source"), so a note
    // can read otherwise than it says. The marks U+200E/U+200F stay: they only set a neutral's direction
    // and cannot reorder a run; right-to-left letters stay too.
    .replace(/[\u202a-\u202e\u2066-\u2069]/g, '');
}
