import { z } from 'zod';
import { StewardError, toStewardError } from '../api/index.js';

/**
 * A tool's structured answer checked against its declared shape before it leaves, as the SDK checks an
 * advertised outputSchema: strict shapes refuse a field the contract does not declare (a path, a
 * snapshot). The shapes are not advertised in tools/list: every agent session loads that list, and
 * the output schemas were two thirds of it (maintenance_status's alone 8.5 KB of 10 KB), while an agent
 * calls a tool by its arguments and reads the answer's text and fields as they come.
 */
export function checkedAnswer<A extends unknown[], R extends { isError?: boolean; structuredContent?: Record<string, unknown> }>(
  tool: string,
  shape: z.ZodType | z.ZodRawShape,
  handler: (...args: A) => Promise<R>,
): (...args: A) => Promise<R> {
  const schema = shape instanceof z.ZodType ? shape : z.object(shape);
  return async (...args) => {
    const result = await handler(...args);
    if (result.isError || result.structuredContent === undefined) return result;
    const checked = schema.safeParse(result.structuredContent);
    // The SDK's own words for an answer off its schema: the issues name fields and types, never values.
    if (!checked.success) throw new StewardError('internal', `Output validation error: Invalid structured content for tool ${tool}: ${checked.error.message}`);
    return result;
  };
}

/**
 * What an agent reads of any tool's failure: the contract's code first, as JSON-RPC's `error.data.code`
 * carries it (an agent branches on `not_found:` or `invalid_params:`), then its words, and the remedy
 * where the error names one. A foreign error says only `internal` (see toStewardError).
 */
export function toolErrorText(error: unknown): string {
  const typed = toStewardError(error);
  const remedy = typeof typed.details?.remediation === 'string' ? ` ${typed.details.remediation}` : '';
  return `${typed.code}: ${typed.message}${remedy}`;
}

/** A tool's failure as its answer (isError), in the words toolErrorText gives it. */
export function toolError(error: unknown) {
  return { isError: true as const, content: [{ type: 'text' as const, text: toolErrorText(error) }] };
}
