/** A pi/OpenClaw session's header line, and the context its entries are read in (JSONL or SQLite store alike). */
export interface Header {
  id: string;
  cwd: string | null;
  /** The session this one was branched from (`branchedFrom` in v1, `parentSession` later): a path or an id. */
  parent?: string | null;
  model?: string | null;
}

/** One session's entries in reading order: the agent that wrote them, and their header once seen. */
export interface EntryContext {
  agentId: string;
  header: Header | undefined;
  /**
   * In a store, the `seq` of the session's header row: a row's seq less this is the line it was in the
   * JSONL file Doctor imported row by row, which is the identity of a v1 entry (it has no id).
   */
  headerSeq?: number;
}
