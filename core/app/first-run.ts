import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import type { Handlers } from '../api/index.js';
import { PRIVATE_FILE_MODE } from '../config/index.js';

const FILE = 'first-run.json';

function read(home: string): { done: boolean; doneAt: number | null } {
  try {
    const value = JSON.parse(readFileSync(join(home, FILE), 'utf8')) as { doneAt?: unknown };
    return typeof value.doneAt === 'number' ? { done: true, doneAt: value.doneAt } : { done: false, doneAt: null };
  } catch {
    // Missing or unreadable: the first-run view shows again, which costs the person one click.
    return { done: false, doneAt: null };
  }
}

/** Whether the person went through the first-run view, kept in STEWARD_HOME so every tab and the app agree. */
export function firstRunHandlers(home: string): Pick<Handlers, 'App.FirstRun' | 'App.SetFirstRunDone'> {
  return {
    'App.FirstRun': () => read(home),
    'App.SetFirstRunDone': ({ done }) => {
      const doneAt = done ? Date.now() : null;
      writeFileAtomic.sync(join(home, FILE), `${JSON.stringify({ version: 1, doneAt })}\n`, { mode: PRIVATE_FILE_MODE });
      return { done, doneAt };
    },
  };
}
