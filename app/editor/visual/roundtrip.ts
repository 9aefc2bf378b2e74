/**
 * The no-edit round trip of the visual mode, checkable in node: a page goes through the block
 * model and through the load → ProseMirror document → save path the editor runs (the Tiptap
 * schema built headlessly), and must come back byte for byte.
 */
import { getSchema } from '@tiptap/core';
import { Node as PmNodeClass, type Schema } from '@tiptap/pm/model';
import { visualExtensions } from '../client/visual/extensions.js';
import { parseBlocks, serializeBlocks, type ParseFailure } from './blocks.js';
import { loadVisualDocument, setBaseline, sourceFromVisual } from './document.js';
import type { PmNode } from './pm-json.js';

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
