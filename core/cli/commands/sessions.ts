import { join } from 'node:path';
import type { Command } from 'commander';
import { countOf, cutShortWords, foldLine, harnessLine, joinedContext, messageSpeaker, pageCountWords, partFold, partHolderOf, resultImageLines, REWOUND_LINE, rewoundMarks, SEARCH_PROVIDERS, sessionCountWords, StewardError, subagentPlaces, subagentsAt, timeSpan, type Params, type Result, type StewardClient, type SessionMessage, type SessionPart, type SessionSubagent } from '../../api/index.js';
import { withClient } from '../connect.js';
import { outputPlace, refuseExisting, whileInterruptible, writeInPieces, type WritePiece } from '../files.js';
import { forgottenOrWhole, mustBeStoredProject, projectKeyFor } from '../names.js';
import { choiceOption, ClosedOutput, dateOptions, EXIT, jsonInPieces, localTime, moreHint, oneLine, pageJson, parseIntOption, printJson, printText, reportError, requiredText, terminalText, UsageError, type CliIo, type JsonInPieces, type Run } from '../output.js';
import { stderrLine } from '../progress.js';

/** What a complaint about a conversation id (one left out) points to: where ids are listed, not the verbs. */
const ID_HINT = "(`steward sessions list` prints each conversation's id)";

/**
 * A part not in the conversation asked for may be in one of its subagents' (a search hit's own
 * conversation is the subagent's): Sessions.Get's not_found names that one (partHolderOf), said here
 * with the command that opens it, rather than opened in its stead, so what `show ID` prints (and its
 * --json) is always ID's. Any other error passes as it is.
 */
export function partInSubagent(partId: string | undefined): (error: unknown) => never {
  return (error) => {
    const holder = partHolderOf(error);
    if (partId === undefined || holder === undefined) throw error;
    const open = `steward sessions show ${holder} --part ${partId}`;
    throw new StewardError('not_found', `That part is in the subagent conversation ${holder} of this one; \`${open}\` opens it there`, (error as StewardError).details);
  };
}

/** Runs an export to its last piece, handing each piece on as it arrives, with the first answer (its filename and the rest). */
async function exportPieces(
  client: StewardClient,
  params: Params<'Sessions.Export'>,
  onPiece: (content: string, first: Result<'Sessions.Export'>) => void | Promise<void>,
  started?: Result<'Sessions.Export'>,
): Promise<Result<'Sessions.Export'>> {
  const first = started ?? (await exportStart(client, params));
  await onPiece(first.content, first);
  for (let next = first.next; next !== null; ) {
    const piece = await client.call('Sessions.ExportNext', { next });
    await onPiece(piece.content, first);
    next = piece.next;
  }
  return first;
}

/** The export's first answer: its first piece, and the name it is saved under (`filename`). */
function exportStart(client: StewardClient, params: Params<'Sessions.Export'>): Promise<Result<'Sessions.Export'>> {
  return client.call('Sessions.Export', params).catch(forgottenOrWhole(client, params.sessionId));
}

/**
 * The export into a folder, under the name Sessions.Export gives it (its title, redacted unless raw):
 * that name is known only from the first answer, so the file's look comes after it (refuseExisting).
 */
async function exportIntoFolder(
  client: StewardClient,
  params: Params<'Sessions.Export'>,
  folder: string,
  force: boolean,
  onWritten: (bytes: number) => void,
  signal: AbortSignal,
): Promise<{ file: string; result: Result<'Sessions.Export'> }> {
  const first = await exportStart(client, params);
  const file = join(folder, first.filename);
  await refuseExisting(file, force);
  return { file, result: await exportToFile(file, force, (onPiece) => exportPieces(client, params, onPiece, first), onWritten, signal) };
}

/** A failure of the export itself (the owner's), carried past the words for a file that cannot be written. */
class ExportFailed {
  constructor(readonly error: unknown) {}
}

/** A file that cannot be written, said in words rather than as an internal error. */
async function couldNotWrite(error: unknown): Promise<never> {
  if (error instanceof StewardError) throw error;
  const { errorCode } = await import('../../log/index.js');
  throw new StewardError('internal', `Could not write the export to that file (${errorCode(error)}); check that its folder exists and can be written`);
}

