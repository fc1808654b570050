import { describe, expect, it } from 'vitest';
import { headingOf, landOnPlace, placeChosen, takePlaceChosen } from '../../../renderer/src/shell/focus.js';

/** A stand-in for `main`, holding an h1 or not: the node environment has no DOM. */
const main = (h1: object | null) => ({ querySelector: (selector: string) => (selector === 'h1' ? h1 : null) }) as unknown as HTMLElement;

/** QA: after choosing a place in the side menu, the focus stayed on the side menu. */
describe('the focus after a place is chosen in the side menu', () => {
  it('is asked for once by a choice in the menu, and never on the first load', () => {
    expect(takePlaceChosen()).toBeUndefined();
    const link = { tagName: 'A' } as unknown as HTMLElement;
    placeChosen(link);
    expect(takePlaceChosen()).toBe(link);
    expect(takePlaceChosen()).toBeUndefined();
  });

  it('goes to the new page’s heading, or to main when it has none', () => {
    const h1 = { tagName: 'H1' };
    expect(headingOf(main(h1))).toBe(h1);
    const bare = main(null);
    expect(headingOf(bare)).toBe(bare);
  });
});

/** QA: after scrolling Projects a little and choosing Settings, the new page sat 40 px down (its heading scrolled into view by the focus). */
describe('a place chosen in the side menu opens at its top', () => {
  it('scrolls the window to the top and focuses the heading without scrolling it into view', () => {
    const calls: string[] = [];
    const h1 = { focus: (options?: FocusOptions) => calls.push(`focus preventScroll=${String(options?.preventScroll)}`) };
    const view = { scrollTo: (x?: number | ScrollToOptions, y?: number) => void calls.push(`scrollTo ${String(x)},${String(y)}`) };
    landOnPlace(main(h1), view as Pick<Window, 'scrollTo'>);
    expect(calls).toEqual(['scrollTo 0,0', 'focus preventScroll=true']);
  });
});
