import { McpServer, type RegisteredTool, type ToolCallback } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { AnySchema, ZodRawShapeCompat } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import { toJsonSchemaCompat } from '@modelcontextprotocol/sdk/server/zod-json-schema-compat.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Implementation, type Tool, type ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { paramsWords, StewardError } from '../api/index.js';
import { toolError } from './answers.js';

/** A tool's handler as registerTool takes it: (arguments, extra). */
type ToolHandler = (...args: unknown[]) => CallToolResult | Promise<CallToolResult>;

/**
 * What a room declares of a tool. Its arguments are required (a tool without them would take any);
 * there is no outputSchema: answers are checked by checkedAnswer and not advertised (see answers.ts).
 */
export interface ToolConfig<Input extends ZodRawShapeCompat | AnySchema> {
  title?: string;
  description?: string;
  inputSchema: Input;
  annotations?: ToolAnnotations;
  _meta?: Record<string, unknown>;
}

/** A tool as Steward answers a call of it: the SDK's record (listed, enabled), its strict arguments, its typed handler. */
interface StewardTool {
  registered: RegisteredTool;
  input: z.ZodObject;
  run: ToolHandler;
}

/**
 * The annotations of a tool that only reads Steward's own stores. MCP reads idempotentHint and
 * destructiveHint only of a tool that writes, so a read tool leaves them out.
 */
export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };

/** The tools of each server made by stewardMcpServer, by name, as its tools/call handler finds them. */
const TOOLS = new WeakMap<McpServer, Map<string, StewardTool>>();

/**
 * A tool's arguments as a strict object, whichever way its room declared them (a raw shape, which the
 * SDK would make a stripping z.object, or an object schema): an argument the tool does not take (a
 * misspelt `projct_key`) is refused, never ignored as though the call had not named it. The strict
 * schema is also what tools/list advertises (`additionalProperties: false`).
 */
function strictInput(schema: ZodRawShapeCompat | AnySchema): z.ZodObject {
  if (schema instanceof z.ZodObject) return schema.strict();
  if (schema instanceof z.ZodType) throw new Error('A tool takes an object of named arguments');
  return z.strictObject(schema as z.ZodRawShape);
}

/** The SDK answers a handler's throw with its message alone, which drops a StewardError's code. */
function typedErrors(handler: ToolHandler): ToolHandler {
  return async (...args) => {
    try {
      return await handler(...args);
    } catch (error) {
      return toolError(error);
    }
  };
}

/**
 * Every Steward tool is registered here, so every one obeys one rule: strict arguments (strictInput)
 * and typed errors (typedErrors). It registers through the SDK's registerTool as documented; on a server
 * from stewardMcpServer it is listed by answerToolLists and its calls are answered by answerToolCalls.
 * It returns nothing: a Steward tool is fixed once registered. The SDK's RegisteredTool could rename,
 * remove or re-handle it, and answerToolCalls, which holds the tool as registered, would not follow.
 */
export function defineTool<Input extends ZodRawShapeCompat | AnySchema>(server: McpServer, name: string, config: ToolConfig<Input>, handler: ToolCallback<Input>): void {
  const input = strictInput(config.inputSchema);
  const run = typedErrors(handler as ToolHandler);
  const registered = server.registerTool(name, { ...config, inputSchema: input }, run as ToolCallback<typeof input>);
  TOOLS.get(server)?.set(name, { registered, input, run });
}

/** Made at first use: the first Intl object of a process loads ICU's data (about 25 ms), and most servers never refuse a tool. */
let andList: Intl.ListFormat | undefined;

/** A call of a tool this server does not have, refused as any tool's error is, with the names it does have. */
function unknownTool(name: string, tools: ReadonlyMap<string, StewardTool>): StewardError {
  const names = [...tools].filter(([, tool]) => tool.registered.enabled).map(([known]) => known);
  return new StewardError('method_not_found', `Steward has no tool named ${JSON.stringify(name)}; its tools are ${(andList ??= new Intl.ListFormat('en-GB', { type: 'conjunction' })).format(names)}`);
}

