/**
 * Snippets: files under the repository imported by pages (`import X from '/snippets/a.mdx'`,
 * `import { name } from './b.mdx'`, legacy `<Snippet file="a.mdx" />`). Parsed files are cached per
 * process (keyed by absolute path, checked against size and mtime) because a worker renders many
 * pages that share the same snippets; scopes are rebuilt per page, which is cheap.
 */
import fs from 'node:fs';
import path from 'node:path';
import { readRepoText, RepoFileError, resolveRepoFile, type RepoFileProblem } from '../repo-files.js';
import { RenderError } from '../types.js';
import { parseEsmBlock, type EsmBlock, type ExportDecl } from './esm.js';
import { splitFrontmatter } from './frontmatter.js';
import { parseMdx } from './parse.js';
import { emptyScope, type ComponentDef, type Scope, type Snippet } from './scope.js';
import { withoutPlaceholders } from './state.js';
import type { Node } from './tree.js';

interface ParsedFile {
  size: number;
  mtimeMs: number;
  file: string;
  source: string;
  firstLine: number;
  nodes: Node[];
  esm: { block: EsmBlock; line: number }[];
  /** Arrow-function component bodies, parsed once: export name → nodes. */
  arrowBodies: Map<string, Node[]>;
}

// Bounded: workers live across exports, and each export may check the repository out afresh.
const FILE_CACHE_LIMIT = 2000;
const fileCache = new Map<string, ParsedFile>();

const SCRIPT_EXT = /\.(?:jsx?|tsx?)$/;
const MDX_EXT = /\.mdx?$/;

export interface Where {
  file: string;
  line: number;
}

/** Per-page memo so a snippet used twice on one page is resolved once. */
export type SnippetMemo = Map<string, Snippet>;

/** Resolves an import specifier to a repository-relative path, or undefined for a package name. */
export function resolveSpecifier(spec: string, where: Where): string | undefined {
  let rel: string;
  if (spec.startsWith('/')) rel = path.posix.normalize(spec.slice(1));
  else if (spec.startsWith('./') || spec.startsWith('../')) rel = path.posix.normalize(path.posix.join(path.posix.dirname(where.file), spec));
  else return undefined;
  if (rel === '..' || rel.startsWith('../') || path.posix.isAbsolute(rel) || rel.includes('\0')) {
    throw new RenderError(`Snippet path ${spec} points outside the repository`, where);
  }
  return rel;
}

export function loadSnippet(rel: string, repoRoot: string, where: Where, memo: SnippetMemo, chain: string[] = []): Snippet {
  const memoised = memo.get(rel);
  if (memoised) return memoised;
  if (chain.includes(rel)) {
    throw new RenderError(`Snippet import cycle: ${[...chain, rel].join(' → ')}`, where);
  }
  const parsed = readParsed(rel, repoRoot, where);
  const scope = buildScope(parsed.file, parsed.esm, parsed.arrowBodies, repoRoot, memo, [...chain, rel]);
  const snippet: Snippet = { file: parsed.file, source: parsed.source, firstLine: parsed.firstLine, nodes: parsed.nodes, scope };
  memo.set(rel, snippet);
  return snippet;
}

/**
 * Legacy `<Snippet file="a.mdx" />`: the file is looked up in `snippets/` then `_snippets/`.
 * Undefined when it is in neither (the caller warns); a path leaving the repository still throws.
 */
export function findLegacySnippet(name: string, repoRoot: string, where: Where): string | undefined {
  for (const candidate of legacyCandidates(name)) {
    const rel = resolveSpecifier(`/${candidate}`, where);
    if (rel && exists(repoRoot, rel)) return rel;
  }
  return undefined;
}

export function legacyCandidates(name: string): string[] {
  const clean = name.replace(/^\/+/, '');
  return clean.startsWith('snippets/') || clean.startsWith('_snippets/') ? [clean] : [`snippets/${clean}`, `_snippets/${clean}`];
}

/** The scope a page or snippet gets from its own import/export blocks. */
export function buildScope(
  file: string,
  esm: { block: EsmBlock; line: number }[],
  arrowBodies: Map<string, Node[]>,
  repoRoot: string,
  memo: SnippetMemo,
  chain: string[],
): Scope {
  const scope = emptyScope();
  for (const { block } of esm) {
    for (const decl of block.imports) {
      const where = { file, line: decl.line };
      const rel = resolveSpecifier(decl.source, where);
      const bound = [decl.defaultName, decl.namespace, ...decl.named.map((n) => n.local)].filter((n): n is string => !!n);
      if (rel === undefined || !(MDX_EXT.test(rel) || SCRIPT_EXT.test(rel) || path.posix.extname(rel) === '')) {
        // A package (`@acme/ui`) or a stylesheet: nothing we can render; usages become unknown components.
        for (const name of bound) scope.components.set(name, { kind: 'opaque', file, line: decl.line, reason: `imported from ${decl.source}` });
        continue;
      }
      const target = withExtension(rel, repoRoot);
      if (target === undefined) {
        throw new RenderError(`Snippet not found: ${decl.source} (imported at ${file}:${decl.line})`, where);
      }
      const snippet = loadSnippet(target, repoRoot, where, memo, chain);
      if (decl.defaultName) {
        const def: ComponentDef = MDX_EXT.test(target)
          ? { kind: 'snippet', snippet }
          : { kind: 'opaque', file: target, line: 1, reason: 'the default export of a script file' };
        scope.components.set(decl.defaultName, def);
      }
      for (const { imported, local } of decl.named) {
        if (snippet.scope.values.has(imported)) scope.values.set(local, snippet.scope.values.get(imported));
        const component = snippet.scope.components.get(imported);
        if (component) scope.components.set(local, component);
      }
    }
    for (const decl of block.exports) addExport(scope, decl, file, arrowBodies);
  }
  return scope;
}

