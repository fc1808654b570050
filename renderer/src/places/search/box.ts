/**
 * What the search box holds over one search's address: the text being typed, and what is wrong with
 * a filter typed in it (since:banana), said under it. Both are about the query `q` they were typed
 * over: another query in the address (Back, Forward, a search run) puts them away together.
 */
export interface SearchBox {
  readonly q: string;
  readonly text: string;
  readonly problem?: string | undefined;
}

/** The box as an address shows it: its query, nothing wrong. */
export function boxOver(q: string): SearchBox {
  return { q, text: q };
}

/** The box once the address's query is `q`: the same box while it is the one typed over, else a fresh one. */
export function followAddress(box: SearchBox, q: string): SearchBox {
  return box.q === q ? box : boxOver(q);
}
