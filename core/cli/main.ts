import { interruptedExit } from './files.js';
import { runCli } from './index.js';

// Entry of the `steward` binary. The exit code is set rather than forced so pending writes flush.
const code = await runCli(process.argv.slice(2));
// A verb an interrupt stopped, once it has cleaned up, ends as the interrupt would have ended it (130 for Ctrl-C).
process.exitCode = interruptedExit() ?? code;
