#!/usr/bin/env node
// `npm run bench [-- <name> ...] [-- --flags]`: runs the named benchmarks (all when none is named),
// each in this process, one after another. Benchmarks are not part of CI; they print figures and the
// ratio of each figure to a baseline measured in the same run.
const BENCHES = {
  capture: () => import('./bench-capture.js'),
  sweeper: () => import('./bench-sweeper.js'),
  maintenance: () => import('./bench-maintenance.js'),
  rag: () => import('./bench-rag.js'),
  search: () => import('./bench-search.js'),
};

const args = process.argv.slice(2);
const named = args.filter((a) => !a.startsWith('-') && Object.hasOwn(BENCHES, a));
const unknown = args.filter((a, i) => !a.startsWith('-') && !Object.hasOwn(BENCHES, a) && !args[i - 1]?.startsWith('--'));
if (unknown.length > 0) {
  process.stderr.write(`bench: unknown benchmark ${unknown.join(', ')} (known: ${Object.keys(BENCHES).join(', ')})\n`);
  process.exit(2);
}
const flags = args.filter((a) => !named.includes(a));
let failed = false;
for (const name of named.length > 0 ? named : Object.keys(BENCHES)) {
  process.stdout.write(`\n== bench ${name} ==\n`);
  const bench = await BENCHES[name]();
  const ok = await bench.run(flags);
  if (ok === false) failed = true;
}
process.exit(failed ? 1 : 0);
