/** Where a piece of content comes from: the file (page or snippet), its names, and its caller's children. */
import type { Scope } from './scope.js';
import type { Node } from './tree.js';

export interface Env {
  /** Repository-relative file being rendered (a page or a snippet). */
  file: string;
  /** Its body text and the file line of the body's first line, to locate warnings. */
  source: string;
  firstLine: number;
  scope: Scope;
  /** The caller's children, for `{children}` inside a snippet or arrow component. */
  children?: { nodes: Node[]; env: Env; multiline: boolean };
}

/** The file line of the first occurrence of `needle` in the env's source, when it is there. */
export function lineOfText(env: Env, needle: string): number | undefined {
  if (!needle) return undefined;
  const at = env.source.indexOf(needle);
  if (at === -1) return undefined;
  let line = env.firstLine;
  for (let i = env.source.indexOf('\n'); i !== -1 && i < at; i = env.source.indexOf('\n', i + 1)) line++;
  return line;
}

/**
 * Where `needle` was written: this file, or else the page (or snippet) that called this component
 * with it as a prop. Falls back to this file without a line.
 */
export function locate(env: Env, needle: string): { file: string; line?: number } {
  for (let e: Env | undefined = env; e; e = e.children?.env) {
    const line = lineOfText(e, needle);
    if (line !== undefined) return { file: e.file, line };
  }
  return { file: env.file };
}
