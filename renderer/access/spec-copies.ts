/**
 * The spec files a bundle with reader access carries, as written (issue 40, docs/reader-access.md
 * "Spec files"): each spec behind a page as its public view, and each file a spec reaches through
 * an external `$ref` (`$ref: schemas/User.yaml`) as its public view too, since that file is in the
 * bundle as well (every repository file is an asset) and would otherwise hand out what the spec's
 * copy leaves out. A split spec's copy is first made one document (bundle-refs.ts, as the pages'
 * Markdown reads it), so restrictions on another file's schemas are seen and its copy does not
 * name files by paths the bundle does not have.
 */
import { bundleExternalRefs } from '../openapi/bundle-refs.js';
import type { Json } from '../openapi/load-spec.js';
import { RefResolver } from '../openapi/resolve.js';
import { refsIn } from '../openapi/spec-fragment.js';
import { loadSpecFile } from '../openapi/spec-file.js';
import { requirementOf, type Requirement } from './contract.js';
import { publicSpecText } from './public-spec.js';
import type { SpecAccess } from './spec-access.js';

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * What to write for a spec file or a file a spec refers to (repository path): its public view, or
 * (`text` undefined: not copyable as JSON) the file as it is, restricted. `requirement`: who may
 * fetch it when that is narrower than the bundle's default.
 */
export interface SpecCopy {
  text?: string;
  requirement?: Requirement;
}

/** Files reached from `file` through `$ref`s to other files, transitively (`file` itself not included). */
function referencedFiles(file: string, doc: unknown, resolver: RefResolver, repoRoot: string): Map<string, unknown> {
  const found = new Map<string, unknown>();
  const queue: [string, unknown][] = [[file, doc]];
  while (queue.length > 0) {
    const [from, node] = queue.shift()!;
    for (const ref of refsIn(node)) {
      if (ref.startsWith('#')) continue;
      const target = resolver.lookUp(ref, from);
      if (!target || target.file === file || found.has(target.file)) continue;
      const loaded = loadSpecFile(repoRoot, target.file);
      const value = 'value' in loaded ? loaded.value : undefined;
      found.set(target.file, value);
      if (value !== undefined) queue.push([target.file, value]);
    }
  }
  return found;
}

function rootGroups(doc: unknown): string[] {
  if (!isObj(doc) || !isObj(doc['x-mint']) || !Array.isArray(doc['x-mint']['groups'])) return [];
  return doc['x-mint']['groups'].map(String);
}

/** The copy of every spec behind a page and of every file they refer to, by repository path. */
export function specCopies(repoRoot: string, assets: Readonly<Record<string, string>>, specs: SpecAccess): Map<string, SpecCopy> {
  const copies = new Map<string, SpecCopy>();
  const resolver = new RefResolver(repoRoot, []);
  const referenced = new Map<string, unknown>();
  for (const [file, view] of specs.publicViews) {
    const loaded = loadSpecFile(repoRoot, file);
    const doc = 'value' in loaded ? loaded.value : undefined;
    if (isObj(doc)) {
      resolver.addDocument(file, doc);
      for (const [f, v] of referencedFiles(file, doc, resolver, repoRoot)) referenced.set(f, v);
    }
    const text = isObj(doc) ? publicSpecText(oneDocument(doc, file, resolver), view.hidden) : undefined;
    copies.set(file, text === undefined ? {} : { text });
  }
  for (const [file, doc] of referenced) {
    // A spec behind pages is written as its own view above; a file no asset holds is not in the bundle.
    if (copies.has(file) || assets[file] === undefined) continue;
    const groups = rootGroups(doc);
    const text = isObj(doc) ? publicSpecText(oneDocument(doc, file, resolver), []) : undefined;
    // A file whose whole content is for some groups (`x-mint.groups` at its root) is theirs only.
    copies.set(file, { ...(text === undefined ? {} : { text }), ...(groups.length > 0 ? { requirement: requirementOf({ groups }) } : {}) });
  }
  return copies;
}

function oneDocument(doc: Json, file: string, resolver: RefResolver): Json {
  try {
    return bundleExternalRefs(doc, file, resolver);
  } catch {
    return doc;
  }
}