/**
 * The export into the file a person named, each piece written as it arrives (writeInPieces), so the
 * CLI holds one piece, not the document. `onWritten`: the bytes written so far, after each piece.
 * `signal`: an interrupt, which stops it with no file left behind (see writeInPieces).
 */
async function exportToFile(
  file: string,
  force: boolean,
  run: (onPiece: (content: string) => Promise<void>) => Promise<Result<'Sessions.Export'>>,
  onWritten: (bytes: number) => void,
  signal: AbortSignal,
): Promise<Result<'Sessions.Export'>> {
  let bytes = 0;
  const onPiece = (write: WritePiece) => async (content: string) => {
    await write(content).catch(couldNotWrite);
    onWritten((bytes += Buffer.byteLength(content)));
  };
  try {
    return await writeInPieces(
      file,
      force,
      (write) =>
        run(onPiece(write)).catch((error: unknown) => {
          throw new ExportFailed(error);
        }),
      signal,
    );
  } catch (error) {
    if (error instanceof ExportFailed) throw error.error;
    return couldNotWrite(error);
  }
}

/** Writes one piece to stdout and waits until stdout has taken it, so a slow reader leaves the CLI one piece to hold. */
async function printPiece(io: CliIo, text: string): Promise<void> {
  io.stdout(text);
  await io.stdoutDrained?.();
}

/**
 * `--json` of an export: printJson's object {filename, mediaType, content, redacted}, byte for byte,
 * written as the pieces arrive (jsonInPieces) rather than once the document is whole, which held it
 * twice over (joined and escaped). A failure before the first piece prints its error object as any
 * --json failure does; after it, the object on stdout is already begun: it stays cut short (no parser
 * takes it for whole), stderr says so and why, and the exit is the failure's.
 */
async function printExportJson(io: CliIo, client: StewardClient, params: Params<'Sessions.Export'>): Promise<number> {
  let json: JsonInPieces | undefined;
  try {
    await exportPieces(client, params, async (content, { filename, mediaType, redacted }) => {
      if (json === undefined) {
        json = jsonInPieces({ filename, mediaType, content: '', redacted }, 'content');
        io.stdout(json.head);
      }
      await printPiece(io, json.piece(content));
    });
  } catch (error) {
    // Nothing printed yet, or nobody reading any more: the usual way out.
    if (json === undefined || error instanceof ClosedOutput) throw error;
    io.stderr('steward: the export stopped partway, so the JSON object printed is cut short\n');
    return reportError(io, error, false);
  }
  io.stdout(json?.tail() ?? '');
  return EXIT.ok;
}

/** The progress line of an export into a file, in whole megabytes written so far. */
export function exportProgress(bytes: number): string {
  return `Exporting… ${Math.floor(bytes / 1_000_000)} MB so far`;
}

/** The first line of `sessions show --raw`, as a raw export's first line says it of the export (NOT_REDACTED_NOTE). */
const NOT_REDACTED_VIEW = 'Not redacted. This view shows secrets (API keys, tokens, passwords) exactly as the transcript holds them: do not share or paste it.';

/** One line per conversation; `pinned`: the dates the next page repeats; `filtered`: a project, provider or date narrowed the listing. */
export function formatSessionList(result: Result<'Sessions.List'>, pinned: readonly string[] = [], filtered = false): string {
  // "Yet" would say nothing is captured when a filter, or the last page, left nothing to show.
  if (result.sessions.length === 0) return filtered ? 'No conversations match.\n' : 'No conversations yet.\n';
  const lines = result.sessions.map((s) => {
    const label = oneLine(s.title ?? s.firstRequest ?? '(untitled)');
    return `${s.sessionId}  ${localTime(s.lastAt)}  ${sessionCountWords(s)}  ${s.projectName ?? '—'}  ${label}`;
  });
  if (result.cursor) lines.push('', moreHint(result.cursor, pinned));
  return `${lines.join('\n')}\n`;
}

