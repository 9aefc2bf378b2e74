/**
 * mdast ⇄ ProseMirror JSON (Tiptap's document format) for the visual mode. Plain TypeScript.
 *
 * A block converts to rich-text nodes only when every part of it has a visual form; anything
 * else (inline JSX, expressions, HTML, footnotes, tables, task lists, unknown components) becomes
 * a `rawBlock` holding its MDX verbatim, so nothing the visual schema cannot express is ever
 * re-serialized from a lossy form.
 */
import type { RootContent, PhrasingContent, BlockContent, DefinitionContent, ListItem } from 'mdast';
import type { MdxJsxAttribute, MdxJsxExpressionAttribute, MdxJsxFlowElement } from 'mdast-util-mdx-jsx';

export interface PmMark {
  type: string;
  attrs?: Record<string, unknown>;
}
export interface PmNode {
  type: string;
  attrs?: Record<string, unknown>;
  content?: PmNode[];
  marks?: PmMark[];
  text?: string;
}

/** Components the visual mode edits as nodes with editable children and attribute fields. */
export const VISUAL_COMPONENTS = [
  'Note', 'Warning', 'Info', 'Tip', 'Check', 'Danger', 'Callout',
  'Card', 'CardGroup', 'Columns',
  'Tabs', 'Tab',
  'Steps', 'Step',
  'Accordion', 'AccordionGroup', 'Expandable',
] as const;
const VISUAL_COMPONENT_SET = new Set<string>(VISUAL_COMPONENTS);

/** The callouts the toolbar can insert. */
export const CALLOUTS = ['Note', 'Warning', 'Info', 'Tip', 'Check', 'Danger'] as const;

class Unsupported extends Error {}

/**
 * Convert a block to PM JSON. `sliceOf` gives a node's source text (used for raw children);
 * a block with no visual form comes back as a rawBlock of its source.
 */
export function blockToPm(node: RootContent, sliceOf: (n: RootContent) => string): PmNode {
  try {
    return convertBlock(node, sliceOf);
  } catch (err) {
    if (err instanceof Unsupported) return rawBlock(sliceOf(node), node.type);
    throw err;
  }
}

export function rawBlock(text: string, label: string): PmNode {
  return { type: 'rawBlock', attrs: { text, label } };
}

function convertBlock(node: RootContent, sliceOf: (n: RootContent) => string): PmNode {
  switch (node.type) {
    case 'paragraph':
      return withContent({ type: 'paragraph' }, inlineToPm(node.children, []));
    case 'heading':
      return withContent({ type: 'heading', attrs: { level: node.depth } }, inlineToPm(node.children, []));
    case 'thematicBreak':
      return { type: 'horizontalRule' };
    case 'code':
      return withContent(
        { type: 'codeBlock', attrs: { language: node.lang ?? null, meta: node.meta ?? null } },
        node.value ? [{ type: 'text', text: node.value }] : [],
      );
    case 'blockquote':
      if (node.children.length === 0) throw new Unsupported();
      return { type: 'blockquote', content: node.children.map((c) => childToPm(c, sliceOf)) };
    case 'list':
      return {
        type: node.ordered ? 'orderedList' : 'bulletList',
        attrs: node.ordered ? { start: node.start ?? 1, spread: !!node.spread } : { spread: !!node.spread },
        content: node.children.map((item) => listItemToPm(item, sliceOf)),
      };
    case 'mdxJsxFlowElement':
      if (!node.name || !VISUAL_COMPONENT_SET.has(node.name)) throw new Unsupported();
      return withContent(
        { type: 'mdxComponent', attrs: { name: node.name, attributes: node.attributes.map(cleanAttribute) } },
        node.children.map((c) => childToPm(c as RootContent, sliceOf)),
      );
    default:
      throw new Unsupported();
  }
}

/** A child inside a container: converted if it can be, else a raw block of its (dedented) source. */
function childToPm(node: RootContent, sliceOf: (n: RootContent) => string): PmNode {
  return blockToPm(node, sliceOf);
}

function listItemToPm(item: ListItem, sliceOf: (n: RootContent) => string): PmNode {
  // Task-list items and items not opening with a paragraph have no form in the list schema.
  if (item.checked !== null && item.checked !== undefined) throw new Unsupported();
  const [first, ...rest] = item.children;
  if (!first || first.type !== 'paragraph') throw new Unsupported();
  return {
    type: 'listItem',
    attrs: { spread: !!item.spread },
    content: [convertBlock(first, sliceOf), ...rest.map((c) => childToPm(c, sliceOf))],
  };
}

