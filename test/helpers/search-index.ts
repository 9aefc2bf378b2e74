import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import MiniSearch from 'minisearch';
import { SEARCH_INDEX_OPTIONS } from '../../renderer/search-options.js';
import { clientScriptSource } from '../../renderer/theme/assets.js';

/** Anything that hands out bundle files by path: an export's `files`, or a directory. */
export type BundleFiles = { get(path: string): Uint8Array | undefined };

export function dirFiles(dir: string): BundleFiles {
  return { get: (p) => (fs.existsSync(path.join(dir, p)) ? new Uint8Array(fs.readFileSync(path.join(dir, p))) : undefined) };
}

function readJson<T>(files: BundleFiles, p: string): T {
  const bytes = files.get(p);
  if (!bytes) throw new Error(`no ${p} in the bundle`);
  return JSON.parse(new TextDecoder().decode(bytes)) as T;
}

export interface ScopeMeta {
  key: string;
  language?: string;
  version?: string;
  documentCount: number;
  fieldIds: Record<string, number>;
  averageFieldLength: number[];
  fieldLength: number[][];
  docsPerChunk: number;
  terms: string[];
  termFiles: string[];
  docFiles: string[];
}

export function searchScopesOf(files: BundleFiles): { key: string; language?: string; version?: string; pages: number }[] {
  return readJson<{ scopes: { key: string; language?: string; version?: string; pages: number }[] }>(files, '_search/scopes.json').scopes;
}

export function scopeMeta(files: BundleFiles, key: string): ScopeMeta {
  return readJson<ScopeMeta>(files, `_search/${key}/meta.json`);
}

/**
 * One scope's whole index as one MiniSearch instance (every chunk joined, ids = page URLs, stored
 * fields filled in): what the single `_search/index.json` of earlier bundles held for these pages.
 */
export function wholeScopeIndex(files: BundleFiles, key: string): MiniSearch {
  const meta = scopeMeta(files, key);
  const dir = `_search/${key}/`;
  const index = meta.termFiles.flatMap((f) => readJson<[string, unknown][]>(files, dir + f));
  const docs = meta.docFiles.flatMap((f) => readJson<(string | undefined)[][]>(files, dir + f));
  const documentIds: Record<number, string> = {};
  const storedFields: Record<number, Record<string, string>> = {};
  docs.forEach(([url, title, section], id) => {
    documentIds[id] = url as string;
    storedFields[id] = { url: url as string, title: title as string, ...(section ? { section } : {}) };
  });
  return MiniSearch.loadJS(
    {
      documentCount: meta.documentCount,
      nextId: meta.documentCount,
      documentIds,
      fieldIds: meta.fieldIds,
      fieldLength: meta.fieldLength,
      averageFieldLength: meta.averageFieldLength,
      storedFields,
      dirtCount: 0,
      index,
      serializationVersion: 2,
    } as never,
    SEARCH_INDEX_OPTIONS as never,
  );
}

/** The URL of every page the index of the bundle in `dir` can return. */
export function searchUrls(dir: string): string[] {
  const files = dirFiles(dir);
  return searchScopesOf(files).flatMap(({ key }) =>
    scopeMeta(files, key).docFiles.flatMap((f) => readJson<string[][]>(files, `_search/${key}/${f}`).map((d) => d[0] as string)),
  );
}

export interface ClientResult {
  url: string;
  title: string;
  section?: string;
  score: number;
  scope: string;
  label?: string;
}

export interface ClientSearch {
  search(query: string, opts?: { wide?: boolean; limit?: number }): Promise<{ results: ClientResult[]; total: number }>;
  /** Paths fetched so far, and their bytes. */
  fetched: string[];
  fetchedBytes(): number;
}

/**
 * The real search.js's split-index search (docsShardedSearch), run in a sandbox over the bundle's
 * files, as a reader's browser would on a page of `scope`.
 */
export function clientSearch(files: BundleFiles, scope: string): ClientSearch {
  const source = clientScriptSource('search.js');
  const window: Record<string, unknown> = {};
  vm.runInNewContext(source, { window, document: { currentScript: null, getElementById: () => null, documentElement: { getAttribute: () => null } } });
  const fetched: string[] = [];
  let bytes = 0;
  const factory = window['docsShardedSearch'] as (o: unknown) => ClientSearch;
  const engine = factory({
    base: '/_search/',
    scope,
    MiniSearch,
    searchOptions: SEARCH_INDEX_OPTIONS,
    fetchJson: async (url: string) => {
      const p = url.replace(/^\//, '');
      fetched.push(p);
      const data = files.get(p);
      if (!data) throw new Error(`404 ${url}`);
      bytes += data.length;
      return JSON.parse(new TextDecoder().decode(data)) as unknown;
    },
  });
  return { search: (q, o) => engine.search(q, o), fetched, fetchedBytes: () => bytes };
}
