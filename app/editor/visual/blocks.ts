/**
 * The visual mode's block model: an MDX page as its top-level blocks with exact source offsets,
 * plus the exact source between them. Plain TypeScript with no Node imports — it runs in the
 * browser bundle and in node (tests, scripts/editor-roundtrip.ts).
 *
 * Why blocks: the visual mode must give back the bytes it did not touch. A full
 * parse → serialize cycle never does (bullet chars, escapes, blank lines, indentation all
 * normalise), so the document is kept as slices of the original source and only a block the
 * writer edited is serialized again.
 *
 * The parsers are the ones Mintlify's build uses (micromark + mdxjs + gfm + frontmatter), so a
 * page the visual mode refuses is a page Mintlify would refuse too.
 */
import { fromMarkdown } from 'mdast-util-from-markdown';
import { mdxjs } from 'micromark-extension-mdxjs';
import { mdxFromMarkdown, mdxToMarkdown } from 'mdast-util-mdx';
import { gfm } from 'micromark-extension-gfm';
import { gfmFromMarkdown, gfmToMarkdown } from 'mdast-util-gfm';
import { frontmatter } from 'micromark-extension-frontmatter';
import { frontmatterFromMarkdown, frontmatterToMarkdown } from 'mdast-util-frontmatter';
import { toMarkdown, type Options as ToMarkdownOptions } from 'mdast-util-to-markdown';
import type { Root, RootContent } from 'mdast';

export type BlockKind =
  | 'frontmatter'
  | 'esm'
  | 'heading'
  | 'paragraph'
  | 'list'
  | 'code'
  | 'blockquote'
  | 'table'
  | 'thematicBreak'
  | 'component'
  | 'other';

export interface Block {
  kind: BlockKind;
  /** Offsets into the source, end exclusive: `source.slice(start, end)` is the block. */
  start: number;
  end: number;
  node: RootContent;
}

export interface BlockDocument {
  source: string;
  blocks: Block[];
  /** gaps[i] is the source before blocks[i]; gaps[blocks.length] is the source after the last block. */
  gaps: string[];
  style: SourceStyle;
}

/** The file's own writing style, so a re-serialized block looks like its neighbours. */
export interface SourceStyle {
  eol: '\n' | '\r\n';
  bullet: '-' | '*' | '+';
  emphasis: '*' | '_';
  strong: '*' | '_';
  fence: '`' | '~';
  finalNewline: boolean;
}

export interface ParseFailure {
  line: number;
  column: number;
  message: string;
}

export type ParseResult = { ok: true; doc: BlockDocument } | { ok: false; error: ParseFailure };

/** Parse MDX to an mdast tree with positions, with the grammar Mintlify builds with. */
export function parseMdx(source: string): Root {
  return fromMarkdown(source, {
    extensions: [mdxjs(), gfm(), frontmatter(['yaml'])],
    mdastExtensions: [mdxFromMarkdown(), gfmFromMarkdown(), frontmatterFromMarkdown(['yaml'])],
  });
}

export function parseBlocks(source: string): ParseResult {
  let tree: Root;
  try {
    tree = parseMdx(source);
  } catch (err) {
    return { ok: false, error: parseFailure(err) };
  }
  const blocks: Block[] = [];
  for (const node of tree.children) {
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    // Every top-level mdast node from micromark carries offsets; refuse rather than guess if not.
    if (start === undefined || end === undefined) {
      return { ok: false, error: { line: node.position?.start.line ?? 1, column: node.position?.start.column ?? 1, message: `a ${node.type} block has no source position` } };
    }
    blocks.push({ kind: blockKind(node), start, end, node });
  }
  const gaps: string[] = [];
  let cursor = 0;
  for (const block of blocks) {
    gaps.push(source.slice(cursor, block.start));
    cursor = block.end;
  }
  gaps.push(source.slice(cursor));
  return { ok: true, doc: { source, blocks, gaps, style: detectStyle(source, tree) } };
}

export function blockSource(doc: BlockDocument, index: number): string {
  const block = doc.blocks[index];
  return block ? doc.source.slice(block.start, block.end) : '';
}

