#!/usr/bin/env node
// The `steward` command runs the compiled CLI; a clear line beats a stack trace when it is not built.
import { existsSync, readFileSync } from 'node:fs';

/**
 * A reader that goes away before the answer is written (`steward --version | true`) is no failure:
 * the write's EPIPE would otherwise crash the process with a stack trace. The full CLI ends a command
 * at its next write instead (core/cli/output.ts, pipeWriter).
 */
function quietWhenReaderLeaves() {
  process.stdout.on('error', (error) => {
    if (error.code !== 'EPIPE') throw error;
  });
}

/**
 * `steward --version` (or -v, first, as the full CLI reads it) answers from package.json alone: the
 * whole CLI would load its verbs' modules to print one line.
 */
function fastVersion() {
  if (process.argv[2] !== '--version' && process.argv[2] !== '-v') return false;
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  quietWhenReaderLeaves();
  process.stdout.write(`${version}\n`);
  return true;
}

/**
 * `steward context` runs at every agent session start: it loads only what it needs (no commander, no
 * schema, no database), so the hook answers in about the time Node takes to start. Returns false
 * when the arguments are for the full CLI (which also prints its help and usage errors).
 */
async function fastContext() {
  const hook = process.argv.includes('--hook');
  try {
    const { parseContextArgs, runContext } = await import(new URL('../dist/core/cli/commands/context.js', import.meta.url).href);
    const options = parseContextArgs(process.argv.slice(3));
    if (options === null) return false;
    quietWhenReaderLeaves();
    // At a terminal the notes are printed with their controls escaped (runContext); a pipe gets them as an agent reads them.
    const io = { stdout: (t) => void process.stdout.write(t), stderr: (t) => void process.stderr.write(t), env: process.env, stdoutIsTerminal: () => process.stdout.isTTY === true };
    process.exitCode = await runContext(io, options);
    return true;
  } catch {
    // A hook must never fail the agent's session: nothing printed, exit 0.
    if (hook) process.exitCode = 0;
    return hook;
  }
}

if (!fastVersion() && !(process.argv[2] === 'context' && (await fastContext()))) {
  const entry = new URL('../dist/core/cli/main.js', import.meta.url);
  if (!existsSync(entry)) {
    process.stderr.write('steward: not built yet; run `npm run build` first\n');
    process.exit(1);
  }
  await import(entry.href);
}
