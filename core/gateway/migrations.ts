import type { Db, Migration } from '../store/index.js';
import { FIRST_LINE_MS, geminiContentCallKey, LAST_LINE_MS } from '../transcripts/index.js';
import { ownSessionOf } from './own-file.js';

/**
 * ADD COLUMN, unless the table has it: a step run again over a store that has it (a test's downgrade
 * sets the version back) would fail on a duplicate column. A constant or null default rewrites no row.
 */
function addColumnOnce(db: Db, table: string, column: string, definition: string): void {
  const columns = db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all(table);
  if (!columns.includes(column)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${definition};`);
}

/**
 * Marks a background walk of the search index (`retag`, `recount`) to go over every part indexed so
 * far, from its start: the migration only marks the work, SearchIndex does it in paced pieces.
 */
function walkEveryIndexedPart(db: Db, walk: 'retag' | 'recount'): void {
  db.prepare("INSERT INTO search_state (key, value) VALUES (?, 0) ON CONFLICT(key) DO UPDATE SET value = 0").run(`${walk}_cursor`);
  db.prepare('INSERT INTO search_state (key, value) VALUES (?, (SELECT IFNULL(MAX(part_rowid), 0) FROM search_map)) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(`${walk}_upto`);
}

/** A Gemini part's key as parser 7 gave a block of a message's content: its place among the parts. */
const CONTENT_PLACE = /^c(\d+)$/;

/**
 * Step 33: each Gemini call part parser 7 stored from a message's content under its place (`c{i}`)
 * takes the name parser 8 gives that call (geminiContentCallKey: its id, or its rank among the
 * content's calls), so the re-read parser 8's version forces finds it stored and stores it once. Left
 * as it is: a call whose new name is stored already (parser 7 stored the call twice, as the content's
 * `c{i}` and its entry's `tu-`: each keeps its words), and a call sent without an id when a part before
 * it is not stored (parser 7 kept no copy of a call its entry held, so its rank is not known). Only the
 * name changes: the row, its rowid (the search index's key), its words and counts stay.
 */
function renameGeminiContentCalls(db: Db): void {
  const sessions = db.prepare("SELECT session_id FROM sessions WHERE provider = 'gemini'").pluck().all() as string[];
  // A session's Gemini content parts: the range of its own part ids ('gm:{session}:' up to 'gm:{session};'
  // on the part_id key; `+session_id` keeps the planner off parts_session_ts, which reads every row), told
  // by the key before any row is read; meta only for a call (its id).
  const parts = db.prepare("SELECT rowid, part_id, kind, CASE WHEN kind = 'tool_use' THEN meta END FROM parts WHERE part_id > 'gm:' || @s || ':' AND part_id < 'gm:' || @s || ';' AND +session_id = @s AND part_id GLOB '*:c[0-9]*'").raw();
  const stored = db.prepare('SELECT 1 FROM parts WHERE part_id = ?').pluck();
  const rename = db.prepare('UPDATE parts SET part_id = ? WHERE rowid = ?');
  for (const session of sessions) {
    for (const [message, blocks] of contentPlaces(parts.all({ s: session }) as Array<[number, string, string, string | null]>)) {
      for (const { rowid, name } of contentCallNames(blocks)) {
        if (stored.get(message + name) === undefined) rename.run(message + name, rowid);
      }
    }
  }
}

interface ContentPlace {
  rowid: number;
  kind: string;
  meta: string | null;
}

/** The parts stored under a content place (`c{i}`), by their message's part id prefix (`gm:{session}:{message}:`), each by its place. */
function contentPlaces(rows: Array<[number, string, string, string | null]>): Map<string, Map<number, ContentPlace>> {
  const messages = new Map<string, Map<number, ContentPlace>>();
  for (const [rowid, partId, kind, meta] of rows) {
    const cut = partId.lastIndexOf(':') + 1;
    const place = CONTENT_PLACE.exec(partId.slice(cut));
    if (!place) continue;
    const message = partId.slice(0, cut);
    let blocks = messages.get(message);
    if (!blocks) messages.set(message, (blocks = new Map()));
    blocks.set(Number(place[1]), { rowid, kind, meta });
  }
  return messages;
}

/** Each content call's new key, in place order; none for an id-less call after a place not stored (its rank unknown). */
function contentCallNames(blocks: Map<number, ContentPlace>): Array<{ rowid: number; name: string }> {
  const names: Array<{ rowid: number; name: string }> = [];
  let rank = 0;
  let ranked = true;
  for (let place = 0, last = Math.max(...blocks.keys()); place <= last; place++) {
    const block = blocks.get(place);
    if (!block) ranked = false;
    if (block?.kind !== 'tool_use') continue;
    const id = callId(block.meta);
    if (id !== undefined || ranked) names.push({ rowid: block.rowid, name: geminiContentCallKey(id, rank) });
    rank++;
  }
  return names;
}

/** The call id a stored call's meta says (`toolUseId`), if any. */
function callId(meta: string | null): string | undefined {
  if (meta === null) return undefined;
  try {
    const id = (JSON.parse(meta) as { toolUseId?: unknown }).toolUseId;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Step 34: every stored time no line can hold (isLineTime: 1e300, a REAL in the INTEGER column; 9e15,
 * past what a Date holds; 1980, a clock set back) is no time, as parseTs reads such a line today. Its
 * part loses it (and a place carried from it: a placed part took its neighbour's), and step 30's walk
 * places it as capture places a line without a time, moving its index key with it; the conversations
 * holding such a time, in a part or in their own first or last, take the span of their parts' times
 * (parts placed show none). No row is lost. Found by two seeks per conversation in parts_session_ts (a
 * time below the first, one above the last; a NULL is in neither), never a scan of parts: a REAL in
 * range cannot be stored (parseTs drops a fraction), so every REAL is above. CROSS JOIN keeps sessions
 * outside: joined plainly, the planner read all of parts_session_ts (300k parts in 3,000 conversations:
 * 47–116 ms; seeking, 6–19 ms, the whole open included). Spooled parts too.
 */
function clearBadTimes(db: Db): void {
  const bounds = { lo: FIRST_LINE_MS, hi: LAST_LINE_MS };
  const bad = db.prepare(
    `SELECT p.rowid, s.rowid FROM sessions s CROSS JOIN parts p INDEXED BY parts_session_ts ON p.session_id = s.session_id AND p.ts < @lo
     UNION ALL SELECT p.rowid, s.rowid FROM sessions s CROSS JOIN parts p INDEXED BY parts_session_ts ON p.session_id = s.session_id AND p.ts > @hi`,
  ).raw().all(bounds) as Array<[number, number]>;
  const clear = db.prepare('UPDATE parts SET ts = NULL, ts_inferred = 0 WHERE rowid = ?');
  for (const [part] of bad) clear.run(part);
  // A conversation's span is the earliest and latest times its lines said (mergeSession): one that held
  // a bad time says it too. Only those are spanned again, from the parts: a span a valid line gave stays.
  // The sessions table is small beside parts (one row per conversation): read whole, once.
  const span = (agg: 'MIN' | 'MAX') => `(SELECT ${agg}(p.ts) FROM parts p INDEXED BY parts_session_ts WHERE p.session_id = sessions.session_id AND p.ts BETWEEN @lo AND @hi AND p.ts_inferred = 0)`;
  // Each end on its own: a good first time beside a bad last one stays (retention may have taken the
  // parts that said it, and the transcript may be gone).
  const kept = (column: string, agg: 'MIN' | 'MAX') => `CASE WHEN ${column} BETWEEN @lo AND @hi THEN ${column} ELSE ${span(agg)} END`;
  db.prepare(`UPDATE sessions SET first_ts = ${kept('first_ts', 'MIN')}, last_ts = ${kept('last_ts', 'MAX')} WHERE first_ts NOT BETWEEN @lo AND @hi OR last_ts NOT BETWEEN @lo AND @hi`).run(bounds);
  db.prepare("UPDATE spool SET ts = NULL WHERE kind = 'part' AND ts NOT BETWEEN @lo AND @hi").run(bounds);
  if (bad.length > 0) placeAgain(db, bad.map(([, session]) => session));
}

/**
 * Marks step 30's walk to look again into the conversations `sessions` (rowids) for parts with no time:
 * from before the first of them, or from where a walk already under way stands if that is before, to
 * the last of them or the end it already had. A conversation it looks into again whose parts are placed
 * costs it one seek.
 */
function placeAgain(db: Db, sessions: readonly number[]): void {
  const state = (key: string) => db.prepare('SELECT value FROM search_state WHERE key = ?').pluck().get(key) as number | undefined;
  const [cursor, upto] = [state('place_cursor') ?? 0, state('place_upto') ?? 0];
  // A loop, not Math.min(...sessions): a spread of a long list overflows the stack.
  let [first, last] = [Infinity, 0];
  for (const rowid of sessions) [first, last] = [Math.min(first, rowid), Math.max(last, rowid)];
  const walking = cursor < upto;
  const set = db.prepare('INSERT INTO search_state (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value');
  set.run('place_cursor', walking ? Math.min(cursor, first - 1) : first - 1);
  set.run('place_upto', walking ? Math.max(upto, last) : last);
  set.run('place_session', 0);
  set.run('place_part', 0);
}

/** search_state's mark that step 25 took what rule 2 counted before: it must not take it twice. */
const STEP_25_DONE = 'migration_25_done';

/**
 * gateway.db's schema, in order. Steps are appended, never edited in effect: a user's file may
 * already be at any of them. (Rooms that keep tables in this file migrate them under their own name.)
 */
export const GATEWAY_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'telemetry',
    up(db) {
      db.exec(`
        CREATE TABLE telemetry (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          at INTEGER NOT NULL,
          kind TEXT NOT NULL,
          data TEXT NOT NULL
        );
        CREATE INDEX telemetry_kind_at ON telemetry(kind, at);
      `);
    },
  },
  {
    version: 2,
    name: 'transcript capture: parts, sessions, spool',
    up(db) {
      // Step 2 once created the projects table too; core/projects/ owns it now and creates it if absent.
      // parts(session_id, part_id) is the session-id sort bound candidate probes use; nothing scans parts whole.
      db.exec(`
        CREATE TABLE parts (
          part_id TEXT PRIMARY KEY,
          session_id TEXT NOT NULL,
          provider TEXT NOT NULL,
          role TEXT,
          kind TEXT NOT NULL,
          ts INTEGER,
          text TEXT,
          meta TEXT
        );
        CREATE INDEX parts_session ON parts(session_id, part_id);
        CREATE INDEX parts_ts ON parts(ts);
        CREATE TABLE sessions (
          session_id TEXT PRIMARY KEY,
          provider TEXT NOT NULL,
          source TEXT,
          project_key TEXT,
          cwd TEXT,
          parent_session_id TEXT,
          agent_type TEXT,
          title TEXT,
          first_ts INTEGER,
          last_ts INTEGER,
          updated_at INTEGER NOT NULL
        );
        CREATE INDEX sessions_project ON sessions(project_key, last_ts);
        CREATE INDEX sessions_parent ON sessions(parent_session_id);
        CREATE TABLE spool (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          kind TEXT NOT NULL CHECK (kind IN ('part', 'session')),
          id TEXT NOT NULL,
          session_id TEXT NOT NULL,
          provider TEXT NOT NULL,
          role TEXT,
          part_kind TEXT,
          ts INTEGER,
          text TEXT,
          meta TEXT
        );
      `);
    },
  },
  {
    version: 3,
    name: 'history: full-text index, session counts and tombstones',
    up(db) {
      // Self-contained (IF NOT EXISTS) so it can be renumbered beside other steps. The index is
      // external-content over parts, read through search_source; its rowid is search_map's fts_rowid,
      // which orders by line time (seconds << 20), so "newest first" and date ranges walk the index in
      // order. search_map is also the record of which parts are indexed: a part is in the index exactly
      // when it has a map row. The tokenizer columns and steward_search_text_v1 are fixed for the life
      // of the index: a 'delete' must re-tokenize exactly what was inserted, so a change needs a new
      // function name and a rebuild step (step 13 is one).
      db.exec(`
        CREATE TABLE IF NOT EXISTS search_map (
          fts_rowid INTEGER PRIMARY KEY,
          part_rowid INTEGER NOT NULL UNIQUE,
          scope TEXT NOT NULL
        );
        CREATE VIEW IF NOT EXISTS search_source AS
          SELECT m.fts_rowid AS fts_rowid, m.part_rowid AS part_rowid,
            CASE WHEN p.kind NOT IN ('thinking', 'tool_use', 'tool_result') THEN steward_search_text_v1(p.text) END AS body,
            CASE WHEN p.kind = 'thinking' THEN steward_search_text_v1(p.text) END AS thinking,
            CASE WHEN p.kind = 'tool_use' THEN steward_search_text_v1(p.text) END AS tool_input,
            CASE WHEN p.kind = 'tool_result' THEN steward_search_text_v1(p.text) END AS tool_output,
            m.scope AS scope
          FROM search_map m JOIN parts p ON p.rowid = m.part_rowid;
        CREATE VIRTUAL TABLE IF NOT EXISTS search_fts USING fts5(
          body, thinking, tool_input, tool_output, scope,
          content = 'search_source', content_rowid = 'fts_rowid',
          tokenize = 'unicode61 remove_diacritics 2'
        );
        CREATE TABLE IF NOT EXISTS session_stats (
          session_id TEXT PRIMARY KEY,
          parts INTEGER NOT NULL,
          messages INTEGER NOT NULL,
          tool_calls INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS search_state (key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS history_tombstones (
          kind TEXT NOT NULL CHECK (kind IN ('session', 'project')),
          id TEXT NOT NULL,
          label TEXT,
          created_at INTEGER NOT NULL,
          PRIMARY KEY (kind, id)
        ) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS parts_session_ts ON parts(session_id, ts);
      `);
      // Parts already stored are indexed by background work (SearchIndex.backfillStep), not here:
      // a migration that indexed years of history would block start for minutes.
      db.prepare("INSERT OR IGNORE INTO search_state (key, value) VALUES ('backfill_upto', (SELECT IFNULL(MAX(rowid), 0) FROM parts)), ('backfill_cursor', 0)").run();
    },
  },
  {
    version: 4,
    name: 'capture II: part flags and content keys, session titles and provenance, file checkpoints',
    up(db) {
      // ADD COLUMN with a constant default rewrites no row; the flag backfill below is the one scan.
      db.exec(`
        ALTER TABLE parts ADD COLUMN is_meta INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE parts ADD COLUMN is_compact_summary INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE parts ADD COLUMN is_sidechain INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE parts ADD COLUMN genuine_user_turn INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE parts ADD COLUMN content_key TEXT;
        CREATE INDEX parts_content_key ON parts(session_id, content_key) WHERE content_key IS NOT NULL;
        ALTER TABLE sessions ADD COLUMN title_source TEXT;
        ALTER TABLE sessions ADD COLUMN project_cwd TEXT;
        ALTER TABLE sessions ADD COLUMN parent_kind TEXT;
        ALTER TABLE sessions ADD COLUMN model TEXT;
        ALTER TABLE sessions ADD COLUMN first_request TEXT;
        CREATE TABLE file_checkpoints (
          provider TEXT NOT NULL,
          path TEXT NOT NULL,
          dev TEXT NOT NULL,
          ino TEXT NOT NULL,
          size INTEGER NOT NULL,
          mtime_ms INTEGER NOT NULL,
          byte_offset INTEGER NOT NULL,
          head_hash TEXT NOT NULL,
          tail_hash TEXT NOT NULL,
          parser_version INTEGER NOT NULL,
          window_start_ms INTEGER,
          state TEXT,
          updated_at INTEGER NOT NULL,
          PRIMARY KEY (provider, path)
        ) WITHOUT ROWID;
      `);
      // Parts stored before this step have no flags. Their files are read again once (the parser
      // version moved), but a transcript its agent already deleted is not: its user text is marked
      // here, once, by the rule the sink and the sweeper applied until now. A frozen step of history,
      // not a live copy of the rule: new parts get the flag from the parser.
      db.exec(`
        UPDATE parts SET is_sidechain = 1 WHERE session_id LIKE '%:agent-%';
        UPDATE parts SET genuine_user_turn = 1
         WHERE role = 'user' AND kind = 'text' AND is_sidechain = 0 AND TRIM(COALESCE(text, '')) <> ''
           AND LTRIM(text) NOT LIKE '<command-%' AND LTRIM(text) NOT LIKE '<local-command-%' AND LTRIM(text) NOT LIKE '<system-reminder>%'
           AND LTRIM(text) NOT LIKE '<user-prompt-submit-hook>%' AND LTRIM(text) NOT LIKE 'Caveat: The messages below%'
           AND LTRIM(text) NOT LIKE '[Request interrupted%';
        UPDATE sessions SET parent_kind = 'subagent' WHERE parent_session_id IS NOT NULL;
      `);
    },
  },
  {
    version: 5,
    name: 'parts lose their time index',
    up(db) {
      // Only the retention prune read parts_ts, and every stored part paid for it: an insert at a
      // random place in it, and its leaf pages written again by every commit. The prune walks
      // parts_session_ts session by session instead (RetentionPruner).
      db.exec('DROP INDEX IF EXISTS parts_ts');
    },
  },
  {
    version: 6,
    name: 'parts lose their (session, part id) index',
    up(db) {
      // The materializer's candidate probes were its only reader; they ride the part_id key instead
      // (a probe names its part ids). Every stored part paid for it with a fourth index insert, and
      // every commit wrote its pages again; parts_session_ts still finds a session's parts.
      db.exec('DROP INDEX IF EXISTS parts_session');
    },
  },
  {
    version: 7,
    name: 'the full-text index merges in paced pieces',
    up(db) {
      // FTS5's automatic merging ran inside whichever commit filled a level: forgetting in pieces of 200
      // parts, every other commit took 31–46 ms instead of 5–7. SearchIndex.mergePiece does that work in
      // pieces of its own (see IndexBackfill); FTS5's crisis merge still bounds a level.
      db.exec("INSERT INTO search_fts (search_fts, rank) VALUES ('automerge', 0)");
    },
  },
  {
    version: 8,
    name: 'summary titles waiting for their leaf message',
    up(db) {
      // Only claims read from now on are recorded (see TitleClaims): nothing is scanned here.
      db.exec(`
        CREATE TABLE IF NOT EXISTS title_claims (
          seq INTEGER PRIMARY KEY,
          leaf_prefix TEXT NOT NULL,
          fallback_session_id TEXT NOT NULL,
          title TEXT NOT NULL,
          title_source TEXT NOT NULL,
          base_title TEXT,
          base_source TEXT,
          UNIQUE (leaf_prefix, fallback_session_id)
        );
        CREATE INDEX IF NOT EXISTS title_claims_fallback ON title_claims(fallback_session_id);
      `);
    },
  },
  {
    version: 9,
    name: 'Gemini conversations count their messages',
    up(db) {
      // Counted by `part_id LIKE '%:0'` until now, which no Gemini id matches (its blocks are named):
      // each indexed Gemini conversation is counted again, by the first stored part of each message. A
      // frozen copy of the rule (see STARTS_MESSAGE_SQL); only Gemini's parts are read.
      db.exec(`
        UPDATE session_stats SET messages = (
          SELECT COUNT(*) FROM parts p WHERE p.session_id = session_stats.session_id
            AND NOT EXISTS (SELECT 1 FROM parts q WHERE q.part_id > rtrim(p.part_id, replace(p.part_id, ':', ''))
              AND q.part_id < substr(rtrim(p.part_id, replace(p.part_id, ':', '')), 1, length(rtrim(p.part_id, replace(p.part_id, ':', ''))) - 1) || ';'
              AND q.rowid < p.rowid))
        WHERE session_id IN (SELECT session_id FROM sessions WHERE provider = 'gemini');
      `);
    },
  },
  {
    version: 10,
    name: 'indexed parts of sessions that moved project are tagged again',
    up(db) {
      // Until now a session that moved project (Cowork's selected folder read later, a path's new key,
      // a folder first seen after its parts) kept its parts' old project tags, so a project or repository
      // filter found them where they were. Only marks the work: the re-tag walk (SearchIndex.retagStep)
      // checks every indexed part in paced pieces and re-tags those whose tag is stale.
      walkEveryIndexedPart(db, 'retag');
    },
  },
  {
    version: 11,
    name: 'a file checkpoint remembers the exclusion that held lines back',
    up(db) {
      // Null for every checkpoint written until now: which of them passed over excluded lines is not
      // known, and a backfill reads those files again (see FileCheckpoints.releaseLifted).
      db.exec('ALTER TABLE file_checkpoints ADD COLUMN exclusion TEXT;');
    },
  },
  {
    version: 12,
    name: "a project's conversations, indexed alone",
    up(db) {
      // A project's count and its latest conversation read this partial index only (GatewayReader), so
      // the projects list costs one short range per project; sessions_project also holds subagents,
      // whose rows a count had to read one by one to leave them out. Its WHERE is CONVERSATION as it
      // reads today (sessions.ts), spelled out: a query uses the index only where it says the same. The
      // parent columns (null but for branches) let SQLite check that WHERE without the table's row.
      db.exec(
        "CREATE INDEX IF NOT EXISTS sessions_conversations ON sessions(project_key, last_ts, session_id, parent_session_id, parent_kind) WHERE (parent_session_id IS NULL OR parent_kind = 'branch');",
      );
    },
  },
  {
    version: 13,
    name: 'the full-text index finds any stretch of a Chinese or Japanese run',
    up(db) {
      // The view feeds a part to the index through steward_search_text_v2 (searchTextV2) once its map
      // row says `text_version` 2, as every part indexed from now on does. v2 differs from v1 only for
      // text holding Chinese or Japanese, so only such parts must be taken out with v1's tokens and put
      // back with v2's: the re-tag walk does that in paced pieces (SearchIndex.retagStep), over every
      // part stored so far. Nothing is dropped, so search, its filters and the message counts stay
      // whole meanwhile, and an English history pays only the walk's look at each text.
      // ADD COLUMN with a constant default rewrites no row.
      db.exec(`
        ALTER TABLE search_map ADD COLUMN text_version INTEGER NOT NULL DEFAULT 1;
        DROP VIEW IF EXISTS search_source;
        CREATE VIEW search_source AS
          SELECT m.fts_rowid AS fts_rowid, m.part_rowid AS part_rowid,
            CASE WHEN p.kind NOT IN ('thinking', 'tool_use', 'tool_result') THEN steward_search_text(m.text_version, p.text) END AS body,
            CASE WHEN p.kind = 'thinking' THEN steward_search_text(m.text_version, p.text) END AS thinking,
            CASE WHEN p.kind = 'tool_use' THEN steward_search_text(m.text_version, p.text) END AS tool_input,
            CASE WHEN p.kind = 'tool_result' THEN steward_search_text(m.text_version, p.text) END AS tool_output,
            m.scope AS scope
          FROM search_map m JOIN parts p ON p.rowid = m.part_rowid;
      `);
      // The re-tag walk's range widens to every part stored (it may hold a range already: see step 10).
      const state = (key: string) => (db.prepare('SELECT value FROM search_state WHERE key = ?').pluck().get(key) as number | undefined) ?? 0;
      const set = db.prepare('INSERT INTO search_state (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value');
      const last = db.prepare('SELECT IFNULL(MAX(rowid), 0) FROM parts').pluck().get() as number;
      set.run('retag_cursor', 0);
      set.run('retag_upto', Math.max(last, state('retag_upto')));
    },
  },
  {
    version: 14,
    name: "the full-text index reads JSON's escaped line breaks as breaks",
    up(db) {
      // Parts indexed from now on say `text_version` 3 (searchTextV3): in a tool's input or a shell's
      // output wrapper, JSON text, `\n` no longer glues its n to the next word. The view dispatches on
      // the version already (step 13), so only the work is marked, as step 10 does: the re-tag walk
      // looks at every part stored so far and indexes again those whose text reads differently now.
      db.exec(`
        INSERT INTO search_state (key, value) VALUES ('retag_cursor', 0) ON CONFLICT(key) DO UPDATE SET value = 0;
        INSERT INTO search_state (key, value) VALUES ('retag_upto', MAX((SELECT IFNULL(MAX(rowid), 0) FROM parts), IFNULL((SELECT value FROM search_state WHERE key = 'retag_upto'), 0)))
          ON CONFLICT(key) DO UPDATE SET value = excluded.value;
      `);
    },
  },
  {
    version: 15,
    name: 'transcript files that could not be read, remembered as they were',
    up(db) {
      // Apart from file_checkpoints: a checkpoint vouches for rows a read committed, and a file read
      // well before keeps its checkpoint (and resume point) when a later version of it fails.
      db.exec(`
        CREATE TABLE file_failures (
          provider TEXT NOT NULL,
          path TEXT NOT NULL,
          dev TEXT NOT NULL,
          ino TEXT NOT NULL,
          size INTEGER NOT NULL,
          mtime_ms INTEGER NOT NULL,
          parser_version INTEGER NOT NULL,
          code TEXT NOT NULL,
          failed_at INTEGER NOT NULL,
          PRIMARY KEY (provider, path)
        ) WITHOUT ROWID;
      `);
    },
  },
  {
    version: 16,
    name: 'per file checkpoint: the lines its reads left out as older than their window',
    up(db) {
      // Kept on the checkpoint, not rebuilt from telemetry: a file read again from its start (rewritten,
      // a new parser, a wider window) replaces its count instead of adding to it, and telemetry is trimmed.
      // A checkpoint from before has no count (NULL: not known, never a 0 that reads as "nothing left
      // out") until a read from the file's start or an import on request takes it; nothing is read again
      // here. A checkpoint read with no window is known to leave nothing out.
      db.exec(`
        ALTER TABLE file_checkpoints ADD COLUMN older_left_out INTEGER;
        UPDATE file_checkpoints SET older_left_out = 0 WHERE window_start_ms IS NULL;
      `);
    },
  },
  {
    version: 17,
    name: 'a table that wiping a forget from the disk fills the free pages through',
    up(db) {
      // Empty but while a wipe runs (DiskScrub): rows of zeros take every free page, which still holds
      // what was deleted there, and are deleted again. A table of its own, so no other room's reads see them.
      db.exec('CREATE TABLE IF NOT EXISTS scrub_fill (zeros BLOB NOT NULL)');
    },
  },
  {
    version: 18,
    name: 'the full-text index finds a tool call by its tool’s name',
    up(db) {
      // Parts indexed from now on say `text_version` 4 (searchTextV4): a tool call's input column holds
      // its tool's name too, which capture keeps in the part's meta, so the view hands the meta to
      // steward_search_tool_text; at an older version it reads the text alone, as it was indexed. The
      // re-tag walk indexes again, in paced pieces, every tool call stored so far that names its tool.
      db.exec(`
        DROP VIEW IF EXISTS search_source;
        CREATE VIEW search_source AS
          SELECT m.fts_rowid AS fts_rowid, m.part_rowid AS part_rowid,
            CASE WHEN p.kind NOT IN ('thinking', 'tool_use', 'tool_result') THEN steward_search_text(m.text_version, p.text) END AS body,
            CASE WHEN p.kind = 'thinking' THEN steward_search_text(m.text_version, p.text) END AS thinking,
            CASE WHEN p.kind = 'tool_use' THEN steward_search_tool_text(m.text_version, p.text, p.meta) END AS tool_input,
            CASE WHEN p.kind = 'tool_result' THEN steward_search_text(m.text_version, p.text) END AS tool_output,
            m.scope AS scope
          FROM search_map m JOIN parts p ON p.rowid = m.part_rowid;
        INSERT INTO search_state (key, value) VALUES ('retag_cursor', 0) ON CONFLICT(key) DO UPDATE SET value = 0;
        INSERT INTO search_state (key, value) VALUES ('retag_upto', MAX((SELECT IFNULL(MAX(rowid), 0) FROM parts), IFNULL((SELECT value FROM search_state WHERE key = 'retag_upto'), 0)))
          ON CONFLICT(key) DO UPDATE SET value = excluded.value;
      `);
    },
  },
  {
    version: 19,
    name: 'a forgotten conversation keeps the ids of the subagents erased with it',
    up(db) {
      // A Gemini or Codex subagent's id does not name its parent, and its row goes with the forget: this
      // is what still says which forget covers it (Forget.Of). Ids alone, never text or paths. Keyed by
      // the subagent, as it is asked for by its id; by the conversation too, which lifting it clears.
      db.exec(`
        CREATE TABLE IF NOT EXISTS history_tombstone_subagents (
          subagent_id TEXT NOT NULL,
          session_id TEXT NOT NULL,
          PRIMARY KEY (subagent_id, session_id)
        ) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS history_tombstone_subagents_session ON history_tombstone_subagents(session_id);
      `);
    },
  },
  {
    version: 20,
    name: 'a forgotten project keeps the ids of the conversations erased with it',
    up(db) {
      // Step 19's table named its record by a conversation id alone; a project's record is named by its
      // kind too (a project key and a conversation id are not told apart by their form). Keyed by the
      // kept id, as it is asked for by it; by the record too, which lifting it clears. Ids alone.
      db.exec(`
        CREATE TABLE IF NOT EXISTS history_tombstone_kept (
          session_id TEXT NOT NULL,
          kind TEXT NOT NULL,
          id TEXT NOT NULL,
          PRIMARY KEY (session_id, kind, id)
        ) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS history_tombstone_kept_record ON history_tombstone_kept(kind, id);
        INSERT OR IGNORE INTO history_tombstone_kept (session_id, kind, id) SELECT subagent_id, 'session', session_id FROM history_tombstone_subagents;
        DROP TABLE history_tombstone_subagents;
      `);
    },
  },
  {
    version: 21,
    name: 'which transcript files hold a conversation, or what a forget withheld',
    up(db) {
      // Written with a file's checkpoint, in the same commit window: the conversations a read of the file
      // met (kind 'session'; 'copy' since, for one other files hold, see FileCheckpoints.heldElsewhere)
      // and the forget records that withheld some of it (the record's kind and id).
      // Lifting a forget drops those files' checkpoints, so the next scheduled tick reads them again from
      // their start. Ids and the person's own paths only, never text; by file too, which a move or a
      // vanished file updates.
      db.exec(`
        CREATE TABLE IF NOT EXISTS file_holds (
          kind TEXT NOT NULL,
          id TEXT NOT NULL,
          provider TEXT NOT NULL,
          path TEXT NOT NULL,
          PRIMARY KEY (kind, id, provider, path)
        ) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS file_holds_file ON file_holds(provider, path);
      `);
    },
  },
  {
    version: 22,
    name: "a tool's result is not a message",
    up(db) {
      // Each session's count of messages held every tool result as one until now (a Claude line of
      // results, Codex's function call output, Gemini's function response). A recount here would read
      // every indexed part before start (a 1M-part store: about half a second warm, more cold), so
      // only the work is marked, as step 13 marks its own: each map row says the rule its part was
      // counted by (1, the old, for every row so far; SearchIndex writes 2), what a part counted leaves
      // by its own rule, and the re-tag walk's pieces move the old rows to the new rule, taking from
      // each session's count what they counted more (SearchIndex's recount piece).
      // ADD COLUMN with a constant default rewrites no row. Run again over a store that has the column
      // (a test's downgrade), the walk passes over the rows it moved already.
      addColumnOnce(db, 'search_map', 'message_rule', 'INTEGER NOT NULL DEFAULT 1');
      walkEveryIndexedPart(db, 'recount');
    },
  },
  {
    version: 23,
    name: "a forgotten project's record keeps out every spelling of its folder",
    up(db) {
      // One folder spelled two ways is one project (a later spelling joins the oldest row's): once a
      // forget removes that row, nothing joins the other spelling to the forgotten key. The record keeps
      // sha256 of the folder's comparable form (folderHashOf), never the path. Records made before have
      // none (their key alone still covers them). Nullable: ADD COLUMN rewrites no row; checked first,
      // as step 22 is, for a store that has it (a test's downgrade).
      addColumnOnce(db, 'history_tombstones', 'folder_hash', 'TEXT');
      db.exec('CREATE INDEX IF NOT EXISTS history_tombstones_folder ON history_tombstones(folder_hash) WHERE folder_hash IS NOT NULL;');
    },
  },
  {
    version: 24,
    name: "a forgotten project's record keeps out the Gemini hash folders of its folder",
    up(db) {
      // Gemini CLI names an old project folder by sha256 of its path; once a forget erased the project
      // row that made the path known, such a chat would come back as a "folder unknown" project. The
      // record keeps those hash folders' names (never the path). A new, empty table: nothing is walked.
      // Records made before keep none: their folder's path is gone, so its hash folders are unknowable.
      db.exec(`
        CREATE TABLE IF NOT EXISTS history_tombstone_gemini (
          kind TEXT NOT NULL,
          id TEXT NOT NULL,
          hash_folder TEXT NOT NULL,
          PRIMARY KEY (kind, id, hash_folder)
        ) WITHOUT ROWID;
      `);
    },
  },
  {
    version: 25,
    name: "an OpenClaw tool result that holds only an image is not a message",
    up(db) {
      // Rule 2 (step 22) told a tool's result by its standing part's kind: an OpenClaw toolResult whose
      // first block is an image (a screenshot) stands as an image and was counted. Rule 2 now tells it by
      // its role too (countsAsMessage), so what those rows counted is taken from their sessions here, and
      // every rule-2 row counts by today's rule. A frozen copy of the rule's new half, read over
      // OpenClaw's sessions alone (parts_session); its blocks are numbered, so block 0 stands for its
      // message, and a toolResult never holds the person's words. Rule-1 rows are the walk's (step 22).
      // Rule-2 rows keep their rule after it, so a second run (a store set back to schema 24) would take
      // them again: search_state says it ran. A store's first run (a fresh one included) writes the mark.
      if (db.prepare(`SELECT 1 FROM search_state WHERE key = '${STEP_25_DONE}'`).get() !== undefined) return;
      db.exec(`
        UPDATE session_stats SET messages = session_stats.messages - x.d
        FROM (SELECT p.session_id AS session_id, COUNT(*) AS d
                FROM sessions s JOIN parts p ON p.session_id = s.session_id JOIN search_map sm ON sm.part_rowid = p.rowid
                WHERE s.provider = 'openclaw' AND p.role = 'toolResult' AND p.kind <> 'tool_result' AND p.part_id LIKE '%:0' AND sm.message_rule = 2
                GROUP BY p.session_id) AS x
        WHERE session_stats.session_id = x.session_id;
        INSERT INTO search_state (key, value) VALUES ('${STEP_25_DONE}', 1);
      `);
    },
  },
  {
    version: 26,
    name: 'a vanished file keeps what it held, marked gone',
    up(db) {
      // A complete walk that no longer finds a file deleted its holds (step 21), so a conversation whose
      // transcript the agent deleted looked like one imported before step 21, which no read recorded.
      // Its holds now stay, with when the walk found the file gone: "gone" (Forget.Lost) is told from
      // "not known". FileCheckpoints.holding skips them (heldElsewhere counts them: a conversation's own file, even gone, is never replaced by a copy);
      // a read of a file at that path again clears the mark. Holds already deleted stay unknown.
      addColumnOnce(db, 'file_holds', 'gone_at', 'INTEGER');
    },
  },
  {
    version: 27,
    name: "a conversation stored before files were recorded is held by its own file, where its name says it",
    up(db) {
      // file_holds (step 21) is written only when a file is read: an upgraded store's conversations from
      // files unchanged since are "not known", so deleting such a file later went unwarned (Forget.Lost).
      // A checkpointed file whose name (or its reader's state) certainly names a stored conversation of
      // its provider holds it now, when no file is known to; the next complete walk that does not find
      // it marks it gone. Ids and the person's own paths only; one pass over the checkpoints. (ownSessionOf
      // names OpenClaw's files too since; this step reads Claude's and Codex's alone, as it did.)
      const checkpoints = db.prepare("SELECT provider, path, state FROM file_checkpoints WHERE provider IN ('claude', 'codex')").raw().all() as Array<[string, string, string | null]>;
      const unheld = db
        .prepare("SELECT 1 FROM sessions s WHERE s.session_id = ? AND s.provider = ? AND NOT EXISTS (SELECT 1 FROM file_holds h WHERE h.kind = 'session' AND h.id = s.session_id)")
        .pluck();
      const hold = db.prepare("INSERT OR IGNORE INTO file_holds (kind, id, provider, path) VALUES ('session', ?, ?, ?)");
      for (const [provider, path, state] of checkpoints) {
        const id = ownSessionOf(provider, path, state);
        if (id !== undefined && unheld.get(id, provider) !== undefined) hold.run(id, provider, path);
      }
    },
  },
  {
    version: 28,
    name: "a store's holds name what a forget record kept out there, and where a conversation's lines are kept apart",
    up(db) {
      // A forget record's hold on a file says the file holds some of what it keeps out. An OpenClaw store
      // holds many conversations and stays when OpenClaw deletes them: its hold is told gone by the store's
      // listing (FileCheckpoints.put), which needs the conversations it kept out (`withheld`, a JSON list
      // of ids). A conversation OpenClaw moved into a cold archive file is only named by the store: its
      // hold says that file (`lines_at`), whose deletion loses it (TranscriptFiles). Ids and the person's
      // own paths only. Holds written before say neither, as they did not; the next read of a store that
      // lists a conversation kept apart says where.
      addColumnOnce(db, 'file_holds', 'withheld', 'TEXT');
      addColumnOnce(db, 'file_holds', 'lines_at', 'TEXT');
    },
  },
  {
    version: 29,
    name: 'a line without a time keeps its place in its conversation',
    up(db) {
      // A part whose line has no time is stored from now on with the time of the line before it in its
      // file in `ts` (its place, see placed.ts) and `ts_inferred = 1`: nothing shows that time. A constant
      // default rewrites no row. Parts stored before keep a null ts and read as they did (first in their
      // conversation, with no time): nothing is walked here, and no read walks for them.
      addColumnOnce(db, 'parts', 'ts_inferred', 'INTEGER NOT NULL DEFAULT 0');
    },
  },
  {
    version: 30,
    name: 'a line stored without a time before step 29 takes its place',
    up(db) {
      // Such a part still opens its conversation, ends a newest-first search and is never pruned, and
      // only a read of its file from the start (which nothing forces) would place it. Placing them here
      // would hold start: on a 1M-part store with 1% of parts untimed the one set-based pass took 1–2 s
      // warm and far more cold (a seek per conversation, a few per part, each part taken out of the
      // index and put back under its new key). So only the work is marked, as step 22 marks its own:
      // the re-tag walk's pieces place them, conversation by conversation, in sessions' rowid order up
      // to the newest conversation now (SearchIndex's place piece; a later one is written placed).
      // Run again (a test's downgrade), the walk starts over and finds placed parts placed.
      db.exec(`
        INSERT INTO search_state (key, value) VALUES ('place_cursor', 0), ('place_session', 0), ('place_part', 0) ON CONFLICT(key) DO UPDATE SET value = 0;
        INSERT INTO search_state (key, value) VALUES ('place_upto', (SELECT IFNULL(MAX(rowid), 0) FROM sessions)) ON CONFLICT(key) DO UPDATE SET value = excluded.value;
      `);
    },
  },
  {
    version: 31,
    name: "per file checkpoint: the file's ctime",
    up(db) {
      // A file rewritten to the same size with its mtime set back matched its checkpoint, and was never read
      // again; its ctime moved (see TranscriptFile.ctimeMs). Milliseconds to the microsecond, as mtime_ms.
      // A checkpoint from before has none (NULL: not known, nothing to weigh) until its file is next read:
      // an upgrade reads no file again.
      addColumnOnce(db, 'file_checkpoints', 'ctime_ms', 'REAL');
    },
  },
  {
    version: 32,
    name: 'the exclusions file checkpoints passed over, indexed alone',
    up(db) {
      // Every start asks which exclusions checkpoints still name (FileCheckpoints.releaseLifted), before
      // any tick: without an index that read every checkpoint (about 20 ms at 20,000 files, growing with
      // them). Partial, so a checkpoint with no exclusion (nearly all) costs its writes nothing.
      db.exec('CREATE INDEX IF NOT EXISTS file_checkpoints_exclusion ON file_checkpoints(exclusion) WHERE exclusion IS NOT NULL;');
    },
  },
  {
    version: 33,
    name: "a Gemini call stored from a message's content takes the name Gemini parser 8 gives it",
    up(db) {
      // Parser 8 names a content call as its toolCalls entry does, not by its place, and reads every Gemini
      // file again: without this, each call parser 7 stored from a content alone would be stored twice.
      // Reads each Gemini session's own part-id range once; run again, finds nothing to rename.
      renameGeminiContentCalls(db);
    },
  },
  {
    version: 34,
    name: 'a time no line can hold is no time',
    up(db) {
      // Before parseTs read only times a line can hold, one line saying 1e300 broke every list, the
      // conversation, search and forget for the whole store (a contract's int). The reads defend since,
      // but the rows stay wrong until cleared: here, once, by seeks (see clearBadTimes).
      clearBadTimes(db);
    },
  },
];
