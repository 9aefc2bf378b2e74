import { createHash } from 'node:crypto';
import { wrap, type Requirement } from '../access/contract.js';
import { SEARCH_INDEX_OPTIONS, SEARCH_ROOT } from '../search-options.js';
import type { PackedPartialIndex } from './partial-index.js';
import type { SearchScope } from './scopes.js';

/**
 * The site's search index, split so that a reader's query downloads a small part of it (Pagefind's
 * design, on MiniSearch's format and scoring):
 *
 * - one index per search scope (language × version; see scopes.ts), each with MiniSearch's own
 *   statistics (document count, field lengths), so a scope's results score exactly as a
 *   MiniSearch index of only those pages would;
 * - a scope's terms, sorted, cut into chunks of about TERM_CHUNK_BYTES; `meta.json` lists each
 *   chunk's first term, so a query term (and its prefix completions) is looked up in the one or
 *   few chunks that can hold it;
 * - the stored fields (url, title, section) in chunks of DOCS_PER_CHUNK pages, fetched only for
 *   the results shown.
 *
 * Chunk files are named by content hash (immutable, cacheable forever); `meta.json` and
 * `scopes.json` have fixed names so search.js finds them without knowing the build.
 * The serialised entries are MiniSearch's (serialisation version 2): the browser joins the meta
 * and the chunks it fetched and hands them to `MiniSearch.loadJS`.
 */

/** Raw JSON bytes a term chunk aims at (about a quarter of that gzipped). */
export const TERM_CHUNK_BYTES = 24 * 1024;
/** Pages per stored-fields chunk. */
export const DOCS_PER_CHUNK = 100;

/**
 * A term's postings as flat triples (field id, local doc id, term frequency), in the order the
 * batches arrive (plan order): three numbers in an array instead of two levels of objects, which
 * at 25,000 pages was most of the main thread's heap. Turned into MiniSearch's nested shape only
 * when the term's chunk is written.
 */
type Postings = number[];

function nested(flat: Postings): Record<number, Record<number, number>> {
  const byField: Record<number, Record<number, number>> = {};
  for (let i = 0; i < flat.length; i += 3) (byField[flat[i] as number] ??= {})[flat[i + 1] as number] = flat[i + 2] as number;
  return byField;
}

interface ScopeIndex {
  scope: SearchScope;
  terms: Map<string, Postings>;
  /** Stored fields by local id: [url, title, section?]. */
  docs: (string | undefined)[][];
  fieldLength: number[][];
  lengthSums: number[];
  lengthCounts: number[];
}

export interface ShardedIndexBuilder {
  /** Merge one batch's partial index (call in a fixed batch order for a deterministic index). */
  add(partial: PackedPartialIndex): void;
  readonly size: number;
  /** Every file of the index: bundle path → bytes. */
  finish(): [string, Uint8Array][];
}

/** scopeOf(global page id) → the page's scope; a page without one is left out of search. */
export function createShardedIndexBuilder(scopes: readonly SearchScope[], scopeOf: (id: number) => SearchScope | undefined): ShardedIndexBuilder {
  const fieldCount = SEARCH_INDEX_OPTIONS.fields.length;
  const indexes = new Map<string, ScopeIndex>();
  for (const scope of scopes) indexes.set(scope.key, emptyScope(scope, fieldCount));
  const seenUrls = new Set<string>();
  let documentCount = 0;

  return {
    add(partial) {
      // Global id → [scope index, local id] for this batch's documents.
      const local = new Map<number, [ScopeIndex, number]>();
      for (const d of partial.docs) {
        const scope = scopeOf(d.id);
        if (!scope || seenUrls.has(d.url)) continue;
        seenUrls.add(d.url);
        let index = indexes.get(scope.key);
        if (!index) indexes.set(scope.key, (index = emptyScope(scope, fieldCount)));
        const id = index.docs.length;
        const stored = d.stored;
        index.docs.push(stored['section'] === undefined ? [stored['url'], stored['title']] : [stored['url'], stored['title'], stored['section']]);
        index.fieldLength.push(d.lengths);
        d.lengths.forEach((n, f) => {
          index.lengthSums[f] = (index.lengthSums[f] ?? 0) + n;
          index.lengthCounts[f] = (index.lengthCounts[f] ?? 0) + 1;
        });
        local.set(d.id, [index, id]);
        documentCount++;
      }
      const flat = partial.postings;
      partial.terms.forEach((term, slot) => {
        const end = partial.offsets[slot + 1] as number;
        for (let i = partial.offsets[slot] as number; i < end; i += 3) {
          const target = local.get(flat[i + 1] as number);
          if (!target) continue;
          const [index, id] = target;
          let postings = index.terms.get(term);
          if (postings === undefined) index.terms.set(term, (postings = []));
          postings.push(flat[i] as number, id, flat[i + 2] as number);
        }
      });
    },
    get size() {
      return documentCount;
    },
    finish() {
      const files: [string, Uint8Array][] = [];
      const list: Record<string, unknown>[] = [];
      const restricted: [Requirement, Record<string, unknown>][] = [];
      const split = new Set<string>();
      for (const index of indexes.values()) if (index.scope.scope !== undefined) split.add(index.scope.scope);
      for (const index of indexes.values()) {
        files.push(...scopeFiles(index, split.has(index.scope.key)));
        const entry = { key: index.scope.key, ...labels(index.scope), pages: index.docs.length };
        if (index.scope.requirement) restricted.push([index.scope.requirement, { ...entry, scope: index.scope.scope }]);
        else list.push(entry);
      }
      if (restricted.length === 0) files.push([`${SEARCH_ROOT}scopes.json`, json({ v: 1, scopes: list })]);
      else {
        // Reader access: each restricted shard's entry is a fragment with its separator inside,
        // after the public ones (every scope has its public shard), so that removing any of them
        // leaves valid JSON.
        const open = JSON.stringify({ v: 1, scopes: list }).slice(0, -2);
        const text = open + restricted.map(([req, e]) => wrap(req, `,${JSON.stringify(e)}`)).join('') + ']}';
        files.push([`${SEARCH_ROOT}scopes.json`, encoder.encode(text)]);
      }
      return files;
    },
  };
}

