import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * A process's first Intl object loads the ICU data (~25 ms of CPU): a command that says no count
 * (`steward --help`, `steward projects` with none) must not pay it at import. Every module the CLI and
 * an in-process Core load makes its Intl objects at first use instead.
 */
const KINDS = ['NumberFormat', 'PluralRules', 'ListFormat', 'Segmenter', 'Collator', 'DateTimeFormat', 'RelativeTimeFormat'] as const;

const originals = new Map(KINDS.map((kind) => [kind, Intl[kind]]));

/** Counts each Intl object made from now on, by kind, until restored. */
function watchIntl(): string[] {
  const made: string[] = [];
  for (const kind of KINDS) {
    const original = originals.get(kind)!;
    const watched = new Proxy(original, {
      construct(target, args: unknown[]) {
        made.push(kind);
        return Reflect.construct(target, args) as object;
      },
    });
    Object.defineProperty(Intl, kind, { value: watched, configurable: true, writable: true });
  }
  return made;
}

afterEach(() => {
  for (const [kind, original] of originals) Object.defineProperty(Intl, kind, { value: original, configurable: true, writable: true });
});

describe('no Intl object is made at import', () => {
  it('the contract, the CLI, the Core and its rooms make none until a count, a list or a title is said', async () => {
    vi.resetModules();
    const made = watchIntl();
    const api = await import('../../../core/api/index.js');
    const output = await import('../../../core/cli/output.js');
    await import('../../../core/cli/index.js');
    await import('../../../core/core.js');
    expect(made).toEqual([]);
    // Said the same as before, made at first use.
    expect(api.countOf(1204, 'message')).toBe('1,204 messages');
    expect(api.countOf(1, 'file')).toBe('1 file');
    expect(api.outputLinesWords(3001, false)).toBe('3,001 lines');
    expect(output.oneLine('é'.repeat(101))).toBe(`${'é'.repeat(99)}…`);
    expect(made).toEqual(expect.arrayContaining(['NumberFormat', 'PluralRules', 'Segmenter']));
  }, 60_000);
});
