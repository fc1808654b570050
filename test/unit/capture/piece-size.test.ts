import { describe, expect, it } from 'vitest';
import { PieceSize } from '../../../core/gateway/index.js';

const LIMITS = { targetMs: 15, growth: 1.15, minRows: 50, maxRows: 5_000, startRows: 200 };

describe('PieceSize', () => {
  it('grows by at most its growth over the last piece, however fast the piece was', () => {
    const size = new PieceSize(LIMITS);
    expect(size.rows).toBe(200);
    size.took(1);
    expect(size.rows).toBe(230);
    size.took(0);
    expect(size.rows).toBe(265);
  });

  it('shrinks at once to what fits the target, never below its floor nor above its cap', () => {
    const size = new PieceSize(LIMITS);
    size.took(60);
    expect(size.rows).toBe(50);
    size.took(150);
    expect(size.rows).toBe(50);
    const capped = new PieceSize({ ...LIMITS, maxRows: 8, minRows: 8, startRows: 200 });
    expect(capped.rows).toBe(8);
    capped.took(1);
    expect(capped.rows).toBe(8);
  });

  it('a piece that took the target keeps its size', () => {
    const size = new PieceSize(LIMITS);
    size.took(15);
    expect(size.rows).toBe(200);
    size.took(30);
    expect(size.rows).toBe(100);
  });
});
