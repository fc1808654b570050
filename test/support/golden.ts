import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';

/** Compares with the committed golden file in `dir`; UPDATE_GOLDENS=1 rewrites it (then review the diff). */
export function expectGolden(dir: string, name: string, actual: string): void {
  const file = join(dir, name);
  if (process.env.UPDATE_GOLDENS === '1') {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, actual);
  }
  expect(actual).toBe(readFileSync(file, 'utf8'));
}
