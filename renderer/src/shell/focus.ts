/**
 * Where the focus goes once a place is chosen in the side menu: to the new page's heading (its one h1,
 * focusable from script: PlaceHeader), as an accessible single-page app does, so a screen reader says
 * where the person arrived and Tab goes on from the page, not from the menu. Only a choice in the menu
 * asks for it: the first load, Back, a link within a page and Ctrl-K (which focuses the search box) keep
 * the focus where their own views put it.
 */
let chosen: HTMLElement | undefined;

/** A place was chosen in the side menu with `link`: the next view shown takes the focus to its heading. */
export function placeChosen(link: HTMLElement): void {
  chosen = link;
}

/** The menu link a place was chosen with since last asked, if any (asked once per view shown). */
export function takePlaceChosen(): HTMLElement | undefined {
  const was = chosen;
  chosen = undefined;
  return was;
}

/** The element of `main` that takes the focus: the page's heading, else `main` itself (tabIndex -1). */
export function headingOf(main: HTMLElement): HTMLElement {
  return main.querySelector<HTMLElement>('h1') ?? main;
}

/**
 * Lands on a place chosen in the menu: at its top, its heading focused. The window keeps the scroll of
 * the page before, and a plain focus() then scrolled the heading into view just below it (the new page
 * sat 40 px down), so the window goes to the top first and the focus moves nothing. `from`: the menu
 * link chosen, which Shift+Tab from the heading goes back to (backToChosen).
 */
export function landOnPlace(main: HTMLElement, view: Pick<Window, 'scrollTo'> = window, from?: HTMLElement): void {
  view.scrollTo(0, 0);
  const heading = headingOf(main);
  heading.focus({ preventScroll: true });
  if (from) backToChosen(heading, from);
}

/** The Shift+Tab of the heading last landed on, put away when the next landing comes or the focus leaves it. */
let landing: AbortController | undefined;

/**
 * Shift+Tab from the heading a menu choice landed on goes back to the link chosen, once, as focus goes
 * back to what opened a dialog when it closes. The heading is focused from script (tabIndex -1, in no Tab
 * order), and the menu comes before every page, so the browser's own Shift+Tab went on from the menu's
 * last link: back in the menu, the person had lost their place in it. Only that first Shift+Tab is taken:
 * Tab goes on into the page, and once the focus leaves the heading the order is the page's own again.
 */
function backToChosen(heading: HTMLElement, link: HTMLElement): void {
  landing?.abort();
  const done = new AbortController();
  landing = done;
  const onKey = (event: KeyboardEvent) => {
    // A key pressed in what the heading holds (main, when a view has no h1) is not the heading's.
    if (event.target !== heading || event.key !== 'Tab' || !event.shiftKey || event.altKey || event.ctrlKey || event.metaKey) return;
    done.abort();
    // The link went (the menu was drawn anew): the browser's own order then.
    if (!link.isConnected) return;
    event.preventDefault();
    link.focus();
  };
  heading.addEventListener('keydown', onKey, { signal: done.signal });
  heading.addEventListener('blur', () => done.abort(), { signal: done.signal });
}
