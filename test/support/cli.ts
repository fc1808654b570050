import { runCli } from '../../core/cli/index.js';
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

/** Runs one command in-process as a person would in that environment: its exit code and what it printed. */
export async function runIn(env: NodeJS.ProcessEnv, ...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = captureIo(env);
  const code = await runCli(argv, io);
  return { code, out: io.out, err: io.err };
}

/**
 * What a command said on stderr besides the line an in-process `steward search` adds with no Steward
 * running (nobodyImportsNote): for tests of something else, which run no Steward.
 */
export function besidesNobodyImports(err: string): string {
  return err.replace(/^No Steward is running to import new transcripts \([^)]*\), so newer messages are not here: [^\n]*\n/m, '');
}
