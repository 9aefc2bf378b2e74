/**
 * The plan's side of the API reference: which pages the specs generate, where they sit in the
 * navigation, and the compact data each API page is rendered from (operation pages generated from
 * a spec, and MDX pages whose frontmatter names an operation or a schema).
 */
import type { PageMeta } from '../plan/page-meta.js';
import { normaliseRef } from '../plan/slugs.js';
import type { BuildWarning, PlannedPage, SiteConfig } from '../types.js';
import type { OperationEntry } from './operation.js';
import { operationTitle } from './operation.js';
import { operationKey, parseOperationRef, parseSchemaRef } from './refs.js';
import { SpecRegistry, type FoundOperation } from './registry.js';
import { apiSettings, configuredSources, playgroundSettings, type OpenApiScope } from './settings.js';
import type { ApiPageData } from './types.js';
import { channelIds, channelTitle, compactChannel, loadAsyncApi, type ParsedAsyncApi } from './asyncapi.js';
import { isOutsideBundle } from '../repo-paths.js';
import { dedented, holdsMarkup } from './prose.js';

/** Where Mintlify puts generated pages when `openapi` names no `directory`. */
export const DEFAULT_DIRECTORY = 'api-reference';

/** `Create Customer Session` → `create-customer-session`; `customer_portal` stays as is (as Mintlify's URLs). */
export function pageSlugPart(text: string): string {
  const s = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\s-]+/gu, ' ')
    .trim()
    .replace(/[\s-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return s === '' ? 'endpoint' : s;
}

interface Generated {
  found: FoundOperation;
  meta: PageMeta;
  hidden: boolean;
}

export interface NavGroupOfOperations {
  /** The tag's group title (its `x-group`, else its name); undefined for untagged operations. */
  title?: string;
  /** Slugs of the pages shown, in document order. */
  pages: string[];
  /** Slugs built but left out of the sidebar (`x-hidden`). */
  hiddenPages: string[];
}

export class ApiPlanner {
  readonly registry: SpecRegistry;
  private readonly generated = new Map<string, Generated>();
  /** AsyncAPI channel pages: slug → where the channel is. */
  private readonly channels = new Map<string, { file: string; id: string; meta: PageMeta }>();
  private readonly slugOfChannel = new Map<string, string>();
  private readonly asyncSpecs = new Map<string, ParsedAsyncApi | null>();
  private readonly fileSet: ReadonlySet<string>;
  private readonly repoRoot: string;
  private readonly slugOfOp = new Map<string, string>();
  private readonly reported = new Set<string>();

  constructor(
    repoRoot: string,
    files: readonly string[],
    config: SiteConfig,
    private readonly configFile: string,
    private readonly pageFiles: ReadonlyMap<string, string>,
    private readonly warnings: BuildWarning[],
  ) {
    this.repoRoot = repoRoot;
    this.fileSet = new Set(files);
    const settings = apiSettings(config);
    if (playgroundSettings(config).authMode) {
      warnings.push({ code: 'openapi-playground-auth', message: 'api.playground.display "auth" shows the playground to signed-in readers only; readers of this site do not sign in, so it is shown as "simple" (a copyable endpoint)', file: configFile });
    }
    this.registry = new SpecRegistry(repoRoot, files, settings, warnings, []);
    for (const source of configuredSources(config)) {
      const file = this.registry.locate(source, configFile);
      if (file !== undefined) this.registry.configured.push(file);
    }
  }

  private scopeFiles(scope: OpenApiScope | undefined): string[] {
    if (!scope) return [];
    return scope.sources.map((s) => this.registry.locate(s, this.configFile)).filter((f): f is string => f !== undefined);
  }

  /** The slug of the page generated for an operation (made once per operation and directory). */
  private pageFor(found: FoundOperation, directory: string | undefined): string {
    const { entry, spec } = found;
    const key = `${spec.file}\u0000${operationKey(entry.method, entry.path)}\u0000${directory ?? ''}`;
    const known = this.slugOfOp.get(key);
    if (known !== undefined) return known;
    const mint = entry.op['x-mint'];
    const href = typeof mint === 'object' && mint !== null && typeof (mint as Record<string, unknown>)['href'] === 'string' ? ((mint as Record<string, unknown>)['href'] as string) : undefined;
    const meta = metadataOf(entry);
    let slug: string;
    if (href !== undefined) {
      slug = normaliseRef(href);
    } else {
      const dir = (directory ?? DEFAULT_DIRECTORY).replace(/^\/+|\/+$/g, '');
      const tag = entry.tags[0];
      const base = [dir, ...(tag ? [pageSlugPart(tag)] : []), pageSlugPart(entry.summary ?? operationTitle(entry))].filter(Boolean).join('/');
      slug = base;
      // Two operations with the same summary under one tag: the second gets a suffix.
      for (let n = 2; this.generated.has(slug) || this.pageFiles.has(slug); n++) slug = `${base}-${n}`;
    }
    this.slugOfOp.set(key, slug);
    this.generated.set(slug, { found, meta, hidden: entry.hidden });
    return slug;
  }

  private warnOnce(code: string, message: string, file: string): void {
    if (this.reported.has(message)) return;
    this.reported.add(message);
    this.warnings.push({ code, message, file });
  }

  /**
   * A navigation entry: when it is an operation string (`GET /users`, `spec.yaml POST /a`),
   * `{ slug }` of its generated page (or `{}` with a warning when no spec has it); undefined for
   * an ordinary page reference.
   */
  operationPage(ref: string, scope: OpenApiScope | undefined): { slug?: string } | undefined {
    const op = parseOperationRef(ref);
    if (!op) return undefined;
    const found = this.registry.find(op, this.scopeFiles(scope), this.configFile);
    if (!found) {
      this.warnOnce('openapi-operation', `navigation lists "${ref}" but no OpenAPI spec of the repository has that operation`, this.configFile);
      return {};
    }
    if (found.entry.excluded) {
      this.warnOnce('openapi-operation', `navigation lists "${ref}", which its spec marks x-excluded; it is left out`, this.configFile);
      return {};
    }
    const slug = this.pageFor(found, scope?.directory);
    if (scope && ref.trim().split(/\s+/).length === 2) {
      const key = JSON.stringify(scope);
      if (!this.listedScopes.has(key)) this.listedScopes.set(key, { scope, anchor: slug });
    }
    return { slug };
  }

  /**
   * Scopes whose operations the navigation lists one by one (the rest are built, hidden), each
   * with the first operation page it lists.
   */
  private readonly listedScopes = new Map<string, { scope: OpenApiScope; anchor: string }>();

  /**
   * Pages for the operations of a navigation spec that the navigation does not list: Mintlify
   * builds them too (Polar redirects to such webhook pages), reachable by URL only. Returns the
   * slugs added, each with `anchor`: the first page the navigation lists under the same spec, whose
   * section (tab, version, language) the unlisted page is shown in.
   */
  completeScopes(): { slug: string; anchor: string }[] {
    const added: { slug: string; anchor: string }[] = [];
    for (const { scope, anchor } of this.listedScopes.values()) {
      for (const file of this.scopeFiles(scope)) {
        const spec = this.registry.spec(file);
        if (!spec) continue;
        for (const entry of this.registry.operations(file)) {
          if (entry.excluded) continue;
          const before = this.generated.size;
          const slug = this.pageFor({ spec, entry }, scope.directory);
          if (this.generated.size > before) added.push({ slug, anchor });
        }
      }
    }
    return added;
  }

  /** An AsyncAPI file named in navigation or frontmatter: its repository path, or undefined with a warning. */
  private locateAsync(name: string, where: string): string | undefined {
    const trimmed = name.trim();
    if (isOutsideBundle(trimmed)) {
      this.warnOnce('asyncapi-remote', `AsyncAPI file ${trimmed} is a URL: exports run without network access, so its channel pages are not built; add the file to the repository`, where);
      return undefined;
    }
    const rel = trimmed.replace(/^\.?\/+/, '');
    if (this.fileSet.has(rel)) return rel;
    this.warnOnce('asyncapi-missing', `AsyncAPI file ${trimmed} is not a file of the repository; its channel pages are not built`, where);
    return undefined;
  }

  private asyncSpec(file: string): ParsedAsyncApi | undefined {
    let s = this.asyncSpecs.get(file);
    if (s === undefined) {
      s = loadAsyncApi(this.repoRoot, file, this.warnings) ?? null;
      // Pointers into the document must reach these very objects (operations find their channel by identity).
      if (s) this.registry.resolver.addDocument(file, s.doc);
      this.asyncSpecs.set(file, s);
    }
    return s ?? undefined;
  }

  private channelPage(spec: ParsedAsyncApi, id: string, directory: string | undefined): string {
    const key = `${spec.file}\u0000${id}\u0000${directory ?? ''}`;
    const known = this.slugOfChannel.get(key);
    if (known !== undefined) return known;
    const title = channelTitle(spec, id, this.registry.resolver);
    const base = `${(directory ?? DEFAULT_DIRECTORY).replace(/^\/+|\/+$/g, '')}/${pageSlugPart(title)}`;
    let slug = base;
    for (let n = 2; this.generated.has(slug) || this.channels.has(slug) || this.pageFiles.has(slug); n++) slug = `${base}-${n}`;
    this.slugOfChannel.set(key, slug);
    this.channels.set(slug, { file: spec.file, id, meta: { title } });
    return slug;
  }

  /** Every channel of an `asyncapi` scope's files, in document order: pages added where the scope stands. */
  private expandAsync(scope: OpenApiScope): NavGroupOfOperations[] {
    const pages: string[] = [];
    for (const source of scope.sources) {
      const file = this.locateAsync(source, this.configFile);
      const spec = file === undefined ? undefined : this.asyncSpec(file);
      if (spec) for (const id of channelIds(spec)) pages.push(this.channelPage(spec, id, scope.directory));
    }
    return pages.length > 0 ? [{ pages, hiddenPages: [] }] : [];
  }

  /** Every operation and webhook of a scope's specs, grouped by first tag (document order). */
  expand(scope: OpenApiScope): NavGroupOfOperations[] {
    if (scope.async) return this.expandAsync(scope);
    const groups: NavGroupOfOperations[] = [];
    const byTitle = new Map<string, NavGroupOfOperations>();
    for (const file of this.scopeFiles(scope)) {
      const spec = this.registry.spec(file);
      if (!spec) continue;
      const tagTitles = new Map<string, string>();
      for (const t of Array.isArray(spec.doc['tags']) ? spec.doc['tags'] : []) {
        if (typeof t === 'object' && t !== null && typeof (t as Record<string, unknown>)['name'] === 'string') {
          const rec = t as Record<string, unknown>;
          tagTitles.set(rec['name'] as string, typeof rec['x-group'] === 'string' ? (rec['x-group'] as string) : (rec['name'] as string));
        }
      }
      for (const entry of this.registry.operations(file)) {
        if (entry.excluded) continue;
        const slug = this.pageFor({ spec, entry }, scope.directory);
        const tag = entry.tags[0];
        const title = tag === undefined ? '' : (tagTitles.get(tag) ?? tag);
        let group = byTitle.get(title);
        if (!group) {
          group = { ...(title ? { title } : {}), pages: [], hiddenPages: [] };
          byTitle.set(title, group);
          groups.push(group);
        }
        (entry.hidden ? group.hiddenPages : group.pages).push(slug);
      }
    }
    return groups;
  }

  /** Sidebar label, title and method badge of a generated page. */
  meta(slug: string): PageMeta | undefined {
    return this.generated.get(slug)?.meta ?? this.channels.get(slug)?.meta;
  }

  isGenerated(slug: string): boolean {
    return this.generated.has(slug) || this.channels.has(slug);
  }

  specFileOf(slug: string): string | undefined {
    return this.generated.get(slug)?.found.spec.file ?? this.channels.get(slug)?.file;
  }

  /** `asyncapi: "/asyncapi.yaml channelOne"` (or a bare channel of a file the navigation names). */
  private channelOfFrontmatter(value: string, where: string): ApiPageData | undefined {
    const parts = value.trim().split(/\s+/);
    const id = parts.length >= 2 ? parts.slice(1).join(' ') : parts[0];
    const files = parts.length >= 2 ? [this.locateAsync(parts[0] as string, where)].filter((f): f is string => f !== undefined) : [...new Set([...this.channels.values()].map((c) => c.file))];
    for (const file of files) {
      const spec = this.asyncSpec(file);
      if (spec && id !== undefined && channelIds(spec).includes(id)) return { kind: 'channel', channel: compactChannel(spec, id, this.registry.resolver, this.registry.settings) };
    }
    this.warnings.push({ code: 'asyncapi-channel', message: `"asyncapi: ${value}" names no channel of an AsyncAPI file of the repository`, file: where });
    return undefined;
  }

  /**
   * The API data of each page to build: generated pages always; MDX pages whose frontmatter names
   * an operation (`openapi`) or a schema (`openapi-schema`). Compacted here, once per page.
   */
  attach(pages: PlannedPage[], metaFor: (slug: string) => PageMeta): void {
    for (const page of pages) {
      const gen = this.generated.get(page.slug);
      const channel = this.channels.get(page.slug);
      let data: ApiPageData | undefined;
      if (channel) {
        const spec = this.asyncSpec(channel.file);
        if (spec) data = { kind: 'channel', channel: compactChannel(spec, channel.id, this.registry.resolver, this.registry.settings) };
        page.generated = true;
      } else if (gen) {
        const operation = this.registry.compact(gen.found);
        const meta: Record<string, import('./types.js').JsonValue> = { title: gen.meta.title ?? operation.title, ...(operation.metadata ?? {}) };
        // One paragraph is the page's description (its lead and `<meta>`), which is plain text: one
        // holding HTML (Stripe's `<p>…</p>` round every description) or a component stays in the body, rendered.
        const lead = operation.description === undefined ? undefined : dedented(operation.description).trim();
        if (lead !== undefined && meta['description'] === undefined && !/\n\s*\n/.test(lead) && !holdsMarkup(lead)) meta['description'] = lead;
        if (operation.deprecated && meta['deprecated'] === undefined) meta['deprecated'] = true;
        operation.metadata = meta;
        data = { kind: 'operation', operation };
        page.generated = true;
      } else {
        const meta = metaFor(page.slug);
        if (meta.asyncapi !== undefined) {
          data = this.channelOfFrontmatter(meta.asyncapi, page.file);
        } else if (meta.openapi !== undefined) {
          const op = parseOperationRef(meta.openapi);
          const found = op ? this.registry.find(op, [], page.file) : undefined;
          if (found) data = { kind: 'operation', operation: this.registry.compact(found, meta.openapi) };
          else this.warnings.push({ code: 'openapi-operation', message: `"openapi: ${meta.openapi}" names no operation of an OpenAPI spec of the repository; the page shows only its method and path`, file: page.file });
        } else if (meta.openapiSchema !== undefined) {
          const ref = parseSchemaRef(meta.openapiSchema);
          const schema = ref ? this.registry.schemaPage(ref, page.file) : undefined;
          if (schema) data = { kind: 'schema', schema };
          else this.warnings.push({ code: 'openapi-schema-missing', message: `"openapi-schema: ${meta.openapiSchema}" names no schema of an OpenAPI spec of the repository`, file: page.file });
        }
      }
      if (data) page.api = data;
    }
  }
}

function metadataOf(entry: OperationEntry): PageMeta {
  const mint = entry.op['x-mint'];
  const metadata = typeof mint === 'object' && mint !== null ? (mint as Record<string, unknown>)['metadata'] : undefined;
  const md = typeof metadata === 'object' && metadata !== null ? (metadata as Record<string, unknown>) : {};
  const title = typeof md['title'] === 'string' ? md['title'] : operationTitle(entry);
  const meta: PageMeta = { title, method: entry.method === 'WEBHOOK' ? 'WEBHOOK' : entry.httpMethod };
  if (typeof md['sidebarTitle'] === 'string') meta.sidebarTitle = md['sidebarTitle'];
  if (typeof md['icon'] === 'string') meta.icon = md['icon'];
  if (entry.deprecated) meta.deprecated = true;
  return meta;
}