/**
 * Steward answers tools/call itself, through the low-level Server's public setRequestHandler, so that
 * every refusal is a typed tool error: an unknown tool (the SDK's is "MCP error -32602: Tool x not
 * found") and arguments off the schema, said as JSON-RPC says a refused request ("limit must be at
 * least 1", paramsWords) rather than in zod's words. A valid call runs as the SDK runs it: the parsed
 * arguments and the request's extra, to the tool's handler.
 */
function answerToolCalls(server: McpServer, tools: ReadonlyMap<string, StewardTool>): void {
  server.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args = {} } = request.params;
    const tool = tools.get(name);
    if (!tool?.registered.enabled) return toolError(unknownTool(name, tools));
    const parsed = await tool.input.safeParseAsync(args);
    if (!parsed.success) return toolError(new StewardError('invalid_params', `Input validation error: Invalid arguments for tool ${name}: ${paramsWords(parsed.error.issues, args)}`));
    return tool.run(parsed.data, extra);
  });
}

/**
 * A tool as tools/list gives it: the SDK's listing of it (its JSON Schema made as the SDK makes it)
 * without what tells an agent nothing, since every agent session pays for tools/list in its context
 * (tools-list-budget): `$schema` (draft-07, which reads these schemas' keywords as 2020-12 does, MCP's
 * reading of a schema that names none), `execution` (taskSupport forbidden, what MCP reads where it is
 * absent) and each argument's guards against runaway input (leanArgument). `additionalProperties: false`
 * stays (about 30 characters a tool): the listing then names every argument a call may pass, and
 * clients that hold tools to strict schemas need it.
 */
function listed(name: string, { registered, input }: StewardTool): Tool {
  const { $schema: _draft, properties, ...schema } = toJsonSchemaCompat(input, { strictUnions: true, pipeStrategy: 'input' });
  const args = Object.fromEntries(Object.entries((properties ?? {}) as Record<string, Record<string, unknown>>).map(([arg, s]) => [arg, leanArgument(s)]));
  const { title, description, annotations, _meta } = registered;
  return { name, title, description, inputSchema: { ...schema, type: 'object', properties: args }, annotations, ...(_meta ? { _meta } : {}) };
}

/**
 * Keywords of an argument's schema left out of tools/list. A string's or a list's length and a string's
 * pattern guard against runaway or hostile input, not an honest call: its description says the shape in
 * words ("OWNER/NAME"), and a call past one is refused saying what was expected (paramsWords). A number's
 * bounds stay: they are the page sizes an agent chooses within.
 */
const GUARDS = new Set(['pattern', 'minLength', 'maxLength', 'minItems', 'maxItems']);

/** An argument as listed: without GUARDS (in a list's items too), and without zod's safe-integer bounds, which no one set. */
function leanArgument(schema: Record<string, unknown>): Record<string, unknown> {
  const kept = Object.entries(schema).filter(([key, value]) => !GUARDS.has(key) && !(key === 'minimum' && value === Number.MIN_SAFE_INTEGER) && !(key === 'maximum' && value === Number.MAX_SAFE_INTEGER));
  return Object.fromEntries(kept.map(([key, value]) => [key, key === 'items' && typeof value === 'object' && value !== null ? leanArgument(value as Record<string, unknown>) : value]));
}

/** Steward answers tools/list itself, as it answers tools/call, from the tools defineTool registered (see listed). */
function answerToolLists(server: McpServer, tools: ReadonlyMap<string, StewardTool>): void {
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...tools].filter(([, tool]) => tool.registered.enabled).map(([name, tool]) => listed(name, tool)) }));
}

/**
 * An McpServer whose tools Steward lists and whose tool calls it answers. Declaring the tools capability makes the SDK set its
 * own tools/list and tools/call handlers now (its documented way to register tools after connect), so
 * Steward's handlers replace the SDK's once, before any tool is registered; were a future
 * SDK to set its handler later, its own check would throw when the first tool is registered (at startup,
 * never at a call).
 */
export function stewardMcpServer(info: Implementation): McpServer {
  const server = new McpServer(info, { capabilities: { tools: { listChanged: true } } });
  const tools = new Map<string, StewardTool>();
  TOOLS.set(server, tools);
  answerToolLists(server, tools);
  answerToolCalls(server, tools);
  return server;
}