function emptyScope(scope: SearchScope, fieldCount: number): ScopeIndex {
  return { scope, terms: new Map(), docs: [], fieldLength: [], lengthSums: new Array<number>(fieldCount).fill(0), lengthCounts: new Array<number>(fieldCount).fill(0) };
}

function labels(scope: SearchScope): Record<string, string> {
  return { ...(scope.language !== undefined ? { language: scope.language } : {}), ...(scope.version !== undefined ? { version: scope.version } : {}) };
}

const encoder = new TextEncoder();
const json = (value: unknown): Uint8Array => encoder.encode(JSON.stringify(value));

function hashed(dir: string, kind: string, bytes: Uint8Array): string {
  return `${dir}${kind}.${createHash('sha256').update(bytes).digest('hex').slice(0, 12)}.json`;
}

/** `split`: the scope has restricted shards too (reader access), so search.js reads the listing for them. */
function scopeFiles(index: ScopeIndex, split: boolean): [string, Uint8Array][] {
  const dir = `${SEARCH_ROOT}${index.scope.key}/`;
  const files: [string, Uint8Array][] = [];
  // Code-unit order, as the browser compares strings when it looks a term up.
  const terms = [...index.terms.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const firstTerms: string[] = [];
  const termFiles: string[] = [];
  let chunk: string[] = [];
  let bytes = 0;
  const flush = (): void => {
    if (chunk.length === 0) return;
    const data = encoder.encode(`[${chunk.join(',')}]`);
    const name = hashed(dir, 't', data);
    files.push([name, data]);
    termFiles.push(name.slice(dir.length));
    chunk = [];
    bytes = 0;
  };
  for (const term of terms) {
    const entry = JSON.stringify([term, nested(index.terms.get(term) as Postings)]);
    if (chunk.length === 0) firstTerms.push(term);
    chunk.push(entry);
    bytes += entry.length + 1;
    if (bytes >= TERM_CHUNK_BYTES) flush();
  }
  flush();
  const docFiles: string[] = [];
  for (let i = 0; i < index.docs.length; i += DOCS_PER_CHUNK) {
    const data = json(index.docs.slice(i, i + DOCS_PER_CHUNK));
    const name = hashed(dir, 'd', data);
    files.push([name, data]);
    docFiles.push(name.slice(dir.length));
  }
  const n = index.docs.length;
  const meta = {
    v: 1,
    key: index.scope.key,
    ...(index.scope.scope !== undefined ? { scope: index.scope.scope } : {}),
    ...(split ? { shards: true } : {}),
    ...labels(index.scope),
    documentCount: n,
    fieldIds: Object.fromEntries(SEARCH_INDEX_OPTIONS.fields.map((f, i) => [f, i])),
    averageFieldLength: index.lengthSums.map((sum, f) => (index.lengthCounts[f] ? sum / (index.lengthCounts[f] as number) : 0)),
    fieldLength: index.fieldLength,
    docsPerChunk: DOCS_PER_CHUNK,
    terms: firstTerms,
    termFiles,
    docFiles,
  };
  files.push([`${dir}meta.json`, json(meta)]);
  // Written: the postings of this scope are garbage before the next scope's are serialised.
  index.terms.clear();
  return files;
}