function inlineToPm(nodes: PhrasingContent[], marks: PmMark[]): PmNode[] {
  const out: PmNode[] = [];
  for (const node of nodes) {
    switch (node.type) {
      case 'text':
        if (node.value) out.push(textNode(node.value, marks));
        break;
      case 'inlineCode':
        out.push(textNode(node.value, [...marks, { type: 'code' }]));
        break;
      case 'strong':
        out.push(...inlineToPm(node.children, [...marks, { type: 'bold' }]));
        break;
      case 'emphasis':
        out.push(...inlineToPm(node.children, [...marks, { type: 'italic' }]));
        break;
      case 'delete':
        out.push(...inlineToPm(node.children, [...marks, { type: 'strike' }]));
        break;
      case 'link':
        if (marks.some((m) => m.type === 'link')) throw new Unsupported();
        out.push(...inlineToPm(node.children, [...marks, { type: 'link', attrs: { href: node.url, title: node.title ?? null } }]));
        break;
      case 'break':
        out.push({ type: 'hardBreak' });
        break;
      case 'image':
        if (marks.length > 0) throw new Unsupported();
        out.push({ type: 'image', attrs: { src: node.url, alt: node.alt ?? null, title: node.title ?? null } });
        break;
      default:
        throw new Unsupported();
    }
  }
  return out;
}

function textNode(text: string, marks: PmMark[]): PmNode {
  // A code mark with other marks inside it cannot come back out of mdast (inlineCode is a leaf).
  return marks.length ? { type: 'text', text, marks: marks.map((m) => ({ ...m })) } : { type: 'text', text };
}

function withContent(node: PmNode, content: PmNode[]): PmNode {
  return content.length ? { ...node, content } : node;
}

/** Attribute JSON without positions (positions would make an untouched node compare unequal). */
function cleanAttribute(attr: MdxJsxAttribute | MdxJsxExpressionAttribute): Record<string, unknown> {
  if (attr.type === 'mdxJsxExpressionAttribute') return { type: attr.type, value: attr.value };
  if (attr.value && typeof attr.value === 'object') {
    return { type: attr.type, name: attr.name, value: { type: attr.value.type, value: attr.value.value } };
  }
  return { type: attr.type, name: attr.name, value: attr.value ?? null };
}

// ---------------------------------------------------------------------------------------------
// PM JSON → mdast (an edited block, to be serialized by mdast-util-to-markdown)

/** PM JSON → mdast. A raw block inside a container comes back as the MDX nodes its text parses to. */
export function pmToMdast(node: PmNode): RootContent {
  return pmToMdastNodes(node)[0] ?? { type: 'html', value: '' };
}

/** Children: a raw child can stand for several mdast nodes (or none, if emptied). */
function childrenToMdast(nodes: PmNode[]): RootContent[] {
  return nodes.flatMap(pmToMdastNodes);
}

/** Set by document.ts: the MDX parser (kept out of this module's imports to keep it a pure mapping). */
let parseRaw: ((text: string) => RootContent[] | undefined) | undefined;
export function setRawParser(parser: (text: string) => RootContent[] | undefined): void {
  parseRaw = parser;
}

function pmToMdastNodes(node: PmNode): RootContent[] {
  if (node.type === 'rawBlock') {
    const text = String(node.attrs?.text ?? '');
    // Re-parsed, so to-markdown joins it like the construct it is; text that no longer parses
    // is kept verbatim (`html` is the one node to-markdown writes out untouched).
    return parseRaw?.(text) ?? [{ type: 'html', value: text }];
  }
  return [pmNodeToMdast(node)];
}

function pmNodeToMdast(node: PmNode): RootContent {
  const content = node.content ?? [];
  const attrs = node.attrs ?? {};
  switch (node.type) {
    case 'paragraph':
      return { type: 'paragraph', children: pmInlineToMdast(content) };
    case 'heading':
      return { type: 'heading', depth: clampDepth(attrs.level), children: pmInlineToMdast(content) };
    case 'horizontalRule':
      return { type: 'thematicBreak' };
    case 'codeBlock':
      return {
        type: 'code',
        lang: (attrs.language as string | null) ?? null,
        meta: (attrs.meta as string | null) ?? null,
        value: content.map((c) => c.text ?? '').join(''),
      };
    case 'blockquote':
      return { type: 'blockquote', children: childrenToMdast(content) as (BlockContent | DefinitionContent)[] };
    case 'bulletList':
    case 'orderedList':
      return {
        type: 'list',
        ordered: node.type === 'orderedList',
        start: node.type === 'orderedList' ? Number(attrs.start ?? 1) : null,
        spread: !!attrs.spread,
        children: content.map((item) => ({
          type: 'listItem',
          spread: !!item.attrs?.spread,
          checked: null,
          children: childrenToMdast(item.content ?? []) as (BlockContent | DefinitionContent)[],
        })),
      };
    case 'mdxComponent': {
      const element: MdxJsxFlowElement = {
        type: 'mdxJsxFlowElement',
        name: String(attrs.name),
        attributes: (attrs.attributes as MdxJsxFlowElement['attributes'] | undefined) ?? [],
        children: childrenToMdast(content) as MdxJsxFlowElement['children'],
      };
      return element as unknown as RootContent;
    }
    default:
      return { type: 'html', value: content.map((c) => c.text ?? '').join('') };
  }
}