/**
 * Join blocks back into a page. `replacements` maps a block index to its new text (an edited
 * block); every other block is its original slice, every gap the original gap. With no
 * replacements this is the source, byte for byte, by construction.
 */
export function serializeBlocks(doc: BlockDocument, replacements: ReadonlyMap<number, string> = new Map()): string {
  let out = '';
  doc.blocks.forEach((_block, i) => {
    out += doc.gaps[i] ?? '';
    out += replacements.has(i) ? replacements.get(i)! : blockSource(doc, i);
  });
  return out + (doc.gaps[doc.blocks.length] ?? '');
}

/** Serialize mdast nodes (an edited block) in the file's own style and line endings. */
export function mdastToMdx(nodes: RootContent[], style: SourceStyle): string {
  const options: ToMarkdownOptions = {
    extensions: [mdxToMarkdown(), gfmToMarkdown(), frontmatterToMarkdown(['yaml'])],
    bullet: style.bullet,
    emphasis: style.emphasis,
    strong: style.strong,
    fence: style.fence,
    listItemIndent: 'one',
    rule: '-',
  };
  const text = toMarkdown({ type: 'root', children: nodes }, options).replace(/\n+$/, '');
  return style.eol === '\r\n' ? text.replace(/\r?\n/g, '\r\n') : text;
}

function blockKind(node: RootContent): BlockKind {
  switch (node.type) {
    case 'yaml':
      return 'frontmatter';
    case 'mdxjsEsm':
      return 'esm';
    case 'heading':
    case 'paragraph':
    case 'list':
    case 'code':
    case 'blockquote':
    case 'table':
    case 'thematicBreak':
      return node.type;
    case 'mdxJsxFlowElement':
      return 'component';
    default:
      return 'other';
  }
}

function detectStyle(source: string, tree: Root): SourceStyle {
  const crlf = (source.match(/\r\n/g) ?? []).length;
  const lf = (source.match(/\n/g) ?? []).length - crlf;
  const style: SourceStyle = {
    eol: crlf > lf ? '\r\n' : '\n',
    bullet: '-',
    emphasis: '*',
    strong: '*',
    fence: '`',
    finalNewline: /\n$/.test(source),
  };
  // The first occurrence of each construct decides: files are usually consistent.
  const seen = new Set<string>();
  const visit = (node: { type: string; position?: { start: { offset?: number } }; children?: unknown[]; ordered?: boolean | null }): void => {
    const at = node.position?.start.offset;
    if (at !== undefined && !seen.has(node.type)) {
      const ch = source[at];
      if (node.type === 'list' && !node.ordered && (ch === '-' || ch === '*' || ch === '+')) {
        style.bullet = ch;
        seen.add('list');
      } else if (node.type === 'emphasis' && (ch === '*' || ch === '_')) {
        style.emphasis = ch;
        seen.add(node.type);
      } else if (node.type === 'strong' && (ch === '*' || ch === '_')) {
        style.strong = ch;
        seen.add(node.type);
      } else if (node.type === 'code' && (ch === '`' || ch === '~')) {
        style.fence = ch;
        seen.add(node.type);
      }
    }
    for (const child of node.children ?? []) visit(child as typeof node);
  };
  visit(tree);
  return style;
}

function parseFailure(err: unknown): ParseFailure {
  const e = err as { line?: number; column?: number; place?: { line?: number; column?: number; start?: { line?: number; column?: number } }; reason?: string; message?: string };
  const place = e.place && 'start' in e.place && e.place.start ? e.place.start : (e.place as { line?: number; column?: number } | undefined);
  const message = e.reason ?? e.message ?? String(err);
  // Some mdx-jsx errors (an unclosed tag at the end of the file) carry the place only in the text: "(3:1-3:7)".
  const inText = /\((\d+):(\d+)(?:-\d+:\d+)?\)/.exec(message);
  return {
    line: e.line ?? place?.line ?? (inText ? Number(inText[1]) : 1),
    column: e.column ?? place?.column ?? (inText ? Number(inText[2]) : 1),
    message,
  };
}
