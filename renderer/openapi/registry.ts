/**
 * The export's OpenAPI documents: each parsed once (on the main thread, in the plan stage), found
 * by path or short name, and asked for operations by `METHOD /path`. Specs the config never names
 * are found too (Mintlify reads every spec of the repository): files ending in .json/.yaml/.yml
 * whose first lines say `openapi` or `swagger`, looked at only when a reference needs them.
 */
import path from 'node:path';
import { isOutsideBundle } from '../repo-paths.js';
import { openRepoFile } from '../repo-files.js';
import fs from 'node:fs';
import type { BuildWarning } from '../types.js';
import { loadSpec, type ParsedSpec } from './load-spec.js';
import { compactOperation, listOperations, type ApiSettings, type OperationEntry } from './operation.js';
import type { OperationRef } from './refs.js';
import { bundleExternalRefs } from './bundle-refs.js';
import { RefResolver } from './resolve.js';
import { fragmentRef } from './spec-fragment.js';
import { compactSchema, MAX_SCHEMA_NODES } from './schema.js';
import type { ApiOperation, ApiSchemaPage } from './types.js';

const SPEC_EXT = /\.(json|ya?ml)$/i;
const NOT_SPECS = new Set(['docs.json', 'mint.json', 'package.json', 'package-lock.json', 'tsconfig.json']);
const HEAD_BYTES = 4096;
const SPEC_HEAD = /(^|[\n{,])\s*["']?(openapi|swagger)["']?\s*:\s*["']?[23]\./;

export interface FoundOperation {
  spec: ParsedSpec;
  entry: OperationEntry;
}

export class SpecRegistry {
  private readonly specs = new Map<string, ParsedSpec | null>();
  private readonly ops = new Map<string, OperationEntry[]>();
  private discovered: string[] | undefined;
  private readonly reported = new Set<string>();
  private readonly fileSet: ReadonlySet<string>;
  readonly resolver: RefResolver;
  /** Documents whose operations pages' Markdown shows: handed to the render workers once. */
  readonly markdownDocs = new Map<string, Record<string, unknown>>();

  constructor(
    private readonly repoRoot: string,
    private readonly files: readonly string[],
    readonly settings: ApiSettings,
    private readonly warnings: BuildWarning[],
    /** Specs the config names (api.openapi, mint.json openapi): searched first for bare `METHOD /path`. */
    readonly configured: string[] = [],
  ) {
    this.resolver = new RefResolver(repoRoot, warnings);
    this.fileSet = new Set(files);
  }

  private warnOnce(code: string, message: string, file: string): void {
    const key = `${code}:${message}`;
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.warnings.push({ code, message, file });
  }

  /**
   * A spec named in the config or a page (`openapi.json`, `/specs/v2.yaml`, `v2`): its repository
   * path, or undefined with a warning (a URL, outside the repository, not there).
   */
  locate(name: string, where: string): string | undefined {
    const trimmed = name.trim();
    if (isOutsideBundle(trimmed)) {
      this.warnOnce('openapi-remote', `OpenAPI spec ${trimmed} is a URL: exports run without network access, so its pages are not built; add the file to the repository and name its path instead`, where);
      return undefined;
    }
    const rel = path.posix.normalize(trimmed.replace(/^\.?\/+/, ''));
    if (rel.startsWith('../') || rel === '..') {
      this.warnOnce('openapi-missing', `OpenAPI spec ${trimmed} is outside the repository; its pages are not built`, where);
      return undefined;
    }
    if (this.fileSet.has(rel)) return rel;
    // A short name: a spec of the repository with that file name, with or without its extension.
    const candidates = this.discover().filter((f) => {
      const base = path.posix.basename(f);
      return base === rel || base.replace(SPEC_EXT, '') === rel || f.replace(SPEC_EXT, '') === rel;
    });
    if (candidates[0]) return candidates[0];
    this.warnOnce('openapi-missing', `OpenAPI spec ${trimmed} is not a file of the repository; its pages are not built`, where);
    return undefined;
  }

  /** Every spec-looking file of the repository, sorted (Mintlify: first match in file name order). */
  discover(): string[] {
    if (this.discovered) return this.discovered;
    this.discovered = this.files
      .filter((f) => SPEC_EXT.test(f) && !NOT_SPECS.has(path.posix.basename(f)) && !f.split('/').some((p) => p.startsWith('.') || p === 'node_modules'))
      .filter((f) => this.looksLikeSpec(f))
      .sort();
    return this.discovered;
  }

  private looksLikeSpec(file: string): boolean {
    try {
      const { fd } = openRepoFile(this.repoRoot, file);
      try {
        const buf = Buffer.alloc(HEAD_BYTES);
        const n = fs.readSync(fd, buf, 0, HEAD_BYTES, 0);
        return SPEC_HEAD.test(buf.subarray(0, n).toString('utf8'));
      } finally {
        fs.closeSync(fd);
      }
    } catch {
      return false;
    }
  }

  spec(file: string): ParsedSpec | undefined {
    let s = this.specs.get(file);
    if (s === undefined) {
      s = loadSpec(this.repoRoot, file, this.warnings) ?? null;
      this.specs.set(file, s);
      if (s) this.resolver.addDocument(file, s.doc);
    }
    return s ?? undefined;
  }

  operations(file: string): OperationEntry[] {
    let list = this.ops.get(file);
    if (!list) {
      const spec = this.spec(file);
      list = spec ? listOperations(spec, this.resolver) : [];
      this.ops.set(file, list);
    }
    return list;
  }

  private findIn(file: string, ref: OperationRef): FoundOperation | undefined {
    const spec = this.spec(file);
    if (!spec) return undefined;
    const list = this.operations(file);
    const alt = ref.path.endsWith('/') && ref.path.length > 1 ? ref.path.slice(0, -1) : `${ref.path}/`;
    const entry =
      list.find((e) => e.method === ref.method && e.path === ref.path) ??
      list.find((e) => e.method === ref.method && e.path === alt) ??
      // `WEBHOOK /name` for a webhook keyed `name`, and the other way round.
      (ref.method === 'WEBHOOK' ? list.find((e) => e.method === 'WEBHOOK' && e.path.replace(/^\//, '') === ref.path.replace(/^\//, '')) : undefined);
    return entry ? { spec, entry } : undefined;
  }

  /**
   * The operation a reference names: in its own spec when it names one, else in the inherited
   * specs (navigation), else in those the config names, else in every spec of the repository.
   */
  find(ref: OperationRef, inherited: readonly string[], where: string): FoundOperation | undefined {
    if (ref.spec !== undefined) {
      const file = this.locate(ref.spec, where);
      return file === undefined ? undefined : this.findIn(file, ref);
    }
    for (const group of [inherited, this.configured]) {
      for (const file of group) {
        const hit = this.findIn(file, ref);
        if (hit) return hit;
      }
    }
    for (const file of this.discover()) {
      if (inherited.includes(file) || this.configured.includes(file)) continue;
      const hit = this.findIn(file, ref);
      if (hit) return hit;
    }
    return undefined;
  }

  /** The operation as pages show it; `written` is the page's `openapi` frontmatter, when it has one. */
  compact(found: FoundOperation, written?: string): ApiOperation {
    const op = compactOperation(found.spec, found.entry, this.resolver, this.settings);
    if (this.settings.specInMarkdown) {
      op.specFragment = fragmentRef(found.spec, found.entry, written);
      if (!this.markdownDocs.has(found.spec.file)) this.markdownDocs.set(found.spec.file, this.markdownDoc(found.spec));
    }
    return op;
  }

  /** The document pages' Markdown cuts their part from: one document even when the spec is split. */
  private markdownDoc(spec: ParsedSpec): Record<string, unknown> {
    try {
      return bundleExternalRefs(spec.doc, spec.file, this.resolver);
    } catch {
      // Nothing a parsed document holds should get here; its refs then stay as written.
      return spec.doc;
    }
  }

  /** `openapi-schema: Name` → the schema, from the named spec or the first spec that has it. */
  schemaPage(ref: { spec?: string; name: string }, where: string): ApiSchemaPage | undefined {
    const files = ref.spec !== undefined ? [this.locate(ref.spec, where)].filter((f): f is string => f !== undefined) : [...this.configured, ...this.discover()];
    for (const file of files) {
      const spec = this.spec(file);
      const components = spec?.doc['components'];
      const schemas = typeof components === 'object' && components !== null ? (components as Record<string, unknown>)['schemas'] : undefined;
      if (!spec || typeof schemas !== 'object' || schemas === null || !Object.hasOwn(schemas, ref.name)) continue;
      const ctx = { resolver: this.resolver, budget: { left: MAX_SCHEMA_NODES }, postKeys: this.settings.postKeys };
      return { name: ref.name, specFile: file, schema: compactSchema((schemas as Record<string, unknown>)[ref.name], file, ctx), expandAll: this.settings.expandAll };
    }
    return undefined;
  }
}
