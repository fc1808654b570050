import { describe, expect, it } from 'vitest';
import { DEFAULT_PLACE, PLACE_IDS, placeFromHash, placeHref } from '../../../renderer/src/navigation.js';

describe('panel navigation by fragment', () => {
  it('round-trips every place through its address', () => {
    for (const place of PLACE_IDS) expect(placeFromHash(placeHref(place))).toBe(place);
  });

  it('ignores fragments that name no place, including the token fragment', () => {
    for (const hash of ['', '#', '#token=abc', '#/nowhere', '#projects', '#/projects/extra']) expect(placeFromHash(hash)).toBeUndefined();
    expect(PLACE_IDS).toContain(DEFAULT_PLACE);
  });

  it('has the five places in navigation order', () => {
    expect(PLACE_IDS).toEqual(['projects', 'maintenance', 'conflicts', 'telemetry', 'settings']);
  });
});
