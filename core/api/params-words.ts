import type { z } from 'zod';
import { StewardError } from './errors.js';
import { countOf } from './words.js';

/*
 * Why a request's params were refused, in words a person reads (the CLI prints it, the panel shows it):
 * which field, and what it takes. The dispatcher says every method's refusal with this one rule; the
 * method's name and zod's own issues stay in the error's details, for scripts.
 */

type Issue = z.core.$ZodIssue;
type Path = readonly PropertyKey[];

/** zod's own messages begin so ("Invalid input: expected string…"); a schema's own words are kept as written. */
const ZOD_OWN = /^(Invalid|Too (small|big)|Unrecognized key)/;

const TYPE_WORDS: Readonly<Record<string, string>> = { boolean: 'true or false', int: 'a whole number', number: 'a number', string: 'text', array: 'a list', object: 'an object' };

/** `policy.collections[2]`: the field as the request names it; the request itself when the path is empty. */
export function fieldName(path: Path): string {
  if (path.length === 0) return 'the request';
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join('');
}

function valueAt(input: unknown, path: Path): unknown {
  let value = input;
  for (const key of path) value = value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  return value;
}

function bound(issue: Extract<Issue, { code: 'too_small' | 'too_big' }>, field: string): string {
  const small = issue.code === 'too_small';
  const n = Number(small ? issue.minimum : issue.maximum);
  const inclusive = issue.inclusive !== false;
  if (issue.origin === 'string') return small && n <= 1 ? `${field} cannot be empty` : `${field} must be ${small ? 'at least' : 'at most'} ${countOf(n, 'character')}`;
  if (issue.origin === 'array' || issue.origin === 'set') return `${field} ${small ? 'needs at least' : 'holds at most'} ${countOf(n, 'item')}`;
  return `${field} must be ${small ? (inclusive ? 'at least' : 'more than') : inclusive ? 'at most' : 'less than'} ${n}`;
}

/** zod's own words for one issue, said plainly. */
function ownWords(issue: Issue, field: string, input: unknown): string {
  switch (issue.code) {
    case 'invalid_type':
      return valueAt(input, issue.path) === undefined && issue.path.length > 0 ? `${field} is missing` : `${field} must be ${TYPE_WORDS[issue.expected] ?? `a ${issue.expected}`}`;
    case 'too_small':
    case 'too_big':
      return bound(issue, field);
    case 'invalid_value':
      return `${field} must be ${issue.values.length === 1 ? JSON.stringify(issue.values[0]) : `one of ${issue.values.map(String).join(', ')}`}`;
    case 'invalid_format':
      return issue.format === 'url' ? `${field} must be a URL that starts with http:// or https://` : `${field} is not in the form it takes`;
    case 'unrecognized_keys': {
      const names = issue.keys.map((key) => fieldName([...issue.path, key]));
      return `${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} not part of this request`;
    }
    default:
      return `${field} is not a value it takes`;
  }
}

/** One issue in words: the schema's own message where it wrote one, else zod's said plainly; always naming the field. */
export function issueWords(issue: Issue, input: unknown): string {
  const field = fieldName(issue.path);
  if (ZOD_OWN.test(issue.message)) return ownWords(issue, field, input);
  const last = issue.path.at(-1);
  return last === undefined || issue.message.includes(String(last)) ? issue.message : `${field}: ${issue.message}`;
}

/** Between the words of two refused fields: each field's words open with its name (issueWords). */
const CLAUSE = '; ';

/** Every refused field of a request, once each, in words: "query cannot be empty; limit must be at most 50". */
export function paramsWords(issues: readonly Issue[], input: unknown): string {
  const said = [...new Set(issues.map((issue) => issueWords(issue, input)))];
  const shown = said.slice(0, 3).join(CLAUSE);
  return said.length > 3 ? `${shown} (and ${said.length - 3} more)` : shown;
}

/**
 * A refusal of one request field that the contract's schema cannot say (it depends on another field):
 * named as the contract names it (`baseUrl is needed…`), the field in `details.fields` as the panel
 * reads it, so each surface can say it in its own names with namedFor.
 */
export function refusedField(field: string, words: string): StewardError {
  return new StewardError('invalid_params', `${field} ${words}`, { fields: { [field]: { message: words } } });
}

/**
 * One rule for every surface: a refused field is said with the caller's name for it (`base_url` over
 * MCP, `--base-url` on the command line), whether core refused it (refusedField) or the contract's
 * schema did (paramsWords). A field the surface does not name stays as it was; the details keep the
 * contract's names, for scripts.
 */
export function namedFor(error: StewardError, nameOf: (field: string) => string | undefined): StewardError {
  if (error.code !== 'invalid_params') return error;
  const fields = error.details?.fields;
  if (fields !== null && typeof fields === 'object') return namedField(error, fields as Record<string, { message?: unknown } | undefined>, nameOf);
  return namedIssues(error, nameOf);
}

function namedField(error: StewardError, fields: Record<string, { message?: unknown } | undefined>, nameOf: (field: string) => string | undefined): StewardError {
  const entries = Object.entries(fields);
  if (entries.length !== 1) return error;
  const [field, refusal] = entries[0]!;
  const name = nameOf(field);
  if (name === undefined || typeof refusal?.message !== 'string') return error;
  return new StewardError(error.code, `${name} ${refusal.message}`, error.details);
}

/** A field's name where a clause of paramsWords opens with it: the whole field, not one inside it (`policy.sync`). */
const LEAD = /^([A-Za-z_$][\w$]*)(?![\w$.[])/;

/**
 * A schema's refusal (invalidParams: the words of paramsWords, the refused paths in `details.issues`):
 * each clause that opens with a refused top-level field opens with the surface's name for it instead.
 * The message is all a client across a connection has of the words, so they are renamed there.
 */
function namedIssues(error: StewardError, nameOf: (field: string) => string | undefined): StewardError {
  const issues = error.details?.issues;
  if (!Array.isArray(issues)) return error;
  const refused = new Set(issues.map((issue) => (issue !== null && typeof issue === 'object' ? (issue as { path?: unknown }).path : undefined)).filter((path): path is string => typeof path === 'string'));
  const clauses = error.message.split(CLAUSE).map((clause) => {
    const field = LEAD.exec(clause)?.[1];
    const name = field !== undefined && refused.has(field) ? nameOf(field) : undefined;
    return name === undefined ? clause : `${name}${clause.slice(field!.length)}`;
  });
  const message = clauses.join(CLAUSE);
  return message === error.message ? error : new StewardError(error.code, message, error.details);
}
