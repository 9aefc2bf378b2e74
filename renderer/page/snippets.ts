/**
 * Snippets: files under the repository imported by pages (`import X from '/snippets/a.mdx'`,
 * `import { name } from './b.mdx'`, legacy `<Snippet file="a.mdx" />`). Parsed files are cached per
 * process (keyed by absolute path, checked against size and mtime) because a worker renders many
 * pages that share the same snippets; scopes are rebuilt per page, which is cheap.
 */
import fs from 'node:fs';
import path from 'node:path';
import { transform } from 'sucrase';
import { readRepoFile, RepoFileError, resolveRepoFile, type RepoFileProblem } from '../repo-files.js';
import { recordProbe, recordReadHash, sha256 } from '../memo/read-log.js';
import { RenderError } from '../types.js';
import { parseEsmBlock, type EsmBlock, type ExportDecl } from './esm.js';
import { splitFrontmatter } from './frontmatter.js';
import { lineColumn, parseModule } from './js-grammar.js';
import { parseMdx } from './parse.js';
import { emptyScope, type ComponentDef, type ModuleRef, type Scope, type Snippet } from './scope.js';
import { withoutPlaceholders } from './state.js';
import type { Node } from './tree.js';

interface ParsedFile {
  size: number;
  mtimeMs: number;
  /** Of the file's bytes: a batch that reuses this parse still records what it read (renderer/memo). */
  sha256: string;
  file: string;
  source: string;
  firstLine: number;
  nodes: Node[];
  esm: EsmEntry[];
}

/** One import/export block: as data, where it starts, and its code (the file's browser module is made of these). */
export interface EsmEntry {
  block: EsmBlock;
  line: number;
  code: string;
}

// Bounded: workers live across exports, and each export may check the repository out afresh.
const FILE_CACHE_LIMIT = 2000;
const fileCache = new Map<string, ParsedFile>();

const SCRIPT_EXT = /\.(?:jsx?|tsx?)$/;
const TYPESCRIPT_EXT = /\.tsx?$/;
const MDX_EXT = /\.mdx?$/;

export interface Where {
  file: string;
  line: number;
}

/** Per-page memo so a snippet used twice on one page is resolved once. */
export type SnippetMemo = Map<string, Snippet>;

/** Where import problems that do not stop the page are reported (the page's warnings). */
export type Warn = (code: string, message: string, file: string, line?: number) => void;

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

