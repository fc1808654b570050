/**
 * How a person names a project, one rule for the CLI (`--project`) and the panel (`#/projects/<name>`),
 * and whose a subagent is by its id, one rule for the owner and the panel. Free of zod, so the panel
 * may run it.
 */

/** A projectKey: `p_` and 16 hex digits. */
export const PROJECT_KEY_SHAPE = /^p_[0-9a-f]{16}$/;

/** A project as a person may name it: its key, or its name as `steward projects` prints it. */
export interface NamedProject {
  projectKey: string;
  name: string;
}

/**
 * What a person is told of a project key Steward holds no project under, wherever they gave it (a
 * `--project` flag, `steward sweeper show`, Projects.Get): after an import, most likely a typo, so where
 * the keys are listed, not a sweep or backfill to run. `anyStored` false: the store holds no project
 * at all, so nothing was imported yet, and a backfill is what brings projects in.
 */
export function noStoredProjectWords(projectKey: string, anyStored = true): string {
  const none = `no stored project has the key ${projectKey}`;
  if (!anyStored) return `${none}: Steward holds no projects yet; \`steward backfill\` imports the history your agents keep, and the projects in it`;
  return `${none} (it may have been forgotten); \`steward projects\` lists each project's name and key`;
}

/** A slug is `<name>-<the first 8 hex digits of the key>` (the notes folder's name): the digits make it unique. */
const SLUG = /^.+-([0-9a-f]{8})$/;

/**
 * The projects `text` names: a key names itself; else the projects of exactly that name, else of that
 * name in any case, else the project a slug's digits name.
 */
export function projectsNamed(text: string, projects: readonly NamedProject[]): string[] {
  if (PROJECT_KEY_SHAPE.test(text)) return [text];
  const exact = projects.filter((p) => p.name === text);
  if (exact.length > 0) return exact.map((p) => p.projectKey);
  const folded = projects.filter((p) => p.name.toLowerCase() === text.toLowerCase());
  if (folded.length > 0) return folded.map((p) => p.projectKey);
  const digits = SLUG.exec(text)?.[1];
  return digits === undefined ? [] : projects.filter((p) => p.projectKey.startsWith(`p_${digits}`)).map((p) => p.projectKey);
}

/** A project as a list to choose from shows it: its folder beside its name. */
export interface PlacedProject extends NamedProject {
  cwd: string;
}

/** The end of `cwd` from its `segments`-th last folder on, `…/` before it when cut: `…/acme/app`, `/home/app`. */
function pathTail(cwd: string, segments: number): string {
  const separator = cwd.includes('\\') && !cwd.includes('/') ? '\\' : '/';
  const parts = cwd.split(/[\\/]+/).filter(Boolean);
  if (segments >= parts.length) return cwd;
  return `\u2026${separator}${parts.slice(-segments).join(separator)}`;
}

/**
 * What a list of projects to choose from (a search filter, a project to mark) calls each one, by key:
 * its name; where two or more share a name, with as much of each one's folder as tells them apart
 * (`app (…/acme/app)` beside `app (…/old/app)`). Only a repeated name gets a folder: the folders are
 * the person's own, which each project's page shows too. Folders that still do not tell them apart
 * (one cwd written two ways) add the digits of the project's slug.
 */
export function projectChoiceLabels(projects: readonly PlacedProject[]): Map<string, string> {
  const labels = new Map(projects.map((p) => [p.projectKey, p.name]));
  const byName = new Map<string, PlacedProject[]>();
  for (const p of projects) {
    const same = byName.get(p.name);
    if (same) same.push(p);
    else byName.set(p.name, [p]);
  }
  for (const [name, same] of byName) {
    if (same.length < 2) continue;
    const longest = Math.max(...same.map((p) => p.cwd.split(/[\\/]+/).filter(Boolean).length));
    let segments = 2;
    while (segments < longest && new Set(same.map((p) => pathTail(p.cwd, segments))).size < same.length) segments += 1;
    const tails = same.map((p) => pathTail(p.cwd, segments));
    const unique = new Set(tails).size === same.length;
    same.forEach((p, i) => labels.set(p.projectKey, `${name} (${tails[i]!}${unique ? '' : `, ${p.projectKey.slice(2, 10)}`})`));
  }
  return labels;
}

/**
 * The conversation a subagent belongs to, by the form capture gives a Claude subagent's id
 * (`{parent}:agent-{id}`); null for any other id (a Codex or Gemini subagent's does not name its parent).
 */
export function subagentParentOf(sessionId: string): string | null {
  const at = sessionId.indexOf(':agent-');
  return at > 0 ? sessionId.slice(0, at) : null;
}

/**
 * What an Unforget of a project says of the forgets of its folder's other spellings it lifted too
 * (Forget.Lift's `otherSpellings`): one sentence for the CLI and the panel.
 */
export function otherSpellingsWords(count: number): string {
  const spellings = count === 1 ? 'another spelling of its folder' : `${count} other spellings of its folder`;
  const lifted = count === 1 ? 'that forget was' : 'those forgets were';
  return `It had also been forgotten under ${spellings} (from before Steward took them for one folder); ${lifted} lifted too, since any of them kept the folder out.`;
}
