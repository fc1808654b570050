import { z } from 'zod';

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
    if (!checked.success) throw new Error(`Output validation error: Invalid structured content for tool ${tool}: ${checked.error.message}`);
    return result;
  };
}
