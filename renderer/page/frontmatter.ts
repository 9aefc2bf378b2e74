/** YAML frontmatter: split it from the body and parse it, with errors located in the page file. */
import path from 'node:path';
import { createRequire } from 'node:module';
import { parseDocument } from 'yaml';
import { RenderError } from '../types.js';

export interface SplitPage {
  frontmatter: Record<string, unknown>;
  body: string;
  /** Number of source lines before the body, so body line N is file line N + bodyLineOffset. */
  bodyLineOffset: number;
  /** The file opens with `---` that nothing closes: read as a thematic break, the whole file is body. */
  unclosed?: true;
}

const OPEN_RE = /^---[ \t]*\r?\n/;
const CLOSE_RE = /^---[ \t]*$/m;

export function splitFrontmatter(file: string, source: string): SplitPage {
  const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  const open = OPEN_RE.exec(text);
  if (!open) return { frontmatter: {}, body: text, bodyLineOffset: 0 };
  const rest = text.slice(open[0].length);
  const close = CLOSE_RE.exec(rest);
  // Mintlify reads frontmatter with `front-matter` and compiles with remark-frontmatter: neither
  // takes an unclosed `---` for frontmatter, so it is a thematic break and the file is all body.
  if (!close) return { frontmatter: {}, body: text, bodyLineOffset: 0, unclosed: true };
  const yamlText = rest.slice(0, close.index);
  const afterClose = rest.slice(close.index + close[0].length).replace(/^\r?\n/, '');
  const bodyLineOffset = countLines(text.slice(0, text.length - afterClose.length));
  return { frontmatter: parseYaml(file, yamlText), body: afterClose, bodyLineOffset };
}

function countLines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * Most frontmatter is a few `key: text` lines. Those are read directly (the yaml library costs
 * about a tenth of a page's render time); anything else, or anything that could mean something
 * other than a string in YAML (numbers, booleans, anchors, flow collections…), goes to the library.
 */
const SIMPLE_LINE_RE = /^([A-Za-z_][\w-]*):[ \t]+(?:"([^"\\]*)"|'([^']*)'|([^\s"'\[\]{}&*!|>%@`#,?:-][^#]*?))[ \t]*$/;
const NOT_PLAIN_STRING_RE = /: |^(?:true|false|yes|no|on|off|null|~|y|n)$|^[-+]?(?:\.?\d|\.inf|\.nan)|^0[xo]/i;

function parseSimple(yamlText: string): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const line of yamlText.split('\n')) {
    const trimmed = line.trimEnd();
    if (trimmed === '') continue;
    const m = SIMPLE_LINE_RE.exec(trimmed);
    if (!m?.[1] || Object.hasOwn(out, m[1])) return undefined;
    const plain = m[4];
    if (plain !== undefined && NOT_PLAIN_STRING_RE.test(plain)) return undefined;
    out[m[1]] = m[2] ?? m[3] ?? plain;
  }
  return out;
}

function parseYaml(file: string, yamlText: string): Record<string, unknown> {
  if (yamlText.trim() === '') return {};
  const simple = parseSimple(yamlText.replace(/\r/g, ''));
  if (simple) return simple;
  const doc = parseDocument(yamlText, { prettyErrors: false, uniqueKeys: false });
  const first = doc.errors[0];
  if (first) {
    const lenient = mintlifyReading(yamlText);
    if (lenient) return lenient;
    // +1: line 1 of the YAML is line 2 of the file (after the opening ---).
    const yamlLine = first.linePos?.[0]?.line ?? lineAt(yamlText, first.pos[0]);
    throw new RenderError(`Invalid YAML frontmatter: ${first.message.split('\n')[0]}`, {
      file,
      line: yamlLine + 1,
      column: first.linePos?.[0]?.col,
      cause: first,
    });
  }
  let value: unknown;
  try {
    value = doc.toJS();
  } catch (err) {
    // The yaml library refuses alias expansion past its limit ("billion laughs") here, not as a parse error.
    const message = err instanceof Error ? err.message : String(err);
    throw new RenderError(`Invalid YAML frontmatter: ${message}`, { file, line: 2, cause: err });
  }
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new RenderError('Frontmatter must be a YAML mapping (key: value lines)', { file, line: 2 });
  }
  return value as Record<string, unknown>;
}

/**
 * Mintlify reads frontmatter with the `front-matter` package (js-yaml 3, safe schema), which
 * accepts some YAML the `yaml` library refuses: a double-quoted string continued at column 0 on
 * the next line, most often. What it accepts is taken as Mintlify would take it; what it refuses
 * too is reported with the `yaml` library's location, which is the more precise.
 */
function mintlifyReading(yamlText: string): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = frontMatter(`---\n${yamlText}\n---\n`).attributes;
  } catch {
    return undefined;
  }
  // js-yaml 3 shares aliased nodes instead of copying them: a page of nested aliases would be a
  // small object here and an enormous one once copied to the main thread, so size is capped.
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !withinSize(value, MAX_LENIENT_NODES)) return undefined;
  return value as Record<string, unknown>;
}

const MAX_LENIENT_NODES = 10_000;

// A CommonJS module whose typings declare an ES default export it does not have.
const frontMatter = createRequire(import.meta.url)('front-matter') as (text: string) => { attributes: unknown };

function withinSize(root: unknown, limit: number): boolean {
  let seen = 0;
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (++seen > limit) return false;
    if (v !== null && typeof v === 'object') for (const child of Object.values(v)) stack.push(child);
  }
  return true;
}

function lineAt(text: string, offset: number): number {
  return countLines(text.slice(0, Math.max(0, offset))) + 1;
}

/** Whether an unclosed opening `---` is followed by what looks like a `key: value` line (frontmatter meant, and lost). */
export function looksLikeLostFrontmatter(body: string): boolean {
  return /^---[ \t]*\r?\n[ \t]*[A-Za-z_][\w-]*:(?:[ \t]|\r?$)/m.test(body.slice(0, 300));
}

/** Mintlify's fallback when a page has no `title`: the file name, dashes to spaces, first letter up. */
export function titleFromFile(file: string, siteName: string): string {
  const base = path.posix.basename(file).replace(/\.(mdx|md)$/i, '');
  const dir = path.posix.basename(path.posix.dirname(file));
  const stem = base === 'index' ? (dir && dir !== '.' ? dir : siteName) : base;
  const words = stem.replace(/[-_]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : siteName;
}

export function stringField(fm: Record<string, unknown>, key: string): string | undefined {
  const v = fm[key];
  if (typeof v === 'string') return v.trim() === '' ? undefined : v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}
