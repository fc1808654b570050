import type { DiskGate } from './checkpointer.js';

/**
 * How long one piece of long work may hold the event loop, and how much a piece may grow over the
 * last: one rule for every such walk (index, prune, forget).
 */
const TARGET_MS = 15;
const GROWTH = 1.15;

export interface PieceLimits {
  maxRows: number;
  /** Never smaller than this (nor than `maxRows`); 50 unless given. */
  minRows?: number;
  /** The first piece's size, before any was timed; 200 unless given. */
  startRows?: number;
  targetMs?: number;
  growth?: number;
}

/**
 * The size of the next piece of long synchronous work (rows indexed, rows deleted), following what
 * the last piece took. A row's cost varies several-fold from piece to piece (FTS5 merges its
 * segments, a delete lands on cold index pages), so a piece grows slowly and shrinks at once: grown
 * straight to the target, one piece in ten took twice as long.
 */
export class PieceSize {
  readonly #limits: Required<PieceLimits>;
  #rows: number;

  constructor(limits: PieceLimits) {
    const { maxRows, startRows = 200, targetMs = TARGET_MS, growth = GROWTH } = limits;
    this.#limits = { maxRows, minRows: Math.min(limits.minRows ?? 50, maxRows), startRows, targetMs, growth };
    this.#rows = Math.min(maxRows, Math.max(this.#limits.minRows, startRows));
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

/** The disk gate of the connection's WAL checkpoint thread (Checkpointer), and starting that thread. */
export type PieceGate = DiskGate & { start(): void };

export interface Pacing {
  limits: PieceLimits;
  /** Keeps each piece's commit off a checkpoint's fsync, and the WAL checkpointed off this thread. */
  gate?: PieceGate | undefined;
  /** Aborting stops the work between pieces. */
  signal?: AbortSignal | undefined;
  /**
   * A short step after each piece, in a turn of its own and inside the gate (merging what the piece
   * wrote into the index): together, the two held the event loop twice as long as either.
   */
  tidy?: (() => void) | undefined;
}

/** How soon a piece that found a WAL checkpoint writing the disk tries again. */
const CHECKPOINT_WAIT_MS = 5;

/** One turn of the event loop: what long work gives between its pieces. */
export const turn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));
const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * For long work that cannot be cut into pieces of a size: call the returned function between its
 * steps, and it gives the event loop a turn once the work has held it for `holdMs` since the last
 * one (or at once, when asked `now`).
 */
export function pacer(holdMs: number): (now?: boolean) => Promise<void> {
  let heldSince = performance.now();
  return async (now = false) => {
    if (!now && performance.now() - heldSince < holdMs) return;
    await turn();
    heldSince = performance.now();
  };
}

/**
 * Runs long synchronous work as pieces sized by PieceSize, each inside the disk gate, with a turn of
 * the event loop after each. `piece(rows)` does one piece of about that many rows and says whether
 * more is left. The first piece runs before the first turn. True when the work ran out, false when
 * the signal stopped it.
 */
export async function inPieces(pacing: Pacing, piece: (rows: number) => boolean): Promise<boolean> {
  const size = new PieceSize(pacing.limits);
  const { gate, signal } = pacing;
  gate?.start();
  for (;;) {
    if (signal?.aborted) return false;
    if (gate && !gate.enter()) {
      await wait(CHECKPOINT_WAIT_MS);
      continue;
    }
    const begun = performance.now();
    let more: boolean;
    try {
      more = piece(size.rows);
    } finally {
      gate?.leave();
    }
    size.took(performance.now() - begun);
    if (pacing.tidy) await tidyUp(pacing.tidy, gate);
    if (!more) return true;
    await turn();
  }
}

/** Runs `tidy` after a turn, once the gate lets it. */
async function tidyUp(tidy: () => void, gate: PieceGate | undefined): Promise<void> {
  await turn();
  while (gate && !gate.enter()) await wait(CHECKPOINT_WAIT_MS);
  try {
    tidy();
  } finally {
    gate?.leave();
  }
}
