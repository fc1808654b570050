import type { Command } from 'commander';
import { localDay, otherSpellingsWords, type ForgetCover, type Result, type StewardClient } from '../../api/index.js';
import { withClient } from '../connect.js';
import { forgottenProjectKeyFor, type ProjectForm } from '../names.js';
import { EXIT, printJson, printText, type CliIo, type Run } from '../output.js';
import { target, type TargetOptions } from './forget.js';

/** What an unforget named, in the words of what the person gave (a session is a conversation in every word the CLI prints). */
const NAMED: Record<'session' | ProjectForm, string> = { session: 'conversation id', key: 'project key', folder: 'project folder', name: 'project name' };

/**
 * Lifts what `what` names. Nothing forgotten under it, however it was named (an id, a key, a folder,
 * or a name no forgotten project has), is one answer: nothing to lift, which is no failure, as
 * forgetting what is forgotten already is none.
 */
async function lift(client: StewardClient, what: ReturnType<typeof target>, home: string | undefined): Promise<{ result: Lifted; named: string; id: string }> {
  if (what.kind === 'session') return { result: await client.call('Forget.Lift', what), named: NAMED.session, id: what.id };
  const { key, form } = await forgottenProjectKeyFor(client, what.id, '--project', home);
  const result = key === undefined ? { lifted: false } : await client.call('Forget.Lift', { kind: 'project', id: key });
  return { result, named: NAMED[form], id: key ?? what.id };
}

type Lifted = Result<'Forget.Lift'>;

/** `the project orchard (p_…) this conversation was in`, `the conversation this subagent belongs to (…)`: whose record still keeps it out. */
function whoseRecord(record: ForgetCover): string {
  if (record.kind === 'project') return `the project ${record.label ? `${record.label} (${record.id})` : record.id} this conversation was in`;
  return record.via === 'parent' ? `the conversation this subagent belongs to (${record.id})` : `conversation ${record.id}`;
}

/**
 * What an unforget did. A conversation another record still keeps out (`stillOut`) is not imported
 * again, and is told the way back through that record; a project whose forget it cut short is told
 * its notes went with that forget, and only a sweep writes them again (nothing re-arms one).
 */
export function formatUnforget(result: Lifted, what: { kind: 'session' | 'project'; id: string }, named: string): string {
  if (!result.lifted) return `Nothing was forgotten under that ${named}.\n`;
  const { stillOut } = result;
  if (stillOut) {
    return `Lifted this conversation's own forget, but it stays out of future imports: you forgot ${whoseRecord(stillOut)} on ${localDay(stillOut.createdAt)}; \`steward unforget --${stillOut.kind} ${stillOut.id}\` brings it back.\n`;
  }
  const noun = what.kind === 'session' ? 'conversation' : 'project';
  // Its rows were deleted and its transcripts are gone from disk: no check or backfill brings anything back.
  if (result.nothingLeft) {
    const files = what.kind === 'session' ? 'its transcript is no longer on disk' : "none of its conversations' transcripts is on disk any more";
    return `Lifted, but nothing of it is left to import: the forget deleted Steward's copy of that ${noun}, and ${files}.\n`;
  }
  // Forgotten with --not-stored, and no read has met a file of it: one may well be on disk (older than the window,
  // or the lift came before the next check), so say where it comes from, not "again" and not that nothing comes.
  if (result.neverStored) {
    return `Lifted. Steward never stored that ${noun}, and no check has found a transcript of it yet: the next check imports one inside the regular checks' window; \`steward backfill --all\` brings in older ones.\n`;
  }
  const notes = result.notesRemoved
    ? ` Its notes (OVERVIEW.md, CHANGELOG.md) were removed when the forget this cut short began, and do not come back with it: the sweeper writes them again at the project's next sweep, best after that backfill (\`steward sweeper run ${what.id}\` runs one now).`
    : '';
  return `Lifted: ${comesBack(result.nextCheck, noun, result.ifOnDisk === true, what.kind)}${result.otherSpellings ? ` ${otherSpellingsWords(result.otherSpellings)}` : ''}${notes}\n`;
}

/**
 * When it comes back: at the next check when files that held it are inside the regular checks' window
 * (those read them again), else with a backfill. Said only as Forget.Lift found it.
 */
function comesBack(nextCheck: Lifted['nextCheck'], noun: string, ifOnDisk = false, kind: 'session' | 'project' = 'session'): string {
  // Its files are inside the window; a message in them older than it (a conversation begun long ago) waits for backfill --all.
  if (nextCheck === 'all') return `Steward's next check imports that ${noun} again (any message older than the regular checks reach: \`steward backfill --all\`).`;
  if (nextCheck === 'part') return `Steward's next check imports what of that ${noun} the regular checks reach; \`steward backfill --all\` imports the rest, which is older.`;
  // Stored before Steward recorded its files (Forget.Lift's `ifOnDisk`): whether they are still there is not known.
  if (ifOnDisk) return `\`steward backfill --all\` imports that ${noun} again if ${kind === 'session' ? 'its transcript is' : "its conversations' transcripts are"} still on disk.`;
  // No file of it known: it may never have been imported (forgotten with --not-stored), so not "again".
  return `\`steward backfill --all\` imports that ${noun}.`;
}

/** `steward unforget --session ID | --project KEY`: lift a tombstone; the next check or backfill imports it again. */
export function registerUnforget(program: Command, io: CliIo, run: Run): void {
  program
    .command('unforget')
    .description('lift what `steward forget` keeps out; the next check imports it again (`steward backfill --all`: what is older)')
    .option('--session <id>', 'a forgotten conversation')
    .option('--project <project>', 'a forgotten project: its name or key, as `steward forget --list` lists them, or its folder')
    .option('--json', 'print JSON')
    .action((options: TargetOptions & { json?: boolean }) =>
      run(async () => {
        const what = target(options, 'unforget');
        const { result, named, id } = await withClient(io, (client) => lift(client, what, io.env.HOME));
        if (options.json) printJson(io, result);
        else printText(io, formatUnforget(result, { kind: what.kind, id }, named));
        return EXIT.ok;
      }, options.json),
    );
}
