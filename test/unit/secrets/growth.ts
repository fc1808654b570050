import { redactSecrets } from '../../../core/secrets/index.js';

/**
 * The quickest of `runs` timed calls of `f`, after one warm-up, in ms of this process's processor time: other
 * processes on a busy machine are not counted, and the quickest leaves out a pause of its own (a collection).
 */
export function quickest(f: () => void, runs = 3): number {
  f();
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i += 1) best = Math.min(best, timed(f));
  return best;
}

/**
 * Reading in linear time makes a text four times as long take about four times as long on any machine,
 * up to about seven when the longer text's matches no longer fit the processor's caches; a shape that reads
 * each character two ways makes it take sixteen times. Under this bound a slow or busy machine fails
 * nothing that reads linearly, and backtracking fails everywhere. A text whose time per character steps up
 * between the two sizes came to 10.7 (colour codes at 1-2 MB): time it at sizes on one side of the step.
 */
export const LINEAR_GROWTH = 11;

/** Rounds taken at most while the growth is not yet under LINEAR_GROWTH. */
const MOST_ROUNDS = 8;

/**
 * How much longer redacting (`redact`, redactSecrets unless given) takes when the text is four times as
 * long: the quickest run on `make(chars)` over the quickest on `make(chars / 4)`, after one warm-up on the
 * shorter. A quarter-size run quicker than 1 ms counts as 1 ms, so a timer's grain is not read as growth.
 * A growth under half of LINEAR_GROWTH after one round is clear, and one under it after two; one not yet
 * under it is timed again, up to MOST_ROUNDS: a pause is not counted twice, while backtracking is as slow
 * each round (sixteen times in the first round, a pause would have to triple the quarter run to pass it).
 */
export function redactionGrowth(make: (chars: number) => string, chars = 1_000_000, redact: (text: string) => string = redactSecrets): number {
  const small = make(Math.floor(chars / 4));
  const large = make(chars);
  redact(small);
  let quarter = Number.POSITIVE_INFINITY;
  let whole = Number.POSITIVE_INFINITY;
  for (let round = 1; round <= MOST_ROUNDS; round += 1) {
    quarter = Math.min(quarter, timed(() => redact(small)));
    whole = Math.min(whole, timed(() => redact(large)));
    if (whole / Math.max(quarter, 1) < LINEAR_GROWTH / (round === 1 ? 2 : 1)) break;
  }
  return whole / Math.max(quarter, 1);
}

/**
 * The processor time one call of `f` took, in ms. Not the time on the clock: on a machine busier than its
 * cores, a run longer than the scheduler's slice waits for other processes and a short one mostly does not,
 * which read as growth (wall-clock growth reached 34 on linear texts at a load of 10 on two cores; this stayed
 * under 6). It counts every thread of this process: test files run in processes of their own (vitest's forks).
 */
function timed(f: () => void): number {
  const began = process.cpuUsage();
  f();
  const { user, system } = process.cpuUsage(began);
  return (user + system) / 1000;
}
