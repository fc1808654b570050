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