/** `harness`: the part is text the app wrote in the person's name (see harnessLine), said for what it is. */
function partLine(part: SessionPart, harness: string | undefined): string {
  if (harness !== undefined) return `  [${harness}]`;
  switch (part.kind) {
    case 'text':
      return part.text ?? '';
    case 'tool_use':
      return `  ▸ ${part.summary ?? part.toolName ?? 'tool'}`;
    case 'tool_result':
      return `  ◂ ${part.summary ?? ''}`;
    default:
      // Said as the panel folds it ("Thinking · …", "Image · PNG, 12 KB", "Summary · Earlier
      // conversation summarized"), in part-words' words, never by the kind's name.
      return `  [${foldLine(partFold(part))}]`;
  }
}

/**
 * Under a part Steward stored cut short (it keeps the start of each long message), in the export's
 * words (cutShortWords). The whole's length is what is known: the text shown may be redacted.
 */
function cutLine(part: SessionPart): string[] {
  return part.truncatedFrom === null ? [] : [`  (${cutShortWords(part.truncatedFrom, part.truncatedKept)})`];
}

/**
 * Under a tool result with text, its images (a screenshot), each the placeholder an image part is
 * ("[Image · PNG, 34 KB]"), as the panel and the export say them. A result of only images is said by
 * its line ("2 images: PNG, 34 KB; …"): not again.
 */
function resultImagesUnder(part: SessionPart): string[] {
  if (part.kind !== 'tool_result' || (part.output ?? part.text ?? '').trim() === '') return [];
  return resultImageLines(part.images ?? 0, part.resultImages).map((line) => `  [${line}]`);
}

/** A subagent as one line, where it started: its type (when known), its id and its size. */
function subagentLine(sub: SessionSubagent): string {
  return `  ⤷ subagent ${sub.session.agentType ? `${sub.session.agentType} ` : ''}${sub.session.sessionId} (${countOf(sub.session.messages, 'message')})`;
}

/** When a conversation ran: its start and its end, or the minute once when both fall in it (timeSpan, the export's rule too). */
function spanWords(startedAt: number | null, lastAt: number | null): string {
  const span = timeSpan(startedAt, lastAt, localTime);
  return 'at' in span ? span.at : `${span.from} → ${span.to}`;
}

/**
 * The conversation as people read it: turns in order, tools and thinking as one line each. `latest`:
 * the page opened at the end (--latest), said to be the last of the conversation's messages.
 */
export function formatSession(result: Result<'Sessions.Get'>, latest = false): string {
  const s = result.session;
  const parent = s.parentSessionId === null ? [] : [`${s.parentKind === 'branch' ? 'branched from' : 'subagent of'} ${s.parentSessionId}`];
  const facts = [s.sessionId, s.projectName ?? 'no project', s.app, spanWords(s.startedAt, s.lastAt), countOf(s.messages, 'message'), ...parent];
  const out = [`${s.title ?? s.firstRequest ?? '(untitled)'}`, facts.join(' · ')];
  // In what --limit counts (tool results too, which the conversation's count leaves out), as get_session
  // says it; "The last" only when earlier messages exist: a page holding the whole conversation is not the last of it.
  const toolResults = result.messages.filter((m) => m.countsAsMessage === false).length;
  const held = pageCountWords({ entries: result.messages.length, toolResults, messages: s.messages, last: latest && result.before !== undefined, limit: '--limit' });
  const earlier = result.before ? [`Earlier messages: add --cursor ${result.before}`] : [];
  if (held !== undefined || earlier.length > 0) out.push('', ...(held !== undefined ? [held] : []), ...earlier);
  // Under the message whose call started it, or after the one it started after, as the panel lists it.
  const places = subagentPlaces(result.subagents);
  // A subagent's user turns are the main agent's prompts (as the panel reads them).
  const inSubagent = s.parentKind === 'subagent';
  const messages = result.messages as SessionMessage[];
  // Turns the person rewound past (Gemini CLI) are said so once where they start, and each is marked.
  const rewound = rewoundMarks(messages);
  for (const [i, m] of messages.entries()) {
    // A run of context parts (the files Gemini CLI added to a prompt) is one line, as the panel shows it.
    const shown = joinedContext(m.parts).map((p) => p.part);
    const harness = shown.map((p) => harnessLine(p, m.role, inSubagent, s.app));
    const who = messageSpeaker(m, inSubagent, s.app);
    if (rewound[i] === 'first') out.push('', `[${REWOUND_LINE}]`);
    const header = `── ${who} · ${localTime(m.ts)}${rewound[i] ? ' · rewound' : ''}`;
    out.push('', header, ...shown.flatMap((p, j) => [partLine(p, harness[j]), ...cutLine(p), ...resultImagesUnder(p)]), ...subagentsAt(places, m.messageId).map(subagentLine));
  }
  if (places.unplaced.length > 0) out.push('', ...places.unplaced.map(subagentLine));
  if (result.cursor) out.push('', `Later messages: add --cursor ${result.cursor}`);
  return `${out.join('\n')}\n`;
}