function clampDepth(level: unknown): 1 | 2 | 3 | 4 | 5 | 6 {
  const n = Math.min(6, Math.max(1, Number(level) || 1));
  return n as 1 | 2 | 3 | 4 | 5 | 6;
}

const MARK_ORDER = ['link', 'bold', 'italic', 'strike', 'code'];

function pmInlineToMdast(nodes: PmNode[]): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  for (const node of nodes) {
    if (node.type === 'hardBreak') {
      out.push({ type: 'break' });
      continue;
    }
    if (node.type === 'image') {
      const a = node.attrs ?? {};
      out.push({ type: 'image', url: String(a.src ?? ''), alt: (a.alt as string | null) ?? null, title: (a.title as string | null) ?? null });
      continue;
    }
    if (node.type !== 'text' || !node.text) continue;
    const marks = [...(node.marks ?? [])].sort((a, b) => MARK_ORDER.indexOf(a.type) - MARK_ORDER.indexOf(b.type));
    let leaf: PhrasingContent = marks.some((m) => m.type === 'code') ? { type: 'inlineCode', value: node.text } : { type: 'text', value: node.text };
    for (const mark of [...marks].reverse()) {
      if (mark.type === 'code') continue;
      leaf = wrap(mark, leaf);
    }
    out.push(leaf);
  }
  return hoistEdgeWhitespace(mergeAdjacent(out));
}

/**
 * `**note **` is not bold in Markdown (to-markdown writes character references instead), so
 * whitespace at the edge of a bold/italic/struck run moves outside the run — after merging, so a
 * run of bold text and bold code stays one run.
 */
function hoistEdgeWhitespace(nodes: PhrasingContent[]): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  for (const node of nodes) {
    if (node.type !== 'strong' && node.type !== 'emphasis' && node.type !== 'delete') {
      if ('children' in node) (node as { children: PhrasingContent[] }).children = hoistEdgeWhitespace(node.children as PhrasingContent[]);
      out.push(node);
      continue;
    }
    node.children = hoistEdgeWhitespace(node.children);
    const first = node.children[0];
    const last = node.children[node.children.length - 1];
    let lead = '';
    let trail = '';
    if (first?.type === 'text') {
      lead = /^\s*/.exec(first.value)![0];
      first.value = first.value.slice(lead.length);
    }
    if (last?.type === 'text') {
      trail = /\s*$/.exec(last.value)![0];
      last.value = last.value.slice(0, last.value.length - trail.length);
    }
    node.children = node.children.filter((c) => c.type !== 'text' || c.value !== '');
    if (lead) out.push({ type: 'text', value: lead });
    if (node.children.length) out.push(node);
    if (trail) out.push({ type: 'text', value: trail });
  }
  return mergeAdjacent(out);
}

function wrap(mark: PmMark, child: PhrasingContent): PhrasingContent {
  switch (mark.type) {
    case 'bold':
      return { type: 'strong', children: [child] };
    case 'italic':
      return { type: 'emphasis', children: [child] };
    case 'strike':
      return { type: 'delete', children: [child] };
    case 'link':
      return { type: 'link', url: String(mark.attrs?.href ?? ''), title: (mark.attrs?.title as string | null) ?? null, children: [child] };
    default:
      return child;
  }
}

/** `**a** **b**` from two bold text runs would read differently; merge same-mark neighbours. */
function mergeAdjacent(nodes: PhrasingContent[]): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  for (const node of nodes) {
    const prev = out[out.length - 1];
    if (prev && sameWrapper(prev, node) && 'children' in prev && 'children' in node) {
      (prev as { children: PhrasingContent[] }).children = mergeAdjacent([...prev.children, ...node.children] as PhrasingContent[]);
    } else if (prev && prev.type === 'text' && node.type === 'text') {
      prev.value += node.value;
    } else {
      out.push(node);
    }
  }
  return out;
}

function sameWrapper(a: PhrasingContent, b: PhrasingContent): boolean {
  if (a.type !== b.type) return false;
  if (a.type === 'link' && b.type === 'link') return a.url === b.url && a.title === b.title;
  return a.type === 'strong' || a.type === 'emphasis' || a.type === 'delete';
}
