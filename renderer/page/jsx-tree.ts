/**
 * JSX syntax trees (from js-grammar.ts) as the renderer's tree (tree.ts): elements, attributes,
 * JSX text and `{…}` expressions, with the source text of each expression kept for evaluate.ts.
 */
import { jsxName, type JsNode } from './js-grammar.js';
import type { Attr, ElementNode, Node } from './tree.js';

/** Elements whose content is kept as raw text (TeX, diagrams, scripts), not parsed as MDX. */
export const RAW_CONTENT = new Set(['Latex', 'Mermaid', 'script', 'style']);

/**
 * Attributes of an opening tag. Offsets in the nodes are from `base` in `text`. Spreads and
 * comments between attributes are skipped, never evaluated; a JSX value (`icon={<svg/>}` or
 * `icon=<svg/>`) keeps its source for the component that renders it.
 */
export function jsxAttributes(attributes: JsNode[], text: string, base: number): Attr[] {
  const attrs: Attr[] = [];
  for (const a of attributes) {
    if (a.type !== 'JSXAttribute') continue;
    const name = jsxName(a['name'] as JsNode);
    const v = a['value'] as JsNode | null;
    if (!v) attrs.push({ name, value: { kind: 'bool' } });
    else if (v.type === 'Literal') attrs.push({ name, value: { kind: 'string', value: text.slice(base + v.start + 1, base + v.end - 1) } });
    else if (v.type === 'JSXExpressionContainer') attrs.push({ name, value: { kind: 'expr', code: text.slice(base + v.start + 1, base + v.end - 1) } });
    else attrs.push({ name, value: { kind: 'expr', code: text.slice(base + v.start, base + v.end) } });
  }
  return attrs;
}

/**
 * A JSX expression (a component's returned JSX, an attribute's JSX value) as tree nodes. Text
 * follows JSX whitespace rules and every element is inline, as React would render it. `lineAt`
 * turns an offset in `text` into a file line.
 */
export function jsxToNodes(node: JsNode, text: string, lineAt: (offset: number) => number): Node[] {
  switch (node.type) {
    case 'JSXElement':
    case 'JSXFragment':
      return [jsxElement(node, text, lineAt)];
    case 'JSXText': {
      const value = collapseJsxText(text.slice(node.start, node.end));
      return value === '' ? [] : [{ kind: 'text', value }];
    }
    case 'JSXExpressionContainer': {
      const inner = node['expression'] as JsNode;
      if (inner.type === 'JSXEmptyExpression') return [];
      return [{ kind: 'expr', code: text.slice(node.start + 1, node.end - 1), line: lineAt(node.start) }];
    }
    default:
      return [{ kind: 'expr', code: text.slice(node.start, node.end), line: lineAt(node.start) }];
  }
}

function jsxElement(node: JsNode, text: string, lineAt: (offset: number) => number): ElementNode {
  const fragment = node.type === 'JSXFragment';
  const opening = node[fragment ? 'openingFragment' : 'openingElement'] as JsNode;
  const closing = node[fragment ? 'closingFragment' : 'closingElement'] as JsNode | null;
  const name = fragment ? '' : jsxName(opening['name'] as JsNode);
  const el: ElementNode = {
    kind: 'element',
    name,
    attrs: fragment ? [] : jsxAttributes(opening['attributes'] as JsNode[], text, 0),
    children: [],
    line: lineAt(node.start),
    block: false,
    multiline: false,
  };
  if (RAW_CONTENT.has(name) && closing) {
    el.raw = text.slice(opening.end, closing.start);
    el.multiline = el.raw.includes('\n');
    return el;
  }
  for (const child of node['children'] as JsNode[]) el.children.push(...jsxToNodes(child, text, lineAt));
  return el;
}

/** JSX text: whitespace-only lines vanish, lines are trimmed where they meet a newline and joined by a space. */
export function collapseJsxText(raw: string): string {
  if (!raw.includes('\n')) return raw;
  const lines = raw.split('\n');
  const kept: string[] = [];
  lines.forEach((line, idx) => {
    let l = line.replace(/\t/g, ' ');
    if (idx > 0) l = l.trimStart();
    if (idx < lines.length - 1) l = l.trimEnd();
    if (l !== '') kept.push(l);
  });
  return kept.join(' ');
}
