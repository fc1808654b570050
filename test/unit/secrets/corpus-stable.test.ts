import { describe, expect, it } from 'vitest';
import { secretKinds } from './corpus.js';

describe('the secret corpus', () => {
  it('is the same corpus at every call, whichever test file asked first in this worker', () => {
    expect(secretKinds()).toEqual(secretKinds());
  });
});