function addExport(scope: Scope, decl: ExportDecl, file: string, arrowBodies: Map<string, Node[]>): void {
  const v = decl.value;
  if (v.kind === 'literal') {
    scope.values.set(decl.name, v.value);
    return;
  }
  const body = arrowBodies.get(decl.name);
  if (v.kind === 'arrow' && body) {
    scope.components.set(decl.name, {
      kind: 'arrow',
      file,
      source: v.body,
      firstLine: v.bodyLine,
      params: v.params,
      ...(v.propsName === undefined ? {} : { propsName: v.propsName }),
      body,
      scope,
    });
    return;
  }
  scope.components.set(decl.name, { kind: 'opaque', file, line: decl.line, reason: v.kind === 'opaque' ? v.reason : 'code' });
}

function withExtension(rel: string, repoRoot: string): string | undefined {
  if (path.posix.extname(rel) !== '') return exists(repoRoot, rel) ? rel : undefined;
  for (const ext of ['.mdx', '.md', '.jsx', '.js', '.tsx', '.ts']) if (exists(repoRoot, rel + ext)) return rel + ext;
  return undefined;
}

/** A file, or a link (which readParsed then refuses by name if it leads outside the repository). */
function exists(repoRoot: string, rel: string): boolean {
  const st = fs.lstatSync(path.join(repoRoot, rel), { throwIfNoEntry: false });
  return st !== undefined && (st.isFile() || st.isSymbolicLink());
}

const PROBLEM_TEXT: Record<RepoFileProblem, string> = {
  missing: 'not found',
  outside: 'points outside the repository',
  'not-a-file': 'is not a file',
  'too-large': 'is too large',
};

function readParsed(rel: string, repoRoot: string, where: Where): ParsedFile {
  let real: string;
  let stat: fs.Stats;
  try {
    real = resolveRepoFile(repoRoot, rel);
    stat = fs.statSync(real);
  } catch (err) {
    const problem = err instanceof RepoFileError ? err.problem : 'missing';
    if (problem === 'missing') throw new RenderError(`Snippet not found: /${rel}`, where);
    throw new RenderError(`Snippet path /${rel} ${PROBLEM_TEXT[problem]}`, where);
  }
  if (!stat.isFile()) throw new RenderError(`Snippet path /${rel} ${PROBLEM_TEXT['not-a-file']}`, where);
  const cached = fileCache.get(real);
  if (cached && cached.size === stat.size && cached.mtimeMs === stat.mtimeMs) return cached;
  let source: string;
  try {
    source = withoutPlaceholders(readRepoText(repoRoot, rel));
  } catch (err) {
    if (!(err instanceof RepoFileError)) throw err;
    throw new RenderError(`Snippet path /${rel}: ${err.message}`, where);
  }
  const parsed = SCRIPT_EXT.test(rel) ? parseScriptFile(rel, source) : parseMdxFile(rel, source);
  const entry: ParsedFile = { size: stat.size, mtimeMs: stat.mtimeMs, ...parsed };
  if (fileCache.size >= FILE_CACHE_LIMIT) fileCache.clear();
  fileCache.set(real, entry);
  return entry;
}

type ParsedContent = Omit<ParsedFile, 'size' | 'mtimeMs'>;

function parseMdxFile(rel: string, source: string): ParsedContent {
  const split = splitFrontmatter(rel, source);
  const tree = parseMdx(rel, split.body, split.bodyLineOffset + 1, { esm: true });
  const esm: { block: EsmBlock; line: number }[] = [];
  for (const node of tree.nodes) if (node.kind === 'esm') esm.push({ block: parseEsmBlock(node.code, node.line), line: node.line });
  return { file: rel, source: split.body, firstLine: split.bodyLineOffset + 1, nodes: tree.nodes, esm, arrowBodies: parseArrowBodies(rel, esm) };
}

function parseScriptFile(rel: string, source: string): ParsedContent {
  const esm = [{ block: parseEsmBlock(source, 1), line: 1 }];
  return { file: rel, source, firstLine: 1, nodes: [], esm, arrowBodies: parseArrowBodies(rel, esm) };
}

export function parseArrowBodies(file: string, esm: { block: EsmBlock }[]): Map<string, Node[]> {
  const bodies = new Map<string, Node[]>();
  for (const { block } of esm) {
    for (const decl of block.exports) {
      if (decl.value.kind !== 'arrow') continue;
      bodies.set(decl.name, parseMdx(file, decl.value.body, decl.value.bodyLine, { esm: false, jsx: true }).nodes);
    }
  }
  return bodies;
}
