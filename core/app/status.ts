import { byUrgency, isDecision, PAUSED_TEXT, type AppStatus, type StatusItem, type StatusKind } from '../api/index.js';

type ListName = 'working' | 'attention' | 'errors';

const LIST_OF: Record<StatusKind, ListName> = {
  import: 'working',
  curate: 'working',
  sync: 'working',
  index: 'working',
  forget: 'working',
  conflict: 'attention',
  'curator-paused': 'attention',
  'provider-failing': 'attention',
  'plan-waiting': 'attention',
  // A file Steward cannot read is the file's trouble, and the person's to settle (move it away, or let
  // it be): it warns, and Steward's own failures stay the errors.
  'files-unreadable': 'attention',
  'import-failed': 'errors',
  'curator-failed': 'errors',
  'sync-failed': 'errors',
};

const MAX_TEXT = 240;

/** Item texts are bounded by the contract; a long upstream message is cut at a word with an ellipsis. */
export function boundText(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= MAX_TEXT) return flat;
  const cut = flat.slice(0, MAX_TEXT - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > MAX_TEXT / 2 ? cut.slice(0, space) : cut}…`;
}

function more(n: number): string {
  return n > 0 ? ` (and ${n} more)` : '';
}

/**
 * Decisions first (what only the person can settle: see isDecision, the rule Home's "Needs you" list
 * shares), each list otherwise in the order its items came.
 */
function decisionsFirst(items: StatusItem[]): StatusItem[] {
  return [...items.filter(isDecision), ...items.filter((i) => !isDecision(i))];
}

/** The headline: the most urgent list wins (a decision, then errors, then what needs the person, then work in hand, then the person's pause). */
function headline(paused: boolean, lists: Record<ListName, StatusItem[]>): Pick<AppStatus, 'state' | 'message'> {
  const { working, attention, errors } = lists;
  const decides = attention.length > 0 && isDecision(attention[0]!);
  if (errors.length > 0 && !decides) return { state: 'error', message: `${errors[0]!.text}${more(errors.length - 1)}` };
  if (attention.length === 1) return { state: 'attention', message: attention[0]!.text };
  if (attention.length > 1) return { state: 'attention', message: `${attention.length} things need you` };
  if (working.length > 0) return { state: 'working', message: `${working[0]!.text}${more(working.length - 1)}` };
  if (paused) return { state: 'paused', message: PAUSED_TEXT };
  return { state: 'idle', message: 'Up to date' };
}

export const NOT_RUNNING_TEXT = 'Not running: new transcripts are not imported until Steward starts';

/**
 * The status when no owner runs (a CLI verb opened the stores itself). That process schedules nothing,
 * so its own status (no item, hence "Up to date") says nothing about Steward: nobody checks anything.
 */
export function notRunningStatus(): AppStatus {
  return { state: 'idle', message: NOT_RUNNING_TEXT, paused: false, working: [], attention: [], errors: [], details: [] };
}

/**
 * The one status: the headline names what (no surface adds a state word to it), and `details` holds
 * every fact the headline does not say, once each.
 */
export function composeStatus(paused: boolean, items: Iterable<StatusItem>): AppStatus {
  const lists: Record<ListName, StatusItem[]> = { working: [], attention: [], errors: [] };
  for (const item of items) lists[LIST_OF[item.kind]].push(item);
  lists.attention = decisionsFirst(lists.attention);
  const { state, message } = headline(paused, lists);
  const unsaid = (list: StatusItem[], isHeadline: boolean) => (isHeadline && list.length === 1 ? [] : list);
  const errors = unsaid(lists.errors, state === 'error');
  const attention = unsaid(lists.attention, state === 'attention');
  // The details follow the headline's order (byUrgency, as Home lists them): what it names comes first.
  const details = [...byUrgency({ errors, attention }), ...unsaid(lists.working, state === 'working')].map((item) => item.text);
  if (paused && state !== 'paused') details.push(PAUSED_TEXT);
  return { state, message, paused, ...lists, details };
}

const keyOf = (kind: StatusKind, subject: string | null) => `${kind}\u0000${subject ?? ''}`;

/**
 * The owner's one status. Rooms report facts through the Core (an item put or dropped, a whole kind
 * replaced); the headline is recomposed from all of them and announced only when it changed.
 */
export class AppState {
  readonly startedAt = Date.now();
  readonly #items = new Map<string, StatusItem>();
  #paused = false;
  #status: AppStatus = composeStatus(false, []);
  #announced = JSON.stringify(this.#status);
  readonly #announce: (status: AppStatus) => void;

  constructor(announce: (status: AppStatus) => void) {
    this.#announce = announce;
  }

  get status(): AppStatus {
    return this.#status;
  }

  get paused(): boolean {
    return this.#paused;
  }

  get uptimeMs(): number {
    return Date.now() - this.startedAt;
  }

  setPaused(paused: boolean): AppStatus {
    this.#paused = paused;
    return this.#recompose();
  }

  /** Adds or replaces the item of this kind and subject. */
  put(item: Omit<StatusItem, 'text'> & { text: string }): AppStatus {
    this.#items.set(keyOf(item.kind, item.subject), { ...item, text: boundText(item.text) });
    return this.#recompose();
  }

  /** Removes the item of this kind and subject (or every item of the kind when subject is undefined). */
  drop(kind: StatusKind, subject?: string | null): AppStatus {
    if (subject !== undefined) this.#items.delete(keyOf(kind, subject));
    else for (const [key, item] of this.#items) if (item.kind === kind) this.#items.delete(key);
    return this.#recompose();
  }

  /** Replaces every item of these kinds at once: for sources read whole (pauses, the maintenance registry). */
  replace(kinds: readonly StatusKind[], items: readonly StatusItem[]): AppStatus {
    for (const [key, item] of this.#items) if (kinds.includes(item.kind)) this.#items.delete(key);
    for (const item of items) this.#items.set(keyOf(item.kind, item.subject), { ...item, text: boundText(item.text) });
    return this.#recompose();
  }

  has(kind: StatusKind, subject: string | null): boolean {
    return this.#items.has(keyOf(kind, subject));
  }

  #recompose(): AppStatus {
    const next = composeStatus(this.#paused, this.#items.values());
    const serialized = JSON.stringify(next);
    this.#status = next;
    if (serialized !== this.#announced) {
      this.#announced = serialized;
      this.#announce(next);
    }
    return next;
  }
}