export function loadSnippet(rel: string, repoRoot: string, where: Where, memo: SnippetMemo, warn: Warn, chain: string[] = []): Snippet {
  const memoised = memo.get(rel);
  if (memoised) return memoised;
  if (chain.includes(rel)) {
    throw new RenderError(`Snippet import cycle: ${[...chain, rel].join(' → ')}`, where);
  }
  const parsed = readParsed(rel, repoRoot, where);
  const scope = buildScope(parsed.file, parsed.esm, repoRoot, memo, warn, [...chain, rel]);
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

/**
 * The scope a page or snippet gets from its own import/export blocks. An import of a file that is
 * missing or outside the repository does not stop the page (Mintlify builds such pages): it is a
 * warning, and the names it would bind render as unknown components.
 */
export function buildScope(
  file: string,
  esm: EsmEntry[],
  repoRoot: string,
  memo: SnippetMemo,
  warn: Warn,
  chain: string[],
): Scope {
  const scope = emptyScope();
  if (esm.length > 0) scope.module = { file, code: esm.map((e) => e.code).join('\n'), deps: new Map(), locals: [] };
  const deps = scope.module?.deps;
  for (const { block } of esm) {
    for (const decl of block.imports) {
      const where = { file, line: decl.line };
      const bound = [decl.defaultName, decl.namespace, ...decl.named.map((n) => n.local)].filter((n): n is string => !!n);
      const unknown = (reason: string): void => {
        for (const name of bound) scope.components.set(name, { kind: 'opaque', file, line: decl.line, reason });
      };
      const found = locateImport(decl.source, repoRoot, where);
      if (found.kind === 'package') {
        // A package (`@acme/ui`) or a stylesheet: nothing we can render; usages become unknown components.
        // In the browser, `react` and its family are the bundled runtime (renderer/islands).
        deps?.set(decl.source, 'package');
        unknown(`imported from ${decl.source}`);
        continue;
      }
      if (found.kind === 'problem') {
        warn('missing-import', `${found.message}; ${bound.length > 0 ? `${bound.map((n) => `<${n}>`).join(', ')} render${bound.length === 1 ? 's' : ''} as unknown` : 'the import is ignored'}`, file, decl.line);
        deps?.set(decl.source, 'missing');
        unknown(found.message);
        continue;
      }
      const target = found.rel;
      const snippet = loadSnippet(target, repoRoot, where, memo, warn, chain);
      deps?.set(decl.source, snippet.scope.module ?? (MDX_EXT.test(target) ? 'mdx' : 'missing'));
      if (decl.defaultName) {
        const def: ComponentDef = MDX_EXT.test(target)
          ? { kind: 'snippet', snippet }
          : (snippet.scope.components.get('default') ?? { kind: 'opaque', file: target, line: 1, reason: 'the default export of a script file' });
        scope.components.set(decl.defaultName, def);
      }
      for (const { imported, local } of decl.named) {
        if (snippet.scope.values.has(imported)) scope.values.set(local, snippet.scope.values.get(imported));
        const component = snippet.scope.components.get(imported);
        if (component) scope.components.set(local, component);
      }
    }
    for (const decl of block.exports) addExport(scope, decl, file);
  }
  return scope;
}

type ImportTarget = { kind: 'file'; rel: string } | { kind: 'package' } | { kind: 'problem'; message: string };

function locateImport(spec: string, repoRoot: string, where: Where): ImportTarget {
  let rel: string | undefined;
  try {
    rel = resolveSpecifier(spec, where);
  } catch (err) {
    if (err instanceof RenderError) return { kind: 'problem', message: `${spec} points outside the repository` };
    throw err;
  }
  if (rel === undefined || !(MDX_EXT.test(rel) || SCRIPT_EXT.test(rel) || path.posix.extname(rel) === '')) return { kind: 'package' };
  const target = withExtension(rel, repoRoot);
  if (target === undefined) return { kind: 'problem', message: `${spec} was not found in the repository` };
  try {
    resolveRepoFile(repoRoot, target);
  } catch (err) {
    if (err instanceof RepoFileError && err.problem === 'outside') return { kind: 'problem', message: `${spec} points outside the repository (a symbolic link)` };
    if (err instanceof RepoFileError) return { kind: 'problem', message: `${spec} was not found in the repository` };
    throw err;
  }
  return { kind: 'file', rel: target };
}

function addExport(scope: Scope, decl: ExportDecl, file: string): void {
  const v = decl.value;
  if (v.kind === 'literal') {
    scope.values.set(decl.name, v.value);
    return;
  }
  if (v.kind === 'arrow') {
    scope.components.set(decl.name, {
      kind: 'arrow',
      file,
      source: v.body,
      firstLine: v.bodyLine,
      params: v.params,
      ...(v.propsName === undefined ? {} : { propsName: v.propsName }),
      body: v.nodes,
      scope,
    });
    return;
  }
  if (v.component && scope.module) {
    const exported = decl.exported !== false;
    if (!exported) scope.module.locals.push(decl.name);
    scope.components.set(decl.name, { kind: 'module', module: scope.module, exportName: decl.name, exported, line: decl.line });
    return;
  }
  scope.components.set(decl.name, { kind: 'opaque', file, line: decl.line, reason: v.reason });
}

function withExtension(rel: string, repoRoot: string): string | undefined {
  if (path.posix.extname(rel) !== '') return exists(repoRoot, rel) ? rel : undefined;
  for (const ext of ['.mdx', '.md', '.jsx', '.js', '.tsx', '.ts']) if (exists(repoRoot, rel + ext)) return rel + ext;
  return undefined;
}

/** A file, or a link (which readParsed then refuses by name if it leads outside the repository). */
function exists(repoRoot: string, rel: string): boolean {
  recordProbe(repoRoot, rel);
  try {
    const st = fs.lstatSync(path.join(repoRoot, rel), { throwIfNoEntry: false });
    return st !== undefined && (st.isFile() || st.isSymbolicLink());
  } catch {
    return false; // ENOTDIR, ENAMETOOLONG, ELOOP: not a file the import can name
  }
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
  if (cached && cached.size === stat.size && cached.mtimeMs === stat.mtimeMs) {
    recordReadHash(rel, cached.sha256);
    return cached;
  }
  let source: string;
  let bytes: Buffer;
  try {
    bytes = readRepoFile(repoRoot, rel);
    source = withoutPlaceholders(bytes.toString('utf8'));
  } catch (err) {
    if (!(err instanceof RepoFileError)) throw err;
    throw new RenderError(`Snippet path /${rel}: ${err.message}`, where);
  }
  const parsed = SCRIPT_EXT.test(rel) ? parseScriptFile(rel, source) : parseMdxFile(rel, source);
  const entry: ParsedFile = { size: stat.size, mtimeMs: stat.mtimeMs, sha256: sha256(bytes), ...parsed };
  if (fileCache.size >= FILE_CACHE_LIMIT) fileCache.clear();
  fileCache.set(real, entry);
  return entry;
}

type ParsedContent = Omit<ParsedFile, 'size' | 'mtimeMs' | 'sha256'>;

function parseMdxFile(rel: string, source: string): ParsedContent {
  const split = splitFrontmatter(rel, source);
  const tree = parseMdx(rel, split.body, split.bodyLineOffset + 1, { esm: true });
  return { file: rel, source: split.body, firstLine: split.bodyLineOffset + 1, nodes: tree.nodes, esm: esmBlocks(tree.nodes) };
}

/** The import/export blocks of a parsed page or .mdx snippet, read as data. */
export function esmBlocks(nodes: Node[]): EsmEntry[] {
  const esm: EsmEntry[] = [];
  for (const node of nodes) if (node.kind === 'esm') esm.push({ block: parseEsmBlock(node.program, node.code, node.line), line: node.line, code: node.code });
  return esm;
}

/**
 * A .js/.jsx/.ts/.tsx snippet: one module, parsed whole. TypeScript types are stripped first with
 * sucrase (as Mintlify's build does), which keeps every line where it was; JSX is kept for acorn.
 */
function parseScriptFile(rel: string, source: string): ParsedContent {
  const code = TYPESCRIPT_EXT.test(rel) ? stripTypes(rel, source) : source;
  const parsed = parseModule(code);
  if ('error' in parsed) {
    const at = lineColumn(code, parsed.error.offset);
    throw new RenderError(`Could not parse: ${parsed.error.message}`, { file: rel, line: at.line, column: at.column });
  }
  return { file: rel, source: code, firstLine: 1, nodes: [], esm: [{ block: parseEsmBlock(parsed.program, code, 1), line: 1, code }] };
}

function stripTypes(rel: string, source: string): string {
  try {
    return transform(source, {
      transforms: rel.endsWith('x') ? ['typescript', 'jsx'] : ['typescript'],
      jsxRuntime: 'preserve',
      disableESTransforms: true,
      keepUnusedImports: true,
      filePath: rel,
    }).code;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const loc = /\((\d+):(\d+)\)\s*$/.exec(message);
    throw new RenderError(`Could not parse: ${message.replace(/\s*\(\d+:\d+\)\s*$/, '')}`, {
      file: rel,
      ...(loc ? { line: Number(loc[1]), column: Number(loc[2]) + 1 } : {}),
      cause: err,
    });
  }
}
