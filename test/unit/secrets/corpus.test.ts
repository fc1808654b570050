import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../../core/secrets/index.js';
import { CONTEXTS, inContext, leaks, secretKinds } from './corpus.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function filesUnder(dir: string, ext: RegExp): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path, ext) : ext.test(name) ? [path] : [];
  });
}

/**
 * Ordinary code and prose: this repository's own sources and documentation (the secret table itself
 * excepted: it is made of secret shapes), and prose that uses the words key, token and password
 * innocently. Every line changed by redaction is a false positive.
 */
function ordinaryLines(): string[] {
  const code = [...filesUnder(join(ROOT, 'core'), /\.ts$/), ...filesUnder(join(ROOT, 'renderer', 'src'), /\.tsx?$/)].filter((f) => !f.endsWith(join('secrets', 'patterns.ts')));
  const prose = [join(ROOT, 'README.md'), join(ROOT, 'test', 'fixtures', 'secrets', 'ordinary-prose.txt')];
  return [...code, ...prose].flatMap((f) => readFileSync(f, 'utf8').split('\n')).filter((l) => l.trim() !== '');
}

describe('the secret corpus', () => {
  const kinds = secretKinds();

  it('holds at least 150 kinds of secret, each in prose, code, a command line and JSON', () => {
    expect(kinds.length).toBeGreaterThanOrEqual(150);
    expect(new Set(kinds.map((k) => k.kind)).size).toBe(kinds.length);
  });

  it('recall ≥ 99%: no piece of a secret survives redaction', () => {
    const misses: string[] = [];
    let cases = 0;
    for (const kind of kinds) {
      for (const context of CONTEXTS) {
        cases += 1;
        const out = redactSecrets(inContext(kind.snippet, context));
        if (kind.secrets.some((s) => leaks(out, s))) misses.push(`${kind.kind} (${context})`);
      }
    }
    const recall = (cases - misses.length) / cases;
    console.info(`secret corpus: ${kinds.length} kinds × ${CONTEXTS.length} contexts = ${cases} cases; recall ${(recall * 100).toFixed(2)}%${misses.length ? `; missed: ${misses.join(', ')}` : ''}`);
    expect(recall).toBeGreaterThanOrEqual(0.99);
  });

  it('false positives ≤ 1% of the lines of ordinary code and prose', () => {
    const lines = ordinaryLines();
    const changed = lines.filter((line) => redactSecrets(line) !== line);
    const rate = changed.length / lines.length;
    console.info(`ordinary text: ${lines.length} lines; ${changed.length} changed (${(rate * 100).toFixed(2)}%)${changed.length ? `:\n  ${changed.slice(0, 40).join('\n  ')}` : ''}`);
    expect(rate).toBeLessThanOrEqual(0.01);
  });
});
