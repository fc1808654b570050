/**
 * How a person names a project, one rule for the CLI (`--project`) and the panel (`#/projects/<name>`).
 * Free of zod, so the panel may run it.
 */

/** A projectKey: `p_` and 16 hex digits. */
export const PROJECT_KEY_SHAPE = /^p_[0-9a-f]{16}$/;

/** A project as a person may name it: its key, or its name as `steward projects` prints it. */
export interface NamedProject {
  projectKey: string;
  name: string;
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
