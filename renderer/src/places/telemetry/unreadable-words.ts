import { unreadableWhy } from '../../../../core/api/import-words.js';

/**
 * What a person can do about a file Steward could not read, by why it could not: wait for it to change
 * (caught mid-write), replace it (damaged), move or rename it (not a transcript at all), or shorten the
 * folders it is in (a path the system cannot open). A code Steward has no words for is taken as damaged.
 */
export type Remedy = 'wait' | 'replace' | 'move' | 'shorten';

const REMEDIES: Readonly<Record<string, Remedy>> = {
  // No line of it parsed: a Gemini chat is rewritten whole every turn, so one is often read mid-write.
  malformed: 'wait',
  // A database, or a folder, in the agent's folder under a transcript's name.
  SQLITE_NOTADB: 'move',
  EISDIR: 'move',
  ENAMETOOLONG: 'shorten',
};

/** A code's remedy; an extended code (SQLITE_CORRUPT_INDEX) is its base code's. */
export function remedyOf(code: string): Remedy {
  return REMEDIES[code] ?? REMEDIES[code.replace(/_[A-Z]+$/, '')] ?? 'replace';
}

/** What is wrong with one file, in words and never its code: the code's own words, else that it could not be read. */
export function whatIsWrong(code: string): string {
  const words = unreadableWhy(code);
  // unreadableWhy says a code it has no words for as `error <code>`: the code belongs under Details.
  return words === `error ${code}` ? 'its contents could not be read' : words;
}

/** What to do about `count` files of one remedy, in a sentence or two. */
export function remedyWords(remedy: Remedy, count: number): string {
  const one = count === 1;
  const it = one ? 'it' : 'them';
  switch (remedy) {
    case 'wait':
      return one
        ? 'It may have been caught in the middle of being written: Steward reads it again once it changes, so there is nothing to do unless it stays like this. Then replace it with a good copy, or move it out of the agent’s folder.'
        : 'They may have been caught in the middle of being written: Steward reads each again once it changes, so there is nothing to do unless one stays like this. Then replace it with a good copy, or move it out of the agent’s folder.';
    case 'replace':
      return `${one ? 'It may be' : 'They may be'} damaged. Replace ${one ? 'it' : 'each'} with a good copy (from a backup, or the computer it came from), or move ${it} out of the agent’s folder if ${one ? 'it is' : 'they are'} not needed. Steward tries again once ${one ? 'it changes' : 'one changes'}.`;
    case 'move':
      return `${one ? 'It is' : 'They are'} named like a transcript but ${one ? 'is' : 'are'} not one: move ${it} out of the agent’s folder, or rename ${it}.`;
    case 'shorten':
      return `The system cannot open a path this long: shorten the names of the folders ${one ? 'it is' : 'they are'} in, or move ${it} to a folder with a shorter path.`;
  }
}

/** Files grouped by what can be done about them, the groups in the order their first file came (newest failure first). */
export function byRemedy<F extends { code: string }>(files: readonly F[]): Array<{ remedy: Remedy; files: F[] }> {
  const groups = new Map<Remedy, F[]>();
  for (const f of files) {
    const remedy = remedyOf(f.code);
    groups.set(remedy, [...(groups.get(remedy) ?? []), f]);
  }
  return [...groups].map(([remedy, grouped]) => ({ remedy, files: grouped }));
}
