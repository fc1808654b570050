import type { BigIntStats } from 'node:fs';
import { PROVIDERS } from '../../../api/constants/index.js';
import { stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { withoutBom } from '../../lines.js';
import { mtimeOf, type Scan } from '../../scan.js';
import { readSmallFile, refused } from '../../small-file.js';
import type { TranscriptFile } from '../../types.js';
import { agentIdOf } from './parse.js';

const SKIP_DIRS = new Set(['tool-results', 'memory', 'node_modules', '.git', 'outputs']);

/** Claude Code's own agents (compaction, prompt suggestions): not subagents anyone asked for. */
const INTERNAL_AGENTS = ['agent-acompact-', 'agent-aprompt_suggestion-'];
const MAX_SIDECAR_BYTES = 1024 * 1024;
/** Sidecar stats in flight at once, as the scan batches its own. */
const STAT_BATCH = 64;

function isTranscriptName(name: string): boolean {
  return name.endsWith('.jsonl') && !INTERNAL_AGENTS.some((p) => name.startsWith(p)) && name !== 'audit.jsonl' && name !== 'history.jsonl';
}

export const transcriptRules = (source: string) => ({
  acceptFile: isTranscriptName,
  acceptDir: (name: string) => !SKIP_DIRS.has(name),
  maxDepth: 5,
  source,
});

export const AgentMeta = z.looseObject({ agentType: z.string().max(200).optional() });
export const CoworkMeta = z.looseObject({
  cliSessionId: z.string().max(200).optional(),
  title: z.string().max(2_000).optional(),
  model: z.string().max(200).optional(),
  /** The folders the user gave the session; the first is its project. */
  userSelectedFolders: z.array(z.string().max(4_096)).max(64).optional().catch(undefined),
});

/** The sidecar Claude Code writes beside a subagent transcript (`agent-<id>.meta.json`), holding its type. */
export function agentMetaPath(path: string): string | undefined {
  const agentId = agentIdOf(path);
  return agentId === undefined ? undefined : join(dirname(path), `agent-${agentId}.meta.json`);
}

/** A sidecar that is gone, too large, or no regular file (a FIFO, a link to a device) is absent. */
export async function readSmallJson<T>(path: string, schema: z.ZodType<T>): Promise<T | undefined> {
  try {
    const read = await readSmallFile(path, MAX_SIDECAR_BYTES);
    if (refused(read)) return undefined;
    const parsed = schema.safeParse(JSON.parse(withoutBom(read.bytes.toString('utf8'))));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

async function subdirs(scan: Scan, dir: string): Promise<Array<{ name: string; path: string; info: BigIntStats }>> {
  const out: Array<{ name: string; path: string; info: BigIntStats }> = [];
  for (const entry of await scan.list(dir)) {
    if (!entry.isDirectory() && !entry.isSymbolicLink()) continue;
    const path = join(dir, entry.name);
    try {
      const info = await stat(path, { bigint: true });
      if (info.isDirectory()) out.push({ name: entry.name, path, info });
    } catch {
      // A dangling link is nothing to enumerate.
    }
  }
  return out;
}

async function mtimeMs(path: string): Promise<number> {
  try {
    // As the scan's own stat keeps a transcript's time: a rewrite inside one millisecond moves it too.
    return mtimeOf(await stat(path, { bigint: true }));
  } catch {
    // No sidecar (yet): the transcript's own time stands.
    return 0;
  }
}

/** `<userData>/local-agent-mode-sessions/<org>/<workspace>/local_<uuid>/.claude/projects/…`, walked by its known shape only. */
export async function discoverDesktop(scan: Scan, root: string): Promise<void> {
  const base = join(root, 'local-agent-mode-sessions');
  for (const org of await subdirs(scan, base)) {
    for (const workspace of await subdirs(scan, org.path)) {
      for (const home of await subdirs(scan, workspace.path)) {
        if (!home.name.startsWith('local_')) continue;
        const before = scan.files.length;
        await scan.walk(join(home.path, '.claude', 'projects'), transcriptRules(PROVIDERS.claude.roots.desktop_roots.source));
        const sidecar = join(workspace.path, `${home.name}.json`);
        // A rename in Claude Desktop touches only the sidecar: its time is the transcripts' too, so they are read again.
        const sidecarMs = await mtimeMs(sidecar);
        for (const file of scan.files.slice(before)) {
          file.sidecar = sidecar;
          file.mtimeMs = Math.max(file.mtimeMs, sidecarMs);
        }
      }
    }
  }
}

/**
 * A subagent's sidecar may be written after its transcript (and is not a transcript the walk takes):
 * its time is the transcript's too, so a sidecar that appears or changes gets the file read again.
 */
export async function foldAgentMeta(scan: Scan): Promise<void> {
  // One pass, with no allocation for a file that is no subagent's (the usual one): a restart's walk of
  // 20,000 files spent 5–15 ms here at once, between the last stat and the first checkpoint page.
  const agents: Array<{ file: TranscriptFile; meta: string }> = [];
  for (const file of scan.files) {
    const meta = agentMetaPath(file.path);
    if (meta !== undefined) agents.push({ file, meta });
  }
  for (let i = 0; i < agents.length && !scan.cancelled; i += STAT_BATCH) {
    const slice = agents.slice(i, i + STAT_BATCH);
    const times = await Promise.all(slice.map((a) => mtimeMs(a.meta)));
    slice.forEach((a, j) => (a.file.mtimeMs = Math.max(a.file.mtimeMs, times[j]!)));
  }
}
