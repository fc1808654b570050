import type { z } from 'zod';
import { isMethodName, methods, type MethodName, type ParsedParams, type Result } from './contract.js';
import { StewardError, toStewardError } from './errors.js';
import { paramsWords } from './params-words.js';

/** Where a call came from; handlers may use it for auditing, never for authorisation shortcuts. */
export interface CallContext {
  transport: 'ipc' | 'http' | 'in-process' | 'mcp';
}

export type Handler<M extends MethodName> = (params: ParsedParams<M>, ctx: CallContext) => Promise<Result<M>> | Result<M>;

/** Every method must have a handler: adding a method to the contract without one fails type-checking. */
export type Handlers = { [M in MethodName]: Handler<M> };

export interface Dispatcher {
  call(method: string, params: unknown, ctx: CallContext): Promise<unknown>;
}

export function describeZodIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      const where = issue.path.length > 0 ? issue.path.join('.') : '(params)';
      return `${where}: ${issue.message}`;
    })
    .join('; ');
}

/**
 * A refused request, said once for every method: which field is wrong and what it takes, in words (the
 * CLI and the panel show the message as it is). The method and zod's issues are in the details, for
 * scripts (`--json`, the JSON-RPC error's data), never in the words.
 */
function invalidParams(method: MethodName, error: z.ZodError, params: unknown): StewardError {
  const issues = error.issues.slice(0, 20).map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
  return new StewardError('invalid_params', paramsWords(error.issues, params), { method, issues });
}

/**
 * Validates params at the boundary, runs the handler, and checks the result against the contract so
 * that no transport can ever hand out a shape the contract does not declare. An internal error (a bug,
 * never a refusal) is told to `onInternal` with what was thrown, for the owner's log: its caller sees
 * only "Internal error".
 */
export function createDispatcher(handlers: Handlers, onInternal?: (method: MethodName, error: unknown) => void): Dispatcher {
  return {
    async call(method, params, ctx) {
      if (!isMethodName(method)) throw new StewardError('method_not_found', `Unknown method ${JSON.stringify(method).slice(0, 80)}`);
      const spec = methods[method];
      const parsed = spec.params.safeParse(params ?? {});
      if (!parsed.success) throw invalidParams(method, parsed.error, params);
      try {
        const handler = handlers[method] as (p: unknown, c: CallContext) => Promise<unknown> | unknown;
        const result = await handler(parsed.data, ctx);
        const checked = spec.result.safeParse(result);
        if (!checked.success) throw new StewardError('internal', `Result of ${method} broke the contract: ${describeZodIssues(checked.error)}`);
        return checked.data as Result<typeof method>;
      } catch (error) {
        const typed = toStewardError(error);
        if (typed.code === 'internal') onInternal?.(method, error);
        throw typed;
      }
    },
  };
}
