import { parse as parseYaml } from 'yaml';
import { operationKey, parseOperationRef } from '../openapi/refs.js';
import { splitFrontmatter } from '../page/frontmatter.js';
import { readRepoText } from '../repo-files.js';
import type { SitePlan } from '../types.js';
import { requirementOf, type Requirement } from './contract.js';

/**
 * Every page's Requirement (issue 40, docs/reader-access.md), on the main thread before rendering,
 * by Mintlify's rules:
 * - frontmatter `groups` (a list) restricts the page to those groups, whatever else applies;
 * - frontmatter `public: true`, or a navigation group with `"public": true` around the page
 *   (nested groups inherit), makes it public; frontmatter `public: false` keeps it restricted;
 * - an OpenAPI operation's `x-mint.groups`, or `paths["x-mint"].groups` for every path of the
 *   spec, restricts the operation's page (a generated one, or an MDX page that names it);
 * - everything else needs a signed-in reader.
 * Only run when the export has reader access on: it reads each page's frontmatter a second time.
 */
export function pageRequirements(plan: SitePlan, rawConfig: unknown): Map<string, Requirement> {
  const navPublic = publicNavSlugs(rawConfig);
  const specs = new Map<string, Record<string, unknown> | null>();
  const spec = (file: string): Record<string, unknown> | null => {
    if (!specs.has(file)) {
      let doc: Record<string, unknown> | null = null;
      try {
        const parsed: unknown = parseYaml(readRepoText(plan.repoRoot, file, 64 * 1024 * 1024));
        if (isObject(parsed)) doc = parsed;
      } catch {
        doc = null;
      }
      specs.set(file, doc);
    }
    return specs.get(file) ?? null;
  };
  const out = new Map<string, Requirement>();
  for (const page of plan.pages) {
    let fm: Record<string, unknown> = {};
    if (!page.generated) {
      try {
        fm = splitFrontmatter(page.file, readRepoText(plan.repoRoot, page.file)).frontmatter;
      } catch {
        fm = {};
      }
    }
    let groups = stringList(fm['groups']);
    if (groups === undefined && page.api?.kind === 'operation') {
      const op = page.api.operation;
      groups = operationGroups(spec(op.specFile), op.method, op.path);
    }
    const op = page.api?.kind === 'operation' ? page.api.operation : undefined;
    const inPublicGroup =
      navPublic.slugs.has(page.slug) ||
      (op !== undefined && (navPublic.operations.has(operationKey(op.method, op.path)) || (page.generated === true && navPublic.specs.has(op.specFile.replace(/^\/+/, '')))));
    const isPublic = typeof fm['public'] === 'boolean' ? fm['public'] : inPublicGroup;
    out.set(page.slug, requirementOf({ public: isPublic, groups: groups ?? null }));
  }
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function stringList(v: unknown): string[] | undefined {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.filter((g): g is string => typeof g === 'string');
  return undefined;
}

function operationGroups(doc: Record<string, unknown> | null, method: string, path: string): string[] | undefined {
  if (!doc) return undefined;
  const paths = isObject(doc['paths']) ? doc['paths'] : undefined;
  const webhooks = isObject(doc['webhooks']) ? doc['webhooks'] : undefined;
  const item = method === 'WEBHOOK' ? webhooks?.[path] : paths?.[path];
  const op = isObject(item) ? (method === 'WEBHOOK' ? Object.values(item).find(isObject) : item[method.toLowerCase()]) : undefined;
  const own = isObject(op) && isObject(op['x-mint']) ? stringList(op['x-mint']['groups']) : undefined;
  if (own !== undefined) return own;
  const all = paths && isObject(paths['x-mint']) ? stringList(paths['x-mint']['groups']) : undefined;
  return all;
}

/** What public navigation groups hold: page slugs, operations (`GET /a`) and whole specs. */
export interface PublicNav {
  slugs: Set<string>;
  operations: Set<string>;
  specs: Set<string>;
}

/** `guides/intro`, `/guides/intro.mdx` → the slug the plan gives the page. */
function slugOfRef(ref: string): string {
  const s = ref.trim().replace(/^\/+/, '').replace(/\.mdx?$/, '');
  return s === '' ? 'index' : s;
}

/**
 * Slugs of pages listed under a navigation group with `"public": true` (docs.json `group` or
 * mint.json `group` objects, at any depth of tabs, anchors, dropdowns…; nested groups inherit).
 */
export function publicNavSlugs(rawConfig: unknown): PublicNav {
  const out = new Set<string>();
  const operations = new Set<string>();
  const specs = new Set<string>();
  const walk = (node: unknown, inherited: boolean): void => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item, inherited);
      return;
    }
    if (!isObject(node)) return;
    const isGroup = typeof node['group'] === 'string';
    const pub = inherited || (isGroup && node['public'] === true);
    if (isGroup && pub) {
      if (typeof node['root'] === 'string') out.add(slugOfRef(node['root']));
      for (const p of Array.isArray(node['pages']) ? node['pages'] : []) {
        if (typeof p !== 'string') continue;
        const op = parseOperationRef(p);
        if (op) operations.add(operationKey(op.method, op.path));
        else out.add(slugOfRef(p));
      }
      // A public group that lists a spec's operations (`"openapi": "spec.json"` or `{source}`) makes their pages public.
      const spec = node['openapi'];
      for (const s of Array.isArray(spec) ? spec : [spec]) {
        const file = typeof s === 'string' ? s : isObject(s) && typeof s['source'] === 'string' ? s['source'] : undefined;
        if (file && !/^https?:/i.test(file)) specs.add(file.replace(/^\/+/, ''));
      }
    }
    for (const [key, value] of Object.entries(node)) if (typeof value === 'object' && value !== null && key !== 'x-mint') walk(value, pub && isGroup ? true : inherited);
  };
  const config = isObject(rawConfig) ? rawConfig : {};
  walk(config['navigation'], false);
  return { slugs: out, operations, specs };
}