/**
 * --latest opens the page at the end (Sessions.Get at: 'end'), which neither a cursor's page nor a
 * part's is: refused in the CLI's words before the contract refuses it in its own.
 */
function refuseWithLatest(options: { latest?: boolean; cursor?: string; part?: string }): void {
  if (!options.latest) return;
  if (options.cursor !== undefined) throw new UsageError('--latest and --cursor cannot be combined: --latest opens the last page; the --cursor its "Earlier messages" line names opens the one before it');
  if (options.part !== undefined) throw new UsageError('--latest and --part cannot be combined: --part opens the page around that part, --latest the last page');
}

/** `steward sessions list|show|export`: captured conversations, read in a terminal or exported. */
export function registerSessions(program: Command, io: CliIo, run: Run): void {
  const sessions = program.command('sessions').description('captured conversations: list, read, export');
  sessions
    .command('list')
    .description('conversations, most recently active first (prints {sessions} with --json)')
    .option('--project <project>', 'only this project: its name or key, as `steward projects` lists them')
    .option('--provider <id>', `only this provider: ${SEARCH_PROVIDERS.join(', ')} (claude is Claude Code and Claude Desktop)`)
    .option('--from <date>', 'with a message since this date (its start), time or span back (7d); without an offset, in your local time')
    .option('--to <date>', 'with a message by this date (through its end) or time; without an offset, in your local time')
    .option('--limit <n>', 'how many (1-200, default 50)')
    .option('--cursor <cursor>', 'the next page of an earlier listing')
    .option('--json', 'print JSON')
    .action((options: { project?: string; provider?: string; from?: string; to?: string; limit?: string; cursor?: string; json?: boolean }) =>
      run(async () => {
        const dates = dateOptions(options);
        const result = await withClient(io, async (client) => {
          const projectKey = options.project !== undefined ? await projectKeyFor(client, options.project) : undefined;
          const listed = await client.call('Sessions.List', {
            ...(projectKey !== undefined ? { projectKey } : {}),
            ...(options.provider !== undefined ? { provider: choiceOption('--provider', options.provider, SEARCH_PROVIDERS) } : {}),
            ...dates.range,
            ...(options.limit !== undefined ? { limit: parseIntOption('--limit', options.limit, 1, 200) } : {}),
            ...(options.cursor !== undefined ? { cursor: options.cursor } : {}),
            // A list is read over a shoulder, or shared on a screen: a secret in a title shows as [REDACTED].
            redact: true,
          });
          // "No conversations match." would be untrue of a key no project has: the check (and words) of
          // `steward search --project`. A name was resolved among the stored projects already.
          if (listed.sessions.length === 0 && projectKey !== undefined && projectKey === options.project) await mustBeStoredProject(client, projectKey);
          return listed;
        });
        const filtered = [options.project, options.provider, options.from, options.to, options.cursor].some((o) => o !== undefined);
        if (options.json) printJson(io, pageJson(result, dates.pinned));
        else printText(io, formatSessionList(result, dates.pinned, filtered));
        return EXIT.ok;
      }, options.json),
    );
  sessions
    .command('show <id>')
    .showHelpAfterError(ID_HINT)
    .description('read one conversation: its messages in order, tools folded to one line, secrets redacted unless --raw')
    .option('--limit <n>', 'entries per page, messages and tool results both (1-1000, default 200)')
    .option('--cursor <cursor>', 'an earlier or later page')
    .option('--part <partId>', 'open the page around this part (a search hit): it and, as --limit leaves room, up to 5 messages before it')
    .option('--latest', 'open the last page: the conversation\'s last --limit entries, its latest work')
    .option('--raw', 'do not redact secrets: the conversation as it was written')
    .option('--json', 'print JSON')
    .action((sessionId: string, options: { limit?: string; cursor?: string; part?: string; latest?: boolean; raw?: boolean; json?: boolean }) =>
      run(async () => {
        requiredText('the session id', sessionId);
        refuseWithLatest(options);
        const params = {
          sessionId,
          ...(options.limit !== undefined ? { limit: parseIntOption('--limit', options.limit, 1, 1000) } : {}),
          ...(options.cursor !== undefined ? { cursor: options.cursor } : {}),
          ...(options.part !== undefined ? { partId: options.part } : {}),
          ...(options.latest ? { at: 'end' as const } : {}),
          ...(options.raw ? {} : { redact: true }),
        };
        // With --part, "not found" may be the part's: one of its subagents' is named, and forgottenOrWhole says any other as it is.
        const result = await withClient(io, (client) => client.call('Sessions.Get', params).catch(partInSubagent(options.part)).catch(forgottenOrWhole(client, sessionId)));
        // As `export --raw` does: said first, and in JSON as `redacted`, so a view pasted or shared says it keeps secrets.
        if (options.json) printJson(io, { ...result, redacted: options.raw !== true });
        else printText(io, `${options.raw ? `${NOT_REDACTED_VIEW}\n\n` : ''}${formatSession(result, options.latest === true)}`);
        return EXIT.ok;
      }, options.json),
    );
  sessions
    .command('export <id>')
    .showHelpAfterError(ID_HINT)
    .description('export one conversation as Markdown or JSON, secrets redacted unless --raw')
    .option('--format <format>', 'markdown or json', 'markdown')
    .option('--raw', 'do not redact secrets')
    .option('--output <path>', "write to this file, or into this folder under the export's name (from its title), instead of stdout (never replaces a file unless --force)")
    .option('--force', 'with --output: replace the file if it exists')
    .option('--json', 'print the export as a JSON object {filename, mediaType, content, redacted}')
    .action((sessionId: string, options: { format: string; raw?: boolean; output?: string; force?: boolean; json?: boolean }) =>
      run(async () => {
        requiredText('the session id', sessionId);
        const format = choiceOption('--format', options.format, ['markdown', 'json'] as const);
        // Either would silently drop the other: --json prints the export, --output writes it.
        if (options.json && options.output !== undefined) throw new UsageError('--json and --output cannot be combined: --json prints the export, --output writes it to a file');
        if (options.force && options.output === undefined) throw new UsageError('--force replaces the file --output names; without --output there is no file to replace');
        // A folder is saved into under the export's own name; a place that cannot be written, or a file that is there already, stops it at once, before the export is made.
        const intoFolder = options.output !== undefined && (await outputPlace(options.output)) === 'folder';
        if (options.output !== undefined && !intoFolder) await refuseExisting(options.output, options.force === true);
        const params = { sessionId, ...(format ? { format } : {}), ...(options.raw ? { raw: true } : {}) };
        if (options.output !== undefined) {
          const output = options.output;
          // A person at a terminal sees it go; a pipe or a test gets the same bytes as ever.
          const progress = stderrLine(io);
          // Ctrl-C or a kill midway leaves no temp file beside it, nor half a file under its name.
          const force = options.force === true;
          const onWritten = (bytes: number) => progress.show(exportProgress(bytes));
          const { file, result } = await whileInterruptible((signal) =>
            withClient(io, async (client) =>
              intoFolder ? exportIntoFolder(client, params, output, force, onWritten, signal) : { file: output, result: await exportToFile(output, force, (onPiece) => exportPieces(client, params, onPiece), onWritten, signal) },
            ),
          ).finally(() => progress.clear());
          // The file as the person typed it, or in the folder they typed under the export's name (letters, digits, hyphens); this terminal's own words, never logged.
          io.stdout(`Wrote ${file} (${result.redacted ? 'secrets redacted' : 'raw, not redacted'}).\n`);
        } else if (options.json) return await withClient(io, (client) => printExportJson(io, client, params));
        else {
          // Read in a terminal, the export's controls are shown, not acted on; a pipe (`> file`) gets the text as stored.
          const shown = io.stdoutIsTerminal?.() === true ? terminalText : (piece: string) => piece;
          await withClient(io, (client) => exportPieces(client, params, (piece) => printPiece(io, shown(piece))));
        }
        return EXIT.ok;
      }, options.json),
    );
}
