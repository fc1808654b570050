import type { z } from 'zod';
import { ConfigSchema } from './schema.js';

/** Why one field was refused, in words, with the bounds a form needs to say it in its own unit. */
export interface FieldProblem {
  message: string;
  minimum?: number;
  maximum?: number;
}

/** A type a field takes, as a person reads it after "must be" (zod's names would say "a array"). */
const TYPE_WORDS: Readonly<Record<string, string>> = { int: 'a whole number', array: 'an array', object: 'an object', boolean: 'true or false' };

export function problemOf(issue: z.core.$ZodIssue): FieldProblem {
  if (issue.code === 'too_small' && typeof issue.minimum === 'number') return { message: issue.origin === 'array' ? `needs at least ${issue.minimum}` : issue.origin === 'string' ? 'cannot be empty' : `must be at least ${issue.minimum}`, minimum: issue.minimum };
  if (issue.code === 'too_big' && typeof issue.maximum === 'number') return { message: issue.origin === 'array' ? `holds at most ${issue.maximum}` : `must be at most ${issue.maximum}`, maximum: issue.maximum };
  if (issue.code === 'invalid_type') return { message: `must be ${TYPE_WORDS[issue.expected] ?? `a ${issue.expected}`}` };
  if (issue.code === 'invalid_format' && issue.format === 'url') return { message: 'must be a URL that starts with http:// or https://' };
  if (issue.code === 'invalid_value') return { message: `must be one of ${issue.values.map(String).join(', ')}` };
  if (issue.code === 'unrecognized_keys') return { message: `is not a setting Steward knows (${issue.keys.join(', ')})` };
  return { message: issue.message };
}

/** Every problem by its dotted key, so a form can show each one next to its field. */
export function fieldProblems(raw: unknown): Record<string, FieldProblem> {
  const result = ConfigSchema.safeParse(raw);
  if (result.success) return {};
  const out: Record<string, FieldProblem> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.map(String).join('.') || '(root)';
    const problem = problemOf(issue);
    const before = out[key];
    out[key] = before === undefined ? problem : stricter(before, problem);
  }
  return out;
}

/**
 * Of two problems with one field, the one to say. The schema gives each field one least and one most
 * (schema.ts, `ms`), so two bounds should not both fail; if a field ever had two leasts, the larger is
 * the one a value must meet, not a least that the value at it fails too.
 */
function stricter(before: FieldProblem, next: FieldProblem): FieldProblem {
  if (before.minimum !== undefined && next.minimum !== undefined) return next.minimum > before.minimum ? next : before;
  if (before.maximum !== undefined && next.maximum !== undefined) return next.maximum < before.maximum ? next : before;
  return before;
}

