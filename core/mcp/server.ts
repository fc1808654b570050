import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ErrorCode, McpError, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Readable, Writable } from 'node:stream';
import { z } from 'zod';
import { paramsWords, StewardError, toStewardError } from '../api/index.js';
import { toolError, toolErrorText } from './answers.js';
import { resolveHome, stewardVersion } from '../config/index.js';
import { registerHistoryTools } from './history.js';
import { userHomeDir } from '../projects/index.js';
import { registerMaintenanceTools } from './maintenance.js';
import { registerProjectTools, type WithClient } from './projects.js';
import { registerSetupTools, type PlanHere } from './setup.js';
import { registerRepositoryTools } from './repository.js';

/**
 * Steward's MCP server. Each tool reaches the owner through `withClient` (the running app or daemon,
 * or the stores in-process for the length of one call), so an agent session never holds the lock.
 * Other rooms add their tools beside registerProjectTools.
 */
export function createMcpServer(reach: WithClient, options: { home?: string; stewardHome?: string; planHere?: PlanHere } = {}): McpServer {
  const server = new McpServer({ name: 'steward', version: stewardVersion() });
  oneRuleForEveryTool(server);
  refuseArgumentsInWords(server);
  const withClient = agentSafe(reach);
  // `home` is the user's home folder, which never stands for a project (tests pass their own).
  // `stewardHome` is where the notes live, read as the session-start hook reads them.
  registerProjectTools(server, withClient, { home: options.home ?? userHomeDir(), stewardHome: options.stewardHome ?? resolveHome().dir });
  registerMaintenanceTools(server, withClient);
  registerSetupTools(server, withClient, options.planHere);
  registerRepositoryTools(server, withClient);
  registerHistoryTools(server, withClient);
  return server;
}

/**
 * The SDK hands a thrown error's message to the agent as it is, and a foreign one (a filesystem or
 * SQLite error) can name Steward's files; only the contract's own errors keep their words.
 */
function agentSafe(reach: WithClient): WithClient {
  return async (use) => {
    try {
      return await reach(use);
    } catch (error) {
      throw toStewardError(error);
    }
  };
}

/** A tool's handler as registerTool takes it: (arguments, extra), or (extra) for a tool with no input schema. */
type ToolHandler = (...args: unknown[]) => unknown;
type RegisterTool = (name: string, config: { inputSchema?: unknown }, handler: ToolHandler) => unknown;

/**
 * A tool's arguments as a strict object, whichever way its room declared them (a raw shape, which the
 * SDK would make a stripping z.object, or an object schema): an argument the tool does not take (a
 * misspelt `projct_key`) is refused, never ignored as though the call had not named it. The strict
 * schema is also what tools/list advertises (`additionalProperties: false`).
 */
function strictInput(schema: unknown): unknown {
  if (schema === undefined) return undefined;
  if (schema instanceof z.ZodObject) return schema.strict();
  if (schema instanceof z.ZodType) throw new Error('A tool takes an object of named arguments');
  return z.strictObject(schema as z.ZodRawShape);
}

/**
 * The SDK answers a handler's throw with its message alone, which drops a StewardError's code; so
 * every handler's failure is answered here, in the one form toolErrorText gives it. The protocol's
 * own errors (McpError) pass to the SDK as they are.
 */
function typedErrors(handler: ToolHandler): ToolHandler {
  return async (...args) => {
    try {
      return await handler(...args);
    } catch (error) {
      if (error instanceof McpError) throw error;
      return toolError(error);
    }
  };
}

/**
 * What every tool obeys, set once for all of them before any room registers its tools: strict
 * arguments (strictInput) and typed errors (typedErrors). A room registers with server.registerTool
 * as the SDK documents it and cannot opt out.
 */
function oneRuleForEveryTool(server: McpServer): void {
  const register = server.registerTool.bind(server) as RegisterTool;
  const everyTool: RegisterTool = (name, config, handler) => register(name, { ...config, inputSchema: strictInput(config.inputSchema) }, typedErrors(handler));
  server.registerTool = everyTool as typeof server.registerTool;
}

/** The SDK's check of a tool call's arguments, before the tool runs (a private method of McpServer's). */
type ValidateToolInput = (tool: { inputSchema?: z.ZodType }, args: unknown, toolName: string) => Promise<unknown>;

/**
 * The SDK refuses a tool's arguments in zod's own words ("Too small: expected number to be >=1 at
 * limit") and with its own framing ("MCP error -32602: …"); every tool's are said here instead as
 * JSON-RPC says a refused request ("limit must be at least 1"), in the form of every other tool error
 * (`invalid_params: …`, toolErrorText). Its own check still runs first (its bound on the arguments'
 * size, how it reads a schema); only the words of a refusal change. The SDK has no hook for this, so
 * its method is wrapped: an SDK without it fails the tests of these words, never the calls.
 */
function refuseArgumentsInWords(server: McpServer): void {
  const sdk = server as unknown as { validateToolInput?: ValidateToolInput };
  const validate = sdk.validateToolInput?.bind(server);
  if (!validate) return;
  sdk.validateToolInput = async (tool, args, toolName) => {
    try {
      return await validate(tool, args, toolName);
    } catch (error) {
      if (!(error instanceof McpError && error.code === ErrorCode.InvalidParams)) throw error;
      const parsed = await tool.inputSchema?.safeParseAsync(args ?? {});
      // A refusal the schema does not make (the SDK's bound on the arguments' size) keeps its own words.
      const words = parsed && !parsed.success ? `Input validation error: Invalid arguments for tool ${toolName}: ${paramsWords(parsed.error.issues, args ?? {})}` : error.message.replace(/^MCP error -?\d+: /, '');
      // The SDK answers what this throws with its message alone: the message is the whole answer.
      throw new Error(toolErrorText(new StewardError('invalid_params', words)), { cause: error });
    }
  };
}

/** JSON-RPC's answers to a line that is not a request: no id can be read from it, so the id is null. */
const PARSE_ERROR = { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } };
const INVALID_REQUEST = { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request' } };

/**
 * The SDK's stdio transport hands a line it cannot read to `onerror` and drops it, so a client that sent
 * a cut-off object waits forever. JSON-RPC answers it: a parse error (not JSON) or an invalid request
 * (JSON, but no JSON-RPC message). Set before connect, which chains the protocol's own handler after it
 * (a line can arrive as soon as the transport starts); the next line is read as usual.
 */
function answerUnreadableLines(transport: StdioServerTransport): void {
  transport.onerror = (error) => {
    const answer = error instanceof SyntaxError ? PARSE_ERROR : error.name === 'ZodError' ? INVALID_REQUEST : null;
    // Typed as the SDK's messages, whose ids are never null: this answer is the one JSON-RPC gives an unknown id.
    if (answer) void transport.send(answer as unknown as JSONRPCMessage);
  };
}

/** Serves on stdio until the client closes the pipe. stdout is the protocol: nothing else writes there. */
export async function serveStdio(server: McpServer, streams: { stdin?: Readable; stdout?: Writable } = {}): Promise<void> {
  const stdin = streams.stdin ?? process.stdin;
  const transport = new StdioServerTransport(stdin, streams.stdout ?? process.stdout);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    stdin.once('end', () => resolve());
  });
  answerUnreadableLines(transport);
  await server.connect(transport);
  await closed;
  await server.close();
}
