export interface PieceLimits {
  /** How long one piece may hold the event loop. */
  targetMs: number;
  minRows: number;
  maxRows: number;
  /** The first piece's size, before any was timed. */
  startRows: number;
  /** How much a piece may grow over the last. */
  growth: number;
}

/**
 * The size of the next piece of long synchronous work (rows indexed, rows deleted), following what
 * the last piece took. A row's cost varies several-fold from piece to piece (FTS5 merges its
 * segments, a delete lands on cold index pages), so a piece grows slowly and shrinks at once: grown
 * straight to the target, one piece in ten took twice as long.
 */
export class PieceSize {
  readonly #limits: PieceLimits;
  #rows: number;

  constructor(limits: PieceLimits) {
    this.#limits = limits;
    this.#rows = Math.min(limits.maxRows, Math.max(limits.minRows, limits.startRows));
  }

  get rows(): number {
    return this.#rows;
  }

  /** Sizes the next piece from how long this one took. */
  took(ms: number): void {
    const { targetMs, minRows, maxRows, growth } = this.#limits;
    const fitting = (this.#rows * targetMs) / Math.max(ms, 1);
    this.#rows = Math.round(Math.min(maxRows, this.#rows * growth, Math.max(minRows, fitting)));
  }
}
