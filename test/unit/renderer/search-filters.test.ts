import { describe, expect, it } from 'vitest';
import { queryOf } from '../../../renderer/src/places/search/filters.js';

describe('the Search place’s chips as a Search.Query', () => {
  it('"What I said" asks for the person’s own words, not every user text (command echoes, subagent prompts)', () => {
    expect(queryOf({ q: 'frost', who: 'me' })).toMatchObject({ query: 'frost', role: 'user', kind: 'text', genuineUserTurn: true });
  });

  it('"Anyone" and "The assistant" do not', () => {
    expect(queryOf({ q: 'frost' }).genuineUserTurn).toBeUndefined();
    expect(queryOf({ q: 'frost', who: 'assistant' })).toMatchObject({ role: 'assistant' });
    expect(queryOf({ q: 'frost', who: 'assistant' }).genuineUserTurn).toBeUndefined();
  });
});
