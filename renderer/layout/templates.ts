import fs from 'node:fs';
import path from 'node:path';
import ejs from 'ejs';
import { packageRoot } from '../theme/package-root.js';

export type Template = (data: Record<string, unknown>) => string;

const compiled = new Map<string, Template>();

/** Templates are read from the source tree (the build copies only .ts output; see package-root). */
export function templatesDir(): string {
  return path.join(packageRoot(), 'renderer', 'layout', 'templates');
}

/**
 * Compiled once per process: a worker renders thousands of pages with the same functions.
 * `_with: false` + `localsName: 'it'` keeps ejs from wrapping every template in a `with` block,
 * which is both faster and strict-mode safe.
 */
export function template(name: string): Template {
  const hit = compiled.get(name);
  if (hit) return hit;
  const filename = path.join(templatesDir(), `${name}.ejs`);
  let source: string;
  try {
    source = fs.readFileSync(filename, 'utf8');
  } catch (err) {
    throw new Error(`layout template ${name}.ejs not found at ${filename}`, { cause: err });
  }
  const fn = ejs.compile(source, { filename, _with: false, localsName: 'it', strict: true, rmWhitespace: false });
  const wrapped: Template = (data) => fn(data) as string;
  compiled.set(name, wrapped);
  return wrapped;
}
