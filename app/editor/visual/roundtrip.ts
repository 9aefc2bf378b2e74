/**
 * The no-edit round trip of the visual mode, checkable in node: a page goes through the block
 * model and through the load → ProseMirror document → save path the editor runs (the Tiptap
 * schema built headlessly), and must come back byte for byte.
 */
import { getSchema } from '@tiptap/core';
import { Node as PmNodeClass, type Schema } from '@tiptap/pm/model';
import { visualExtensions } from '../client/visual/extensions.js';
import { mdastToMdx, parseBlocks, serializeBlocks, type ParseFailure } from './blocks.js';
import { loadVisualDocument, setBaseline, sourceFromVisual } from './document.js';
import { pmToMdast, type PmNode } from './pm-json.js';

export type RoundTripResult =
  | { status: 'identical'; blocks: number; visualBlocks: number }
  | { status: 'refused'; error: ParseFailure }
  | { status: 'mismatch'; stage: 'blocks' | 'editor'; firstDifference: number };

let schema: Schema | undefined;
export function visualSchema(): Schema {
  return (schema ??= getSchema(visualExtensions()));
}

/** Load into the editor's schema and back to JSON, as the editor does on mount. */
export function loadThroughSchema(json: PmNode): PmNode {
  return PmNodeClass.fromJSON(visualSchema(), json).toJSON() as PmNode;
}

export function checkRoundTrip(source: string): RoundTripResult {
  const parsed = parseBlocks(source);
  if (!parsed.ok) return { status: 'refused', error: parsed.error };
  const viaBlocks = serializeBlocks(parsed.doc);
  if (viaBlocks !== source) return { status: 'mismatch', stage: 'blocks', firstDifference: firstDifference(source, viaBlocks) };
  const loaded = loadVisualDocument(source);
  if (!loaded.ok) return { status: 'refused', error: loaded.error };
  const json = loadThroughSchema(loaded.json);
  setBaseline(loaded.session, json);
  const viaEditor = sourceFromVisual(loaded.session, json);
  if (viaEditor !== source) return { status: 'mismatch', stage: 'editor', firstDifference: firstDifference(source, viaEditor) };
  const visualBlocks = (json.content ?? []).filter((n) => n.type !== 'rawBlock').length;
  return { status: 'identical', blocks: parsed.doc.blocks.length, visualBlocks };
}

function firstDifference(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/**
 * The edit path's fidelity: every visual block serialized as if it had been edited (with no
 * actual change) must parse back to the same mdast (positions aside). A difference means an
 * edit of that block would change more than the writer changed.
 */
export function checkReserialize(source: string): { blocks: number; differing: { index: number; before: string; after: string }[] } {
  const loaded = loadVisualDocument(source);
  if (!loaded.ok) return { blocks: 0, differing: [] };
  const json = loadThroughSchema(loaded.json);
  const { doc } = loaded.session;
  const differing: { index: number; before: string; after: string }[] = [];
  let blocks = 0;
  (json.content ?? []).forEach((node, index) => {
    if (node.type === 'rawBlock' || !doc.blocks[index]) return;
    blocks++;
    const text = mdastToMdx([pmToMdast(node)], doc.style);
    const reparsed = parseBlocks(text);
    const before = JSON.stringify(stripPositions(doc.blocks[index]!.node));
    const after = reparsed.ok && reparsed.doc.blocks.length === 1 ? JSON.stringify(stripPositions(reparsed.doc.blocks[0]!.node)) : `(${reparsed.ok ? reparsed.doc.blocks.length + ' blocks' : 'parse error'}) ${text}`;
    if (before !== after) differing.push({ index, before, after });
  });
  return { blocks, differing };
}

function stripPositions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripPositions);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (k !== 'position' && k !== 'data') out[k] = stripPositions(v);
    return out;
  }
  return value;
}
