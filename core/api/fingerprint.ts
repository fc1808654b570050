import type { z } from 'zod';
import { methods } from './contract.js';

/**
 * What a params schema accepts, as text: its keys (nested), the words an enum or a literal takes, and
 * the kind of each value. Just what a strict schema refuses a call over (an unknown key, a new word);
 * descriptions and bounds are left out, so rewording a comment is not another contract. Read off zod's
 * own definitions: z.toJSONSchema says the same at about 2 ms a method, too slow for one answer.
 */
function shapeOf(schema: z.core.$ZodType): string {
  const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
  const inner = (key: string) => shapeOf(def[key] as z.core.$ZodType);
  switch (def.type) {
    case 'object': {
      const shape = def.shape as Record<string, z.core.$ZodType>;
      return `{${Object.keys(shape)
        .sort()
        .map((key) => `${key}:${shapeOf(shape[key]!)}`)
        .join(',')}}`;
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      return `${def.type}(${inner('innerType')})`;
    case 'array':
      return `[${inner('element')}]`;
    case 'pipe':
      // What a caller sends is what the pipe takes in.
      return inner('in');
    case 'record':
      return `record(${inner('keyType')},${inner('valueType')})`;
    case 'union':
      return `(${(def.options as z.core.$ZodType[]).map(shapeOf).join('|')})`;
    case 'intersection':
      return `(${inner('left')}&${inner('right')})`;
    case 'tuple':
      return `tuple(${(def.items as z.core.$ZodType[]).map(shapeOf).join(',')})`;
    case 'enum':
      return JSON.stringify(Object.values(def.entries as Record<string, unknown>));
    case 'literal':
      return JSON.stringify(def.values);
    default:
      // A string, a number, a lazy or custom schema: its kind is enough.
      return def.type;
  }
}

/** FNV-1a over UTF-16 units: a short name for a long text, not a secret (core/api may not use node:crypto). */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, '0');
}

let cached: string | undefined;

/**
 * The contract's fingerprint: eight hex digits over every method's name and what its params accept.
 * Two builds of one package version can differ in contract (a key added between releases); App.Info
 * says this, so a client refused by an owner of another build can tell the person to restart it.
 */
export function contractFingerprint(): string {
  cached ??= fnv1a(
    Object.entries(methods)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([name, spec]) => `${name}${shapeOf(spec.params as z.core.$ZodType)}`)
      .join('\n'),
  );
  return cached;
}
