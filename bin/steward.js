#!/usr/bin/env node
// The `steward` command runs the compiled CLI; a clear line beats a stack trace when it is not built.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/core/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('steward: not built yet; run `npm run build` first\n');
  process.exit(1);
}
await import(entry.href);
