import { join } from 'node:path';
import { PROVIDERS } from '../../../api/constants/index.js';
import { countRecordError, countSkip, readCompleteLines, resumeOffset } from '../../lines.js';
import { parseLine, Projection } from '../../projection.js';
import { Scan } from '../../scan.js';
import type { DiscoveryResult, LineStats, ReadOptions, TranscriptBatch, TranscriptFile, TranscriptProvider } from '../../types.js';
import { AgentMeta, agentMetaPath, CoworkMeta, discoverDesktop, foldAgentMeta, readSmallJson, transcriptRules } from './discover.js';
import { claudeShaped, countNotATranscript, describeAgent, describeCowork, fileContext, headSaysNoPart, isClaudeState, projectLine, stateOf, type FileFacts } from './parse.js';

export interface ClaudeRoots {
  /** Folders holding `projects/` (Claude Code, Desktop's Code tab). */
  roots: readonly string[];
  /** Claude Desktop user-data folders holding `local-agent-mode-sessions/`. */
  desktopRoots: readonly string[];
}

/**
 * 2: parts carry flags and content ids for lines without a uuid; titles, models, first requests,
 * Cowork projects and subagent types from Task calls; lines without parts are counted by reason.
 * 3: queued prompts (`queued_command` attachments) are parts; IDE context, reminders and rows whose
 * origin is not a person are not the user's words; API errors are `error` parts and `<synthetic>` is
 * no model; ToolSearch results name their tools; redacted thinking is thinking; workflow subagents
 * find their parent.
 * 4: plain strings and blocks of unknown kinds inside a tool_result's content are part of its text (a file given
 * inline as base64, by its facts).
 * 5: a block with a base64 source in a message's own content (a `document` the person attached) is its
 * facts, not its JSON.
 * 6: the session bookkeeping Claude Code writes (`agent-color`, `worktree-state`, `cost-state`, …) is
 * counted as bookkeeping, not as an unknown type; an `agent-name` line titles its session.
 * 7: a Cowork transcript gives its project only to the sessions it owns (ownsSession): lines copied
 * from another session no longer move that session to the Cowork project.
 * 8: a session's own file says its project even when it names no folder (a Claude Code file: the cwd),
 * so a session that version 6 or earlier moved by such copies goes back; a store already read by 7
 * reads its files once more for it. A session that ran in a worktree belongs to its repository's
 * project (the `worktree-state` line's `originalCwd`, else `<repo>` of a cwd under
 * `<repo>/.claude/worktrees/`), not to one of the worktree's own; the same re-read moves it there.
 * 9: the same holds whatever the file is named: a session whose own file is not beside the one read (a
 * transcript saved under another name, a copy that outlived its file) takes the worktree's repository
 * from these lines too, so a file version 8 read lands in the same project as under its session's name.
 * 10: a message line without a uuid carries a content key (see lineKey), so a rewrite that moves it
 * (a summary line put at the top) does not store it again; the re-read gives the parts a store holds
 * their key in place (same ids, a refreshing read).
 * 11: a tool_result's images keep each one's type and decoded size (meta `imageFacts`, beside the
 * `images` count), so the viewer and the exports say them; read again, stored results gain them.
 * 12: a tool_result over its cap keeps its end as well as its start (boundResult: the error or the
 * test summary a long output ends with); read again, stored results cut short gain their ends. A
 * conversation continued in a new one (a resume, a fork, a Desktop continuation) links back to the one
 * it continued, as a branch (parse.ts followOn); the same re-read links those read before.
 */
export const CLAUDE_PARSER_VERSION = 12;

/** Sidecars are read only for a transcript that is being read: an unchanged tick reads none. */
async function fileFacts(file: TranscriptFile): Promise<FileFacts> {
  const metaPath = agentMetaPath(file.path);
  const agentMeta = metaPath ? await readSmallJson(metaPath, AgentMeta) : undefined;
  const cowork = file.sidecar ? await readSmallJson(file.sidecar, CoworkMeta) : undefined;
  return { agentType: agentMeta?.agentType?.slice(0, 200) ?? null, cowork };
}

export class ClaudeProvider implements TranscriptProvider {
  readonly id = 'claude' as const;
  readonly parserVersion = CLAUDE_PARSER_VERSION;
  readonly #roots: ClaudeRoots;

  constructor(roots: ClaudeRoots) {
    this.#roots = roots;
  }

  async discover(signal?: AbortSignal): Promise<DiscoveryResult> {
    const scan = new Scan(signal);
    for (const root of this.#roots.roots) await scan.walk(join(root, 'projects'), transcriptRules(PROVIDERS.claude.roots.roots.source));
    for (const root of this.#roots.desktopRoots) await discoverDesktop(scan, root);
    await foldAgentMeta(scan);
    return scan.result();
  }

  async *read(file: TranscriptFile, options: ReadOptions, stats: LineStats): AsyncGenerator<TranscriptBatch> {
    const start = await resumeOffset(file.path, options.resume, file.size, stats);
    const state = start > 0 && isClaudeState(options.resume?.state) ? options.resume.state : undefined;
    const ctx = fileContext(file, await fileFacts(file), options.windowStartMs, state);
    // Going on from a checkpoint whose state was lost: the lines before were a transcript's, as far as is known.
    if (start > 0 && !state) ctx.shaped = true;
    const projection = new Projection('claude', file.source);
    // A Cowork rename, or a subagent's type written late, changes only a sidecar: a read with no new line still carries it.
    describeCowork(ctx, projection);
    describeAgent(ctx, projection);
    for await (const { lines, offsets } of readCompleteLines(file.path, { maxLineBytes: options.maxLineBytes, start, end: file.size, ...(start > 0 && options.resume ? { headHash: options.resume.headHash } : {}) }, stats)) {
      for (let i = 0; i < lines.length; i += 1) {
        const text = lines[i];
        // An oversize line (null) was counted as it was skipped.
        if (text === null || text === undefined) continue;
        if (text.length === 0) {
          countSkip(stats, 'empty');
          continue;
        }
        if (headSaysNoPart(text)) {
          ctx.shaped = true;
          countSkip(stats, 'meta_only');
          continue;
        }
        const line = parseLine(text);
        if (!line) {
          stats.failedLines += 1;
          countSkip(stats, 'malformed');
          continue;
        }
        ctx.shaped ||= claudeShaped(line);
        try {
          projectLine(line, text, offsets[i]!, ctx, projection, stats);
        } catch (error) {
          countRecordError(stats, error);
        }
        if (projection.pending >= options.batchParts) yield projection.take(false);
      }
    }
    countNotATranscript(ctx, stats);
    if (stats.checkpoint) stats.checkpoint.state = stateOf(ctx);
    yield projection.take(true);
  }
}
