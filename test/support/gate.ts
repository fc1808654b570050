import type { PieceGate } from '../../core/gateway/index.js';

/**
 * A stand-in for capture's WAL checkpoint thread: records what long work asks of its disk gate
 * (`start`, `enter`, `leave`), and reports the disk taken (`busy`) the first `busyTimes` it is asked.
 */
export function recordingGate(busyTimes: number): { gate: PieceGate; calls: string[] } {
  const calls: string[] = [];
  let busy = busyTimes;
  const gate: PieceGate = {
    start: () => void calls.push('start'),
    enter: () => {
      const free = busy-- <= 0;
      calls.push(free ? 'enter' : 'busy');
      return free;
    },
    leave: () => void calls.push('leave'),
  };
  return { gate, calls };
}
