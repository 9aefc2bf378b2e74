/**
 * `$ref` resolution on demand, while an operation is compacted: a pointer into the same document
 * or into another file of the repository (read through the confined reader, parsed once per
 * export). A reference to a URL or out of the repository is a warning, once, and reads as `{}`.
 */
import { isOutsideBundle, toRepoPath } from '../repo-paths.js';
import type { BuildWarning } from '../types.js';
import { loadSpecFile } from './spec-file.js';
import type { Json } from './load-spec.js';

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface Resolved {
  node: unknown;
  /** The file the node lives in (its own `$ref`s resolve from there). */
  file: string;
  /** `Pet` for `#/components/schemas/Pet`: a name to show where a schema recurs. */
  name?: string;
}

/** How many `$ref` → `$ref` hops are followed before giving up (a ref to itself). */
const MAX_HOPS = 32;

export class RefResolver {
  private readonly docs = new Map<string, unknown>();
  private readonly reported = new Set<string>();
  /** Files that could not be read or parsed, with why. */
  private readonly unreadable = new Map<string, string>();

  constructor(
    private readonly repoRoot: string,
    private readonly warnings: BuildWarning[],
  ) {}

  /** Register a parsed document (the spec itself) so pointers into it need no read. */
  addDocument(file: string, doc: unknown): void {
    this.docs.set(file, doc);
  }

  /** A warning about the spec, given once per key however many operations meet it. */
  warnOnce(code: string, key: string, message: string, file: string): void {
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.warnings.push({ code, message, file });
  }

  private document(file: string, from: string, report: boolean): unknown {
    if (!this.docs.has(file)) {
      const doc = loadSpecFile(this.repoRoot, file);
      this.docs.set(file, 'error' in doc ? undefined : doc.value);
      if ('error' in doc) this.unreadable.set(file, doc.error);
    }
    // Told whenever a reporting reader meets it (once, by key): a quiet lookUp may have read it first.
    const error = this.unreadable.get(file);
    if (error !== undefined && report) this.warnOnce('openapi-ref', `file:${file}`, `${from} refers to ${file}, which ${error}; the reference is shown as an empty schema`, from);
    return this.docs.get(file);
  }

  /** Follows `node`'s `$ref` chain (if any) to the value it names. */
  resolve(node: unknown, file: string): Resolved {
    let current: Resolved = { node, file };
    for (let hop = 0; hop < MAX_HOPS; hop++) {
      if (!isObj(current.node) || typeof current.node['$ref'] !== 'string') return current;
      const next = this.follow(current.node['$ref'], current.file);
      if (next === undefined) return { node: {}, file: current.file };
      current = next;
    }
    this.warnOnce('openapi-ref', `loop:${file}`, `${file} has a $ref chain that never ends; shown as an empty schema`, file);
    return { node: {}, file };
  }

  /**
   * Where a `$ref` written in `from` points, without following the target's own `$ref` and without
   * a warning (compacting the operations reports broken references): the node, its file and the
   * pointer into that file (`/components/schemas/Pet`, or `` for the whole file).
   */
  lookUp(ref: string, from: string): (Resolved & { pointer: string }) | undefined {
    return this.follow(ref, from, false);
  }

  private follow(ref: string, from: string, report = true): (Resolved & { pointer: string }) | undefined {
    const hash = ref.indexOf('#');
    const target = hash === -1 ? ref : ref.slice(0, hash);
    const written = hash === -1 ? '' : ref.slice(hash + 1);
    let file = from;
    if (target !== '') {
      if (isOutsideBundle(target)) {
        if (report) this.warnOnce('openapi-ref', `url:${target}`, `${from} refers to ${target}, a URL: specs are read without network access, so the reference is shown as an empty schema`, from);
        return undefined;
      }
      const rel = toRepoPath(target, from);
      if (rel === undefined) {
        if (report) this.warnOnce('openapi-ref', `outside:${target}`, `${from} refers to ${target}, outside the repository; the reference is shown as an empty schema`, from);
        return undefined;
      }
      file = rel;
    }
    let node = this.document(file, from, report);
    if (node === undefined) return undefined;
    const parts = written === '' || written === '/' ? [] : written.replace(/^\//, '').split('/');
    for (const raw of parts) {
      const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      if (Array.isArray(node)) node = node[Number(key)];
      else if (isObj(node) && Object.hasOwn(node, key)) node = node[key];
      else {
        if (report) this.warnOnce('openapi-ref', `missing:${file}#${written}`, `${from} refers to ${ref}, which does not exist; shown as an empty schema`, from);
        return undefined;
      }
    }
    const pointer = parts.length === 0 ? '' : `/${parts.join('/')}`;
    // A schema component is named by its key; a whole file (`schemas/User.yaml`) by its base name,
    // so a schema that recurs through its own file reads "refers back to User", not "object".
    const name = parts.length >= 2 && (parts[parts.length - 2] === 'schemas' || parts[parts.length - 2] === 'definitions') ? parts[parts.length - 1] : parts.length === 0 && target !== '' ? fileStem(file) : undefined;
    return { node, file, pointer, ...(name ? { name } : {}) };
  }
}

/** `User` for `api/components/schemas/User.yaml`. */
function fileStem(file: string): string | undefined {
  const base = file.split('/').pop() ?? '';
  const stem = base.replace(/\.(ya?ml|json)$/i, '');
  return stem !== '' && stem !== base ? stem : undefined;
}
