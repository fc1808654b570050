// Owns: what may be said about a caught error (its code) and tallies of codes.
// Never: imports anything: the read worker loads this alone, without log files, config and secret rules.
/**
 * What may be said about a caught error: its code, never its message (a message can carry a path or
 * a line of a transcript). Node's errno codes, SQLite's result codes and StewardError codes pass as
 * they are; anything else is named by its class.
 */
const SAFE_CODE = /^[A-Za-z][A-Za-z0-9_.-]{0,47}$/;

export function errorCode(error: unknown): string {
  if (error === null || typeof error !== 'object') return 'internal';
  const { code, name } = error as { code?: unknown; name?: unknown };
  if (typeof code === 'string' && SAFE_CODE.test(code)) return code;
  if (typeof name === 'string' && SAFE_CODE.test(name) && name !== 'Error') return name;
  return 'internal';
}

export interface CodeCount {
  code: string;
  count: number;
}

/** Counts failures by code, in the order the codes first appeared. */
export class CodeTally {
  readonly #counts = new Map<string, number>();

  add(code: string, count = 1): void {
    this.#counts.set(code, (this.#counts.get(code) ?? 0) + count);
  }

  addAll(counts: readonly CodeCount[] | undefined): void {
    for (const { code, count } of counts ?? []) this.add(code, count);
  }

  get size(): number {
    return this.#counts.size;
  }

  list(): CodeCount[] {
    return [...this.#counts].map(([code, count]) => ({ code, count }));
  }
}
