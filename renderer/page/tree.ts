/** The parsed shape of an MDX source: markdown text interleaved with JSX elements and expressions. */
import type { Program } from 'acorn';

export type AttrValue =
  | { kind: 'string'; value: string }
  | { kind: 'expr'; code: string }
  | { kind: 'bool' };

export interface Attr {
  name: string;
  value: AttrValue;
}

export interface TextNode {
  kind: 'text';
  /** Raw markdown, exactly as in the source. */
  value: string;
}

export interface ExprNode {
  kind: 'expr';
  /** The code between the braces. */
  code: string;
  line: number;
}

export interface ElementNode {
  kind: 'element';
  /** `Note`, `Tree.Folder`, `div`; '' for a fragment `<>…</>`. */
  name: string;
  attrs: Attr[];
  children: Node[];
  /** Raw source between the tags, for elements whose content is not markdown (Latex). */
  raw?: string;
  /** 1-based line of the opening tag in `file`. */
  line: number;
  /** The element stands on its own lines (flow/block content) rather than inside a paragraph. */
  block: boolean;
  /** Its content spans lines, so it is rendered as block markdown (paragraphs), not inline. */
  multiline: boolean;
}

/** `$…$` or `$$…$$` TeX, rendered by KaTeX. */
export interface MathNode {
  kind: 'math';
  tex: string;
  display: boolean;
  /** Display math on lines of its own (a block, not inside a paragraph). */
  block: boolean;
  line: number;
}

/** An `import`/`export` block at the top level of the page or snippet (MDX ESM). */
export interface EsmNode {
  kind: 'esm';
  code: string;
  line: number;
  /** The block as acorn parsed it (offsets from the start of `code`, lines from 1). */
  program: Program;
}

export type Node = TextNode | ExprNode | ElementNode | EsmNode | MathNode;

/** A parsed file: the page body or a snippet. */
export interface ParsedMdx {
  file: string;
  nodes: Node[];
}
