import { runCli } from './index.js';

// Entry of the `steward` binary. The exit code is set rather than forced so pending writes flush.
process.exitCode = await runCli(process.argv.slice(2));
