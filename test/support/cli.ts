import type { CliIo } from '../../core/cli/output.js';

export type CapturedIo = CliIo & { out: string; err: string };

/** A CLI io that keeps what the command printed, for in-process `runCli` tests. */
export function captureIo(env: NodeJS.ProcessEnv): CapturedIo {
  const captured: CapturedIo = {
    out: '',
    err: '',
    env,
    stdout: (text) => void (captured.out += text),
    stderr: (text) => void (captured.err += text),
  };
  return captured;
}
