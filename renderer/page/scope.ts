/**
 * What names mean inside a page or snippet: constants (`export const x = …`, imported from a
 * snippet, or passed as props) and components (snippets, simple arrow-function components, or
 * opaque code we cannot run). Nothing here executes user code.
 */
import type { Literal } from './literal.js';
import type { Node } from './tree.js';

export interface ArrowComponent {
  kind: 'arrow';
  /** Repository-relative file that defines it (errors and warnings point there). */
  file: string;
  /** The JSX body and the file line it starts on, to locate warnings. */
  source: string;
  firstLine: number;
  /** Destructured prop names with literal defaults; `propsName` when the parameter is `props`. */
  params: Map<string, Literal>;
  propsName?: string;
  body: Node[];
  scope: Scope;
}

export interface SnippetComponent {
  kind: 'snippet';
  snippet: Snippet;
}

/** A component defined by code we do not run (a function body, a package import). */
export interface OpaqueComponent {
  kind: 'opaque';
  file: string;
  line: number;
  reason: string;
}

export type ComponentDef = ArrowComponent | SnippetComponent | OpaqueComponent;

export interface Scope {
  values: Map<string, Literal>;
  components: Map<string, ComponentDef>;
}

export interface Snippet {
  /** Repository-relative path. */
  file: string;
  /** Body text (after frontmatter) and the file line it starts on, to locate warnings. */
  source: string;
  firstLine: number;
  nodes: Node[];
  scope: Scope;
}

export function emptyScope(): Scope {
  return { values: new Map(), components: new Map() };
}

/** A child scope: props shadow the definitions of the file the component comes from. */
export function withValues(base: Scope, values: Map<string, Literal>): Scope {
  if (values.size === 0) return base;
  const merged = new Map(base.values);
  for (const [k, v] of values) merged.set(k, v);
  return { values: merged, components: base.components };
}
