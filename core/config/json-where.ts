/**
 * Where a text stops being JSON, as a person finds it in an editor: its line and column (1-based,
 * columns in characters). JSON.parse says where only in some of its messages, and by offset; this
 * walks the text by JSON's grammar once JSON.parse has refused it, to the first character it cannot
 * take (a bad word such as `tru` is placed at its start; a text cut short, just past its end).
 */
export function whereNotJson(text: string): { line: number; column: number } {
  const offset = firstBadOffset(text);
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: Array.from(before.slice(lineStart)).length + 1 };
}

class NotJson {
  constructor(readonly at: number) {}
}

const WORDS = ['true', 'false', 'null'];
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPE = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/y;

/** The offset of the first character JSON's grammar cannot take; the text's length when it ends too soon. */
function firstBadOffset(text: string): number {
  let i = 0;
  const space = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const fail = (at = i): never => {
    throw new NotJson(at);
  };
  const expect = (ch: string) => (text[i] === ch ? i++ : fail());
  const string = () => {
    expect('"');
    while (text[i] !== '"') {
      if (i >= text.length || text.charCodeAt(i) < 0x20) fail();
      if (text[i] === '\\') {
        ESCAPE.lastIndex = i;
        if (!ESCAPE.test(text)) fail();
        i = ESCAPE.lastIndex;
      } else i++;
    }
    i++;
  };
  const value = (): void => {
    space();
    const ch = text[i];
    if (ch === '{') return members('}', pair);
    if (ch === '[') return members(']', value);
    if (ch === '"') return string();
    const word = WORDS.find((w) => text.startsWith(w, i));
    if (word) return void (i += word.length);
    NUMBER.lastIndex = i;
    if (ch !== undefined && /[-\d]/.test(ch) && NUMBER.test(text)) return void (i = NUMBER.lastIndex);
    fail();
  };
  const pair = () => {
    string();
    space();
    expect(':');
    value();
  };
  // `{…}` or `[…]`: its items, each followed by a comma or its closing character.
  const members = (close: string, item: () => void) => {
    i++;
    space();
    if (text[i] === close) return void i++;
    for (;;) {
      space();
      item();
      space();
      if (text[i] === close) return void i++;
      expect(',');
    }
  };
  try {
    value();
    space();
    return i < text.length ? i : fail();
  } catch (error) {
    if (error instanceof NotJson) return Math.min(error.at, text.length);
    throw error;
  }
}
