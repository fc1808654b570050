import { StewardError } from '../api/index.js';
import { terminalText, type CliIo } from './output.js';

/** What to ask before something that cannot be undone, and what to say where nobody can answer. */
export interface Asking {
  /** Asked in a terminal, after the warning (`Forget it for good?`). */
  question: string;
  /** Said after the warning when refused (`Nothing was forgotten.`). */
  refused: string;
  /** How to go ahead all the same (`Pass --yes …`). */
  remediation: string;
  /**
   * What would be done, as --yes would print it with --json: carried by the refusal (its details), so a
   * script asking --json still reads the plan it did not confirm (reportError prints it).
   */
  plan?: unknown;
}

/**
 * Before what cannot be undone, once it is known to matter (the caller has already let --yes through):
 * the warning is said, then asked in a terminal. Where nobody can answer (a script, a pipe), it is
 * refused with `confirmation_required`, so that going ahead takes an explicit --yes. True when the
 * person said yes.
 */
export async function askOrRefuse(io: CliIo, warning: string, asking: Asking): Promise<boolean> {
  if (!io.confirm || !(io.interactive?.() ?? false)) {
    const plan = asking.plan === undefined ? {} : { plan: asking.plan };
    throw new StewardError('confirmation_required', `${warning.trimEnd()} ${asking.refused}`, { remediation: asking.remediation, ...plan });
  }
  // It may name a conversation or project by its own words: shown, never acted on (terminalText).
  io.stderr(terminalText(warning));
  return io.confirm(asking.question);
}
