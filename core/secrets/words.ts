/**
 * Which of a fixed list of words a text holds, found in one walk of the text (an Aho–Corasick automaton).
 * The shape table asks each text for about 200 words (the shapes' `needs`): one `includes` per word was
 * most of a page's redaction (270 of 380 ms over an 8,500-part conversation), while one walk reads each
 * character once, whatever the number of words.
 */
export class WordFinder {
  /** Each word's number, by the word. */
  readonly #ids: ReadonlyMap<string, number>;
  /** The column of each UTF-16 code unit: 0 for one in no word (it leads back to the start). */
  readonly #columns = new Uint8Array(65_536);
  readonly #width: number;
  /** The next state by state and column (state × width + column), each failure followed once it is needed (-1: not yet). */
  readonly #next: Int32Array;
  /** The word that ends at each state, or -1. */
  readonly #word: Int32Array;
  /** From each state, the nearest state along its failures (itself first) where a word ends, or 0. */
  readonly #ending: Int32Array;
  /** Each state's failure: the state of the longest proper suffix of its prefix that starts a word. */
  readonly #fail: Int32Array;
  /** Which words the text being walked holds so far (found): all 0 between walks. */
  readonly #held: Uint8Array;

  constructor(words: readonly string[]) {
    this.#ids = new Map(words.map((word, i) => [word, i]));
    let width = 1;
    let states = 1;
    for (const word of words) {
      if (word === '') throw new RangeError('a word finder looks for words, not the empty text');
      states += word.length;
      for (let i = 0; i < word.length; i += 1) if (this.#columns[word.charCodeAt(i)] === 0) this.#columns[word.charCodeAt(i)] = width++;
      if (width > 256) throw new RangeError('a word finder holds at most 255 distinct characters');
    }
    this.#width = width;
    this.#next = new Int32Array(states * width);
    this.#word = new Int32Array(states).fill(-1);
    this.#ending = new Int32Array(states);
    this.#fail = new Int32Array(states);
    this.#held = new Uint8Array(words.length);
    this.#build(words);
  }

  /** The number `found` gives `word`, or undefined for a word this finder does not look for. */
  idOf(word: string): number | undefined {
    return this.#ids.get(word);
  }

  /** The numbers (idOf) of the words `text` holds, each once, in the order their first ends are read: one walk. */
  found(text: string): number[] {
    const ids: number[] = [];
    const held = this.#held;
    const columns = this.#columns;
    const next = this.#next;
    const width = this.#width;
    const word = this.#word;
    const ending = this.#ending;
    const fail = this.#fail;
    let state = 0;
    for (let i = 0; i < text.length; i += 1) {
      const column = columns[text.charCodeAt(i)]!;
      const to = next[state * width + column]!;
      state = to >= 0 ? to : this.#step(state, column);
      for (let at = ending[state]!; at !== 0; at = ending[fail[at]!]!) {
        if (held[word[at]!] === 1) continue;
        held[word[at]!] = 1;
        ids.push(word[at]!);
      }
    }
    // The marks are this finder's own, kept for the next text: cleared here, word by word.
    for (const id of ids) held[id] = 0;
    return ids;
  }

  /**
   * The state after `state` on `column` where the trie has no edge: the one after its failure, kept in
   * the table. Filled as texts need it: a finder built whole cost 10 ms before the first redaction (the
   * table's 60,000 cells, most never read), its trie alone about 1.
   */
  #step(state: number, column: number): number {
    const failure = this.#fail[state]!;
    const known = this.#next[failure * this.#width + column]!;
    const to = known >= 0 ? known : this.#step(failure, column);
    this.#next[state * this.#width + column] = to;
    return to;
  }

  /** The words' trie (-1: no edge yet), then each state's failure, breadth first. */
  #build(words: readonly string[]): void {
    const width = this.#width;
    const next = this.#next.fill(-1);
    const fail = this.#fail;
    const children: number[][] = [[]];
    words.forEach((text, id) => {
      let state = 0;
      for (let i = 0; i < text.length; i += 1) {
        const column = this.#columns[text.charCodeAt(i)]!;
        if (next[state * width + column]! < 0) {
          next[state * width + column] = children.length;
          children[state]!.push(column);
          children.push([]);
        }
        state = next[state * width + column]!;
      }
      this.#word[state] = id;
    });
    // The start leads back to itself on any character that starts no word.
    for (let column = 0; column < width; column += 1) if (next[column]! < 0) next[column] = 0;
    // A failure is shallower than its state, so it has its own failure (and ending) before this one needs it.
    const queue = children[0]!.map((column) => next[column]!);
    for (let head = 0; head < queue.length; head += 1) {
      const state = queue[head]!;
      this.#ending[state] = this.#word[state] !== -1 ? state : this.#ending[fail[state]!]!;
      for (const column of children[state]!) {
        const child = next[state * width + column]!;
        const failed = next[fail[state]! * width + column]!;
        fail[child] = failed >= 0 ? failed : this.#step(fail[state]!, column);
        queue.push(child);
      }
    }
  }
}
