import { createHook } from 'node:async_hooks';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Scan } from '../../../core/transcripts/scan.js';
import { tempHome, type TempHome } from '../../support/home.js';

// A walk of 20,000 files keeps the young generation busy: every object it makes per file is copied by
// the collections that land among its stat completions (15–31 ms each on an idle machine, 50–200 ms
// under load), inside the event loop's longest hold. These check the walk's shape, not a time.

let home: TempHome | undefined;
afterEach(() => {
  home?.cleanup();
  home = undefined;
});

const RULES = { acceptFile: (name: string) => name.endsWith('.jsonl'), acceptDir: () => true, maxDepth: 3, source: 'code' };
const FOLDERS = 3;
const PER_FOLDER = 300;

/** FOLDERS project folders of PER_FOLDER transcripts each, and one link to a transcript; returns the root. */
function tree(): string {
  home = tempHome('steward-walk-alloc-');
  const root = join(home.dir, 'root');
  for (let d = 0; d < FOLDERS; d += 1) {
    const dir = join(root, `-work-p${d}`);
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < PER_FOLDER; i += 1) writeFileSync(join(dir, `s-${i}.jsonl`), '{}\n');
  }
  mkdirSync(join(home.dir, 'elsewhere'));
  writeFileSync(join(home.dir, 'elsewhere', 'linked.jsonl'), '{}\n');
  symlinkSync(join(home.dir, 'elsewhere', 'linked.jsonl'), join(root, '-work-p0', 'zz-link.jsonl'));
  return root;
}

/** The promises made while `work` runs (their count is what each makes: an object, a reaction, a context). */
async function promisesDuring(work: () => Promise<void>): Promise<number> {
  let made = 0;
  const hook = createHook({
    init(_id, type) {
      if (type === 'PROMISE') made += 1;
    },
  });
  hook.enable();
  try {
    await work();
  } finally {
    hook.disable();
  }
  return made;
}

describe('a walk of many files', () => {
  it('makes promises per batch of stats, not per file', async () => {
    const root = tree();
    const scan = new Scan();
    const made = await promisesDuring(() => scan.walk(root, RULES));
    const files = FOLDERS * PER_FOLDER + 1;
    expect(scan.files).toHaveLength(files);
    // A listing and a stat batch of 64 files make a dozen or so (the batch holding the link a promise per
    // entry more); a promise per stat made seven per file.
    expect(made).toBeLessThan(files / 2);
  });

  it('finds the same paths whatever the spelling of its root', async () => {
    const root = tree();
    const walked = async (dir: string) => {
      const scan = new Scan();
      await scan.walk(dir, RULES);
      return scan.files.map((f) => f.path).sort();
    };
    const plain = await walked(root);
    expect(plain).toHaveLength(FOLDERS * PER_FOLDER + 1);
    expect(plain).toContain(join(home!.dir, 'elsewhere', 'linked.jsonl'));
    expect(plain).toContain(join(root, '-work-p2', 's-7.jsonl'));
    // A root with a trailing separator, a `.` or a doubled separator is walked under its normal spelling.
    for (const spelling of [`${root}/`, `${root}//`, join(root, '.') + '/./', `${root}/../root`]) expect(await walked(spelling)).toEqual(plain);
  });
});
