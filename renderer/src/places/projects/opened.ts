import { placeHref } from '../../navigation.js';

/** The project opened last from the list: the list highlights it and gives it the focus on return. */
let lastOpened: string | undefined;
/** Whether the open view was reached from the list, so Back can return through history. */
let fromList = false;

export function openedFromList(projectKey: string): void {
  lastOpened = projectKey;
  fromList = true;
}

/** The list is showing again (by Back, Escape or an address): the next view is not reached from it until a row is opened. */
export function listShown(): void {
  fromList = false;
}

export function lastOpenedProject(): string | undefined {
  return lastOpened;
}

/** Back to the list: through history when the list is the previous page, else by address. */
export function backToList(projectKey: string): void {
  lastOpened = projectKey;
  if (fromList) {
    fromList = false;
    window.history.back();
  } else window.location.hash = placeHref('projects');
}
