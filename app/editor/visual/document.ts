/**
 * The visual document: a page's block model turned into a Tiptap/ProseMirror document, and the
 * way back. Plain TypeScript (browser and node).
 *
 * Every top-level node carries `blockIndex`, the index of the block it came from. On the way
 * back a node equal to its baseline (the node as first loaded) emits the block's original slice;
 * a changed or new node is serialized; the source between two blocks that are still neighbours
 * is the original gap. So a page opened and saved without edits is its bytes, and an edit
 * changes only the edited block.
 */
import { blockSource, mdastToMdx, parseBlocks, parseMdx, type BlockDocument, type ParseFailure } from './blocks.js';
import { blockToPm, pmToMdast, setRawParser, type PmNode } from './pm-json.js';
import type { RootContent } from 'mdast';

setRawParser((text) => {
  try {
    return parseMdx(text).children;
  } catch {
    return undefined;
  }
});

export interface VisualSession {
  doc: BlockDocument;
  /** Baseline JSON (as a string) of each block's node, set by `setBaseline` once the editor normalised it. */
  baseline: (string | undefined)[];
}

export type LoadResult = { ok: true; session: VisualSession; json: PmNode } | { ok: false; error: ParseFailure };

export function loadVisualDocument(source: string): LoadResult {
  const parsed = parseBlocks(source);
  if (!parsed.ok) return parsed;
  const doc = parsed.doc;
  const content: PmNode[] = doc.blocks.map((block, index) => {
    // A top-level raw block keeps its exact slice; nested ones are dedented to their container.
    const node = blockToPm(block.node, (n) => (n === block.node ? doc.source.slice(block.start, block.end) : sliceDedented(doc.source, n)));
    return { ...node, attrs: { ...(node.attrs ?? {}), blockIndex: index } };
  });
  // ProseMirror needs at least one block; an empty page gets an empty paragraph of no block.
  if (content.length === 0) content.push({ type: 'paragraph', attrs: { blockIndex: null } });
  return { ok: true, session: { doc, baseline: [] }, json: { type: 'doc', content } };
}

/** Record what each block's node looks like after the editor loaded it (its normalised JSON). */
export function setBaseline(session: VisualSession, docJson: PmNode): void {
  session.baseline = [];
  for (const node of docJson.content ?? []) {
    const index = blockIndexOf(node);
    if (index !== null && session.baseline[index] === undefined) session.baseline[index] = JSON.stringify(node);
  }
}

export function sourceFromVisual(session: VisualSession, docJson: PmNode): string {
  const { doc } = session;
  const nodes = docJson.content ?? [];
  const eol = doc.style.eol;
  if (doc.blocks.length === 0 && nodes.every(isEmptyParagraph)) return doc.source;

  const used = new Set<number>();
  let out = doc.gaps[0] ?? '';
  let previous: number | null | undefined;
  nodes.forEach((node, position) => {
    let index = blockIndexOf(node);
    // A split or pasted copy carries its origin's index too; only the first keeps the claim.
    if (index !== null && (used.has(index) || index >= doc.blocks.length)) index = null;
    if (index !== null) used.add(index);
    if (position > 0) out += index !== null && previous !== null && previous !== undefined && index === previous + 1 ? (doc.gaps[index] ?? '') : eol + eol;
    const unchanged = index !== null && session.baseline[index] === JSON.stringify(node);
    if (unchanged) out += blockSource(doc, index!);
    else if (!isEmptyParagraph(node) || nodes.length > 1) out += serializeNode(node, doc);
    previous = index;
  });
  const lastIsLastBlock = previous === doc.blocks.length - 1 && doc.blocks.length > 0;
  out += lastIsLastBlock ? (doc.gaps[doc.blocks.length] ?? '') : doc.style.finalNewline ? eol : '';
  return out;
}

function serializeNode(node: PmNode, doc: BlockDocument): string {
  if (node.type === 'rawBlock') return String(node.attrs?.text ?? '');
  return mdastToMdx([pmToMdast(node)], doc.style);
}

function blockIndexOf(node: PmNode): number | null {
  const value = node.attrs?.blockIndex;
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null;
}

function isEmptyParagraph(node: PmNode): boolean {
  return node.type === 'paragraph' && !(node.content && node.content.length);
}

/**
 * A nested node's source with its container's indentation taken off the continuation lines,
 * so the raw text reads (and re-parses) as if it stood at the left margin.
 */
export function sliceDedented(source: string, node: RootContent): string {
  const start = node.position?.start.offset ?? 0;
  const end = node.position?.end.offset ?? start;
  const column = (node.position?.start.column ?? 1) - 1;
  const text = source.slice(start, end);
  if (column === 0) return text;
  return text.replace(new RegExp(`(\\r?\\n)[ \\t]{0,${column}}`, 'g'), '$1');
}
