// @ts-check
// The house rules of core/, as an ESLint rule: rooms meet only at their index.ts, and no import runs up a layer.
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * The layer order of DESIGN.md, lowest first. A room may import rooms on its own layer or below;
 * core.ts stands with `app`, and core/index.ts (the face electron/ imports) above everything.
 */
export const LAYERS = [
  ['api'],
  ['store', 'config', 'log', 'secrets'],
  ['transcripts', 'gateway', 'projects'],
  ['backfill', 'capture', 'history'],
  ['sweeper', 'maintenance'],
  ['app', '(core)'],
  ['server', 'cli', 'mcp'],
  ['(entry)'],
];

const layerOf = new Map(LAYERS.flatMap((rooms, layer) => rooms.map((room) => [room, layer])));

/** `core/<room>/…` → room; core/index.ts → `(entry)`; another file directly in core/ → `(core)`; outside core/ → null. */
function roomOf(coreDir, file) {
  const rel = relative(coreDir, file);
  if (rel.startsWith('..') || rel === '') return null;
  const parts = rel.split(sep);
  if (parts.length > 1) return parts[0];
  return /^index\.(ts|js)$/.test(rel) ? '(entry)' : '(core)';
}

/** The nearest folder at or above `dir` (inside core/) that has an index.ts: the room or sub-room owning it. */
function owningRoom(coreDir, dir) {
  for (let d = dir; d.startsWith(coreDir); d = dirname(d)) {
    if (existsSync(join(d, 'index.ts'))) return d;
    if (d === coreDir) break;
  }
  return coreDir;
}

const isWithin = (dir, ancestor) => dir === ancestor || dir.startsWith(ancestor + sep);

/** @type {import('eslint').Rule.RuleModule} */
const roomBorders = {
  meta: {
    type: 'problem',
    docs: { description: "core/'s rooms import each other only through index.ts, and never a room on a higher layer" },
    schema: [],
    messages: {
      deep: "'{{source}}' reaches inside the room {{room}}; import its index.ts instead.",
      up: "The room {{from}} (layer {{fromLayer}}) may not import {{to}} (layer {{toLayer}}): imports run down the layers (DESIGN.md).",
      undeclared: "The room {{room}} has no layer: declare it in eslint.rooms.js's LAYERS.",
    },
  },
  create(context) {
    const file = context.filename;
    const coreDir = resolve(context.cwd, 'core');
    const from = roomOf(coreDir, file);
    if (from === null) return {};
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = resolve(dirname(file), source);
      const to = roomOf(coreDir, target);
      if (to === null) return;
      const owner = owningRoom(coreDir, dirname(target));
      const atIndex = target === join(owner, 'index.js') || target === join(owner, 'index.ts');
      if (!isWithin(dirname(file), owner) && !atIndex) {
        context.report({ node, messageId: 'deep', data: { source, room: relative(coreDir, owner) || 'core' } });
      }
      for (const room of [from, to]) if (!layerOf.has(room)) return context.report({ node, messageId: 'undeclared', data: { room } });
      const fromLayer = layerOf.get(from) ?? 0;
      const toLayer = layerOf.get(to) ?? 0;
      if (toLayer > fromLayer) context.report({ node, messageId: 'up', data: { from, to, fromLayer: String(fromLayer), toLayer: String(toLayer) } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

export default { rules: { 'room-borders': roomBorders } };
