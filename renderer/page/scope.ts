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

/**
 * A component that is code (a function with a body, JSX that computes, a class): compiled at
 * export time and run in the reader's browser, pre-rendered only in a sandbox (renderer/islands).
 */
export interface ModuleComponent {
  kind: 'module';
  /** The module (file) that defines it. */
  module: ModuleRef;
  /** Its name among the module's exports; for a file's own, unexported declaration, its local name. */
  exportName: string;
  exported: boolean;
  line: number;
}

export type ComponentDef = ArrowComponent | SnippetComponent | OpaqueComponent | ModuleComponent;

/**
 * One page's or snippet's import/export code as a browser module: its code (JSX, types already
 * stripped) and what each of its import specifiers resolved to.
 */
export interface ModuleRef {
  /** Repository-relative path: the module's id. */
  file: string;
  code: string;
  /** Specifier → another file's module, `package` (react, or a package name), or `missing`. */
  deps: Map<string, ModuleRef | 'package' | 'missing' | 'mdx'>;
  /** The file's own unexported component names (a page may reach them through an exported one). */
  locals: string[];
}

export interface Scope {
  values: Map<string, Literal>;
  components: Map<string, ComponentDef>;
  /** The file's module, when it has import/export code. */
  module?: ModuleRef;
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
  return base.module ? { values: merged, components: base.components, module: base.module } : { values: merged, components: base.components };
}
