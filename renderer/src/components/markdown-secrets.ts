import { SECRET_LABEL } from './SecretText.js';

/** The little of mdast this needs: nodes, their text and where they stand in the Markdown. */
interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
  position?: { start: { offset?: number }; end: { offset?: number } };
  data?: Record<string, unknown>;
}

type Range = readonly [number, number];
type HastNode = { type: 'text'; value: string } | { type: 'element'; tagName: string; properties: Record<string, unknown>; children: HastNode[] };

const hastText = (value: string): HastNode => ({ type: 'text', value });
const hastElement = (tagName: string, children: HastNode[], className?: string[]): HastNode => ({ type: 'element', tagName, properties: className ? { className } : {}, children });

/** SecretMark's markup (SecretText.tsx), built where Markdown turns into HTML: `tagName` a block for a code block. */
function secretNode(content: HastNode[], tagName = 'mark'): MdNode {
  const label = hastElement('span', [hastText(`${SECRET_LABEL}: `)], ['visually-hidden', 'secret-mark__label']);
  const className = tagName === 'mark' ? ['secret-mark'] : ['secret-mark', 'secret-mark--block'];
  return { type: 'secretMark', data: { hName: tagName, hProperties: { className }, hChildren: [label, ...content] } };
}

/** A text split into its words and its marked secrets; offsets are the Markdown's. */
function splitText(value: string, start: number, ranges: readonly Range[]): MdNode[] {
  const out: MdNode[] = [];
  let at = start;
  for (const [a, b] of ranges) {
    const from = Math.max(a, at);
    const to = Math.min(b, start + value.length);
    if (to <= from) continue;
    if (from > at) out.push({ type: 'text', value: value.slice(at - start, from - start) });
    out.push(secretNode([hastText(value.slice(from - start, to - start))]));
    at = to;
  }
  if (at < start + value.length) out.push({ type: 'text', value: value.slice(at - start) });
  return out;
}

function marked(node: MdNode, source: string, ranges: readonly Range[]): MdNode[] {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  if (start === undefined || end === undefined || !ranges.some(([a, b]) => a < end && b > start)) {
    if (node.children) node.children = node.children.flatMap((child) => marked(child, source, ranges));
    return [node];
  }
  const value = node.value ?? '';
  // Text that reads as its source (no escapes or entities in it) is marked to the character; else whole.
  if (node.type === 'text') return value === source.slice(start, end) ? splitText(value, start, ranges) : [secretNode([hastText(value)])];
  if (node.type === 'inlineCode') return [secretNode([hastElement('code', [hastText(value)])])];
  if (node.type === 'code') return [secretNode([hastElement('pre', [hastElement('code', [hastText(value)])])], 'div')];
  if (node.children) node.children = node.children.flatMap((child) => marked(child, source, ranges));
  return [node];
}

/** A remark plugin marking the secrets at `ranges`, [start, end) offsets into `source`, the Markdown shown. */
export function markSecrets(source: string, ranges: readonly Range[]) {
  return () => (tree: MdNode) => {
    tree.children = tree.children?.flatMap((child) => marked(child, source, ranges));
  };
}
