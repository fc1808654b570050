/**
 * The argument vector a session starts from a `.desktop` file's Exec key, read as the Desktop Entry
 * specification says (and GLib does): first the string escapes of the value (`\\`, `\s`, `\n`, `\t`,
 * `\r`), then the Exec quoting (`"…"` with `\"`, `` \` ``, `\$`, `\\` inside), then `%%` as `%`.
 */
export function execArgv(desktopFile: string): string[] {
  const line = desktopFile.split('\n').find((l) => l.startsWith('Exec='));
  if (line === undefined) throw new Error('no Exec key');
  const value = line.slice('Exec='.length).replace(/\\(.)/g, (_, c: string) => ({ s: ' ', n: '\n', t: '\t', r: '\r' })[c] ?? c);
  const args: string[] = [];
  let current: string | null = null;
  for (let i = 0; i < value.length; i += 1) {
    const c = value[i]!;
    if (c === ' ') {
      if (current !== null) args.push(current);
      current = null;
    } else if (c === '"') {
      current ??= '';
      for (i += 1; i < value.length && value[i] !== '"'; i += 1) {
        if (value[i] === '\\' && i + 1 < value.length) i += 1;
        current += value[i];
      }
      if (i >= value.length) throw new Error(`unterminated quote in ${value}`);
    } else {
      current = (current ?? '') + c;
    }
  }
  if (current !== null) args.push(current);
  return args.map((a) => a.replace(/%%/g, '%'));
}
