/**
 * Where the focus goes once a place is chosen in the side menu: to the new page's heading (its one h1,
 * focusable from script: PlaceHeader), as an accessible single-page app does, so a screen reader says
 * where the person arrived and Tab goes on from the page, not from the menu. Only a choice in the menu
 * asks for it: the first load, Back, a link within a page and Ctrl-K (which focuses the search box) keep
 * the focus where their own views put it.
 */
let chosen = false;

/** A place was chosen in the side menu: the next view shown takes the focus to its heading. */
export function placeChosen(): void {
  chosen = true;
}

/** Whether a place was chosen in the menu since last asked (asked once per view shown). */
export function takePlaceChosen(): boolean {
  const was = chosen;
  chosen = false;
  return was;
}

/** The element of `main` that takes the focus: the page's heading, else `main` itself (tabIndex -1). */
export function headingOf(main: HTMLElement): HTMLElement {
  return main.querySelector<HTMLElement>('h1') ?? main;
}

/**
 * Lands on a place chosen in the menu: at its top, its heading focused. The window keeps the scroll of
 * the page before, and a plain focus() then scrolled the heading into view just below it (the new page
 * sat 40 px down), so the window goes to the top first and the focus moves nothing.
 */
export function landOnPlace(main: HTMLElement, view: Pick<Window, 'scrollTo'> = window): void {
  view.scrollTo(0, 0);
  headingOf(main).focus({ preventScroll: true });
}
