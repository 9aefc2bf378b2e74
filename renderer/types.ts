import type { RetrievalSettings } from './retrieval/types.js';
import type { ApiPageData } from './openapi/types.js';

/**
 * The renderer's contract: the shapes that cross from one stage to the next
 * (load → plan → render → index → write → pack). Stages live in their own modules and meet only
 * through these types, so a stage can be tested alone and the worker boundary stays serialisable
 * (everything here is plain data: no functions, no class instances, except RenderError).
 */

import type { TailwindPlan } from './tailwind/index.js';

/** A problem that does not stop the build; it goes into the manifest and the job log. */
export interface BuildWarning {
  /** Stable machine code, e.g. `unknown-component`, `external-image`, `broken-link`, `missing-asset`. */
  code: string;
  message: string;
  /** Repository-relative path of the file the warning is about. */
  file: string;
  line?: number;
}

/** A failure that stops a page (and so the build). Always names the file; the line when known. */
export class RenderError extends Error {
  readonly file: string;
  readonly line: number | undefined;
  readonly column: number | undefined;
  constructor(message: string, where: { file: string; line?: number; column?: number; cause?: unknown }) {
    super(message, where.cause === undefined ? undefined : { cause: where.cause });
    this.name = 'RenderError';
    this.file = where.file;
    this.line = where.line;
    this.column = where.column;
  }
  /** `guides/intro.mdx:12:3: Unclosed <Card>` — the form used in job errors and CLI output. */
  get location(): string {
    return `${this.file}${this.line ? `:${this.line}${this.column ? `:${this.column}` : ''}` : ''}`;
  }
}

/** A plain-data copy of a RenderError, as it crosses the worker boundary. */
export interface RenderFailure {
  /** The page that could not be rendered (its slug, as in `paths`); absent for the config. */
  path?: string;
  /** Where the error is: the page, or a snippet it imports. */
  file: string;
  line?: number;
  column?: number;
  message: string;
}

// ---------------------------------------------------------------------------------------------
// load: docs.json / mint.json → SiteConfig (normalised; both formats end up here)
// ---------------------------------------------------------------------------------------------

export interface NavLink {
  label: string;
  href: string;
  icon?: string;
}

/** One docs.json font: `source` is a repository path (`/fonts/x.woff2`) or a URL, as written. */
export interface FontSpec {
  family: string;
  weight?: number;
  source?: string;
  format?: string;
}

export interface SiteConfig {
  /** `docs.json` or `mint.json`: which file the config came from. */
  format: 'docs.json' | 'mint.json';
  /** Page views and feedback (issue 20); absent: everything on. */
  readerAnalytics?: import('./load/reader-analytics.js').ReaderAnalyticsSettings;
  name: string;
  description?: string;
  /** Repository-relative asset paths (leading slash removed). */
  logo?: { light?: string; dark?: string; href?: string };
  favicon?: string;
  colors: { primary: string; light?: string; dark?: string };
  appearance: { default: 'light' | 'dark' | 'system'; strict: boolean };
  /**
   * docs.json `styling.eyebrows`: above the title, the whole trail of groups as links
   * (`breadcrumbs`, the appliance's default) or only the page's own group (`section`).
   */
  eyebrows?: 'breadcrumbs' | 'section';
  /**
   * docs.json `seo`: extra `<meta>` tags on every page (`metatags`), and whether pages outside the
   * navigation go into the sitemap too (`indexing: "all"`; default `navigable`).
   */
  seo?: { metatags: { name: string; content: string }[]; indexing: 'navigable' | 'all' };
  /** docs.json `fonts`: the body and heading families, each with an optional font file. */
  fonts?: { body?: FontSpec; heading?: FontSpec };
  /**
   * docs.json `icons.library` as written: `fontawesome` (the default), `lucide` or `tabler`
   * (renderer/icons); any other value is warned about and Font Awesome used.
   */
  iconLibrary?: string;
  /**
   * docs.json `markdown`: what the Markdown of a page (`<path>.md`, llms-full.txt) carries besides
   * the page: the operation's part of its OpenAPI document on API pages (`schema`, default on) and
   * the site's instructions to agents (`instructions`, lines joined).
   */
  markdown?: { schema: boolean; instructions?: string };
  /** docs.json `contextual`: the page menu (Copy page, View as Markdown…), load/contextual.ts. */
  contextual?: import('./load/contextual.js').ContextualSettings;
  /** docs.json `banner`: an announcement above the top bar of every page (inline Markdown). */
  banner?: { content: string; dismissible: boolean };
  navbar: { links: NavLink[]; primary?: NavLink };
  footer: { socials: Record<string, string>; links: { header?: string; items: NavLink[] }[] };
  /** `{{name}}` substitutions from the config's `variables`. */
  variables: Record<string, string>;
  redirects: { source: string; destination: string; permanent: boolean }[];
  /** Project opted in to raw `<script>`/handlers in content (config `appliance.allowUnsafeHtml`). */
  allowUnsafeHtml: boolean;
  /** Repository-relative custom CSS / JS files that Mintlify loads automatically (e.g. style.css). */
  customCss: string[];
  customJs: string[];
  /** The navigation exactly as resolved by load (`$ref` inlined), interpreted by plan. */
  navigation: unknown;
  /**
   * The API-reference settings (docs.json `api`, mint.json `api` and `openapi`), as written: read
   * by renderer/openapi/settings.ts. `openapi` lists specs the config names (api.openapi in
   * docs.json, top-level `openapi` in mint.json).
   */
  api?: { openapi?: unknown; raw: Record<string, unknown> };
  /** Legacy mint.json only: top-level `tabs`, `anchors`, `topbarLinks`, `primaryTab`… kept for plan. */
  legacy?: Record<string, unknown>;
}

// ---------------------------------------------------------------------------------------------
// plan: SiteConfig + files → SitePlan
// ---------------------------------------------------------------------------------------------

export type DivisionKind = 'tab' | 'anchor' | 'dropdown' | 'product' | 'version' | 'language' | 'menu';

/** One entry of a sidebar tree. */
export type NavNode = NavGroupNode | NavPageNode | NavLinkNode;

export interface NavGroupNode {
  kind: 'group';
  title: string;
  icon?: string;
  /** Group landing page (Mintlify `root`), a page slug. */
  root?: string;
  expanded?: boolean;
  children: NavNode[];
}

export interface NavPageNode {
  kind: 'page';
  slug: string;
  /** Sidebar label: frontmatter `sidebarTitle`, else `title`, else derived from the file name. */
  title: string;
  icon?: string;
  /** e.g. `GET` for OpenAPI pages, shown as a small badge. */
  method?: string;
  /** Frontmatter `deprecated: true` or a deprecated operation: a "deprecated" label beside the title. */
  deprecated?: boolean;
}

export interface NavLinkNode {
  kind: 'link';
  title: string;
  href: string;
  icon?: string;
}

/**
 * Tabs, anchors, dropdowns, products, versions, languages and menus nest in any order; plan
 * flattens them into sections. A section is one leaf of that nesting: the selections that lead to
 * it (`trail`, outermost first) and the sidebar shown under it. Sibling options of any level are
 * the sections whose trails share the prefix, which is how the layout draws switchers.
 */
export interface NavSection {
  /** Stable id, the trail's titles slugified and joined with `/` (`root` when there is no division). */
  id: string;
  trail: { kind: DivisionKind; title: string; icon?: string }[];
  sidebar: NavNode[];
  /** Where a switcher pointing at this section links to: its first page's URL, or an external href. */
  href: string;
  /** Link-only division entries (an external tab, say) have `external: true` and an empty sidebar. */
  external: boolean;
  hidden: boolean;
}

export interface PlannedPage {
  /** URL path without leading slash or extension: `guides/intro`; the home page is `index`. */
  slug: string;
  /** Repository-relative source file (`guides/intro.mdx`). */
  file: string;
  /** Output file inside the bundle: `guides/intro/index.html`, `index.html` (renderer/page-urls.ts). */
  outputPath: string;
  /** Section the page belongs to (first appearance in the navigation); undefined when outside it. */
  sectionId?: string;
  /** Group titles from the section's sidebar root down to the page (breadcrumbs / eyebrow). */
  breadcrumbs: string[];
  /** True when the page is not in the navigation, or is under a `hidden` entry. */
  hidden: boolean;
  /** Previous/next in navigation order (slugs), within the whole site. */
  prev?: string;
  next?: string;
  /**
   * An API page's data (renderer/openapi): the operation or schema it shows, compacted by plan.
   * Set on MDX pages whose frontmatter names one, and on every generated page.
   */
  api?: ApiPageData;
  /** Generated from a spec: no MDX file (`file` is the spec), content from `x-mint`. */
  generated?: boolean;
}

export interface SitePlan {
  repoRoot: string;
  config: SiteConfig;
  sections: NavSection[];
  /** Links shown in every section (docs.json `navigation.global`, mint.json `topbarLinks` etc.). */
  globalLinks: NavLink[];
  /** Every page to build, in navigation order, then pages outside the navigation. */
  pages: PlannedPage[];
  /** Static redirect pages to write: `from` is a slug-like path (no leading slash). */
  redirects: { from: string; to: string }[];
  /** Every usable redirect, patterns included, normalised (the nginx snippet; patterns go in the manifest). */
  redirectRules?: BundleRedirect[];
  /** Non-page files to copy (images, PDFs, …): repository path → bundle path (content-hashed). */
  /** OpenAPI documents API pages' Markdown shows parts of (renderer/openapi/spec-fragment.ts). */
  apiDocs?: Record<string, Record<string, unknown>>;
  assets: Record<string, string>;
  warnings: BuildWarning[];
  /** slug → page title (frontmatter `title`, else derived from the file name), for RenderContext.pageIndex. */
  pageTitles?: Record<string, string>;
  /** Repository path → size and full sha256 of each asset, hashed once by plan for the manifest. */
  assetDigests?: Record<string, { size: number; sha256: string }>;
  /** Assets whose bundle bytes differ from the repository's (custom stylesheets with rewritten URLs). */
  rewrittenAssets?: Record<string, Uint8Array>;
  /** The Tailwind stylesheet to generate, when any source uses a class (renderer/tailwind). */
  tailwind?: TailwindPlan;
}

// ---------------------------------------------------------------------------------------------
// render: one page's source → PageContent (in a worker), then the layout → a full HTML document
// ---------------------------------------------------------------------------------------------

export interface TocEntry {
  id: string;
  text: string;
  depth: number;
}

export interface PageContent {
  title: string;
  description?: string;
  /** The page's YAML frontmatter, as parsed. */
  frontmatter: Record<string, unknown>;
  /** Body HTML (components expanded, sanitised unless the project opted in). */
  html: string;
  toc: TocEntry[];
  /** Plain text for the search index. */
  text: string;
  /** Frontmatter `mode` (`wide`, `custom`, `center`, `frame`) if any. */
  mode?: string;
  usesMath: boolean;
  usesMermaid: boolean;
  /** An API page with a "Try it" playground: loads playground.js and playground.css. */
  usesPlayground?: boolean;
  /** Running components (renderer/islands): scripts the page loads, in order, and module files to write. */
  islands?: { scripts: string[]; files: Record<string, string> };
  /**
   * A page generated from an OpenAPI operation: its examples column as plain code for the
   * retrieval stage's sections (docs/api-reference.md, "Retrieval"), one entry for each of the
   * page's last example panels (`<aside class="c-example …">`), which are the generated ones.
   */
  apiExamples?: ApiExamplePanel[];
  warnings: BuildWarning[];
}

/** One example panel of a generated API page, as retrieval reads it: its label, its blocks' titles and code. */
export interface ApiExamplePanel {
  label: string;
  blocks: { title: string; code: string }[];
}

/**
 * Everything a worker needs besides the page itself. Built once per export by the main thread and
 * handed to workers (it can be large for big sites; the pool decides how it travels).
 */
export interface RenderContext {
  repoRoot: string;
  config: SiteConfig;
  sections: NavSection[];
  globalLinks: NavLink[];
  /** slug → { title, url } for every page, for links, prev/next and breadcrumbs. */
  pageIndex: Record<string, { title: string; url: string; sectionId?: string }>;
  /** Repository path → URL of the content-hashed copy in the bundle (`/_assets/logo.3f2a9c1b.png`). */
  assets: Record<string, string>;
  /** Theme/runtime asset name (`site.css`, `site.js`, `search-index`…) → URL in the bundle. */
  themeAssets: Record<string, string>;
  /**
   * False when the operator turned component scripts off for the project: running components are
   * written as their pre-rendered HTML only, and no script of theirs is shipped.
   */
  componentScripts?: boolean;
  /**
   * True when the export runs with reader access on (issue 40, renderer/access/contract.ts):
   * group-dependent fragments (OpenAPI `x-mint.groups` properties and variants, `x-mint-enum`
   * values) are wrapped in fragment markers; absent or false, they are shown to everyone.
   */
  readerAccess?: boolean;
  /** The site's Content-Security-Policy as a `<meta>` can carry it (renderer/csp.ts), written into every page. */
  metaCsp?: string;
  /** Section id → its search scope's key (language × version; renderer/index-stage/scopes.ts). */
  searchScopes?: Record<string, string>;
  /**
   * Section id → URL of the section's whole sidebar as a shared file, for sections too big to
   * carry inline on every page (renderer/layout/sidebar-window.ts).
   */
  sidebarFiles?: Record<string, string>;
  /** Which pages llms.txt lists and the origin of its links (renderer/retrieval). */
  retrieval?: RetrievalSettings;
  /** OpenAPI documents by repository path, for the spec part of API pages' Markdown (renderer/retrieval/api-markdown.ts). */
  apiDocs?: Record<string, Record<string, unknown>>;
  /**
   * Reader access (issue 40; only when the export has `readerAccess`): slug → requirement of every
   * page that is not public. Listings of pages (sidebar, pager, llms*.txt) wrap those in markers.
   */
  pageAccess?: Record<string, import('./access/contract.js').Requirement>;
}

// ---------------------------------------------------------------------------------------------
// index, write, pack
// ---------------------------------------------------------------------------------------------

export interface SearchDocument {
  /** Extensionless URL of the page (`/guides/intro`). */
  url: string;
  title: string;
  section?: string;
  headings: string;
  text: string;
}

export interface ManifestFile {
  path: string;
  size: number;
  sha256: string;
}

/**
 * A redirect the bundle's server applies: `source` a site path (`/old/:slug*`, Mintlify's pattern
 * syntax, see renderer/redirect-patterns.ts), `destination` a site path or outside URL, `status`
 * 308 (permanent, Mintlify's default) or 307.
 */
export interface BundleRedirect {
  source: string;
  destination: string;
  status: 307 | 308;
}

export interface BundleManifest {
  format: 1;
  jobId: string;
  projectId: string;
  domain: string;
  version: string;
  createdAt: string;
  pageCount: number;
  files: ManifestFile[];
  warnings: BuildWarning[];
  /** Only in bundles exported with keepGoing: the pages left out, and why. */
  failures?: RenderFailure[];
  /** Pattern redirects, applied by the appliance's site listener to paths no file answers. */
  redirects?: BundleRedirect[];
  /**
   * What the site collects, from docs.json `integrations.telemetry` / mint.json `feedback`: the
   * appliance's site listener counts AI agents' page requests and takes beacons only when the
   * bundle's own pages would collect them. Absent (older bundles): everything on.
   */
  readerAnalytics?: import('./load/reader-analytics.js').ReaderAnalyticsSettings;
  /** Only in bundles exported with reader access on (renderer/access/bundle-access.ts). */
  access?: import('./access/contract.js').BundleAccess;
}

/** Reported by the pipeline as it goes; the export-job issue turns it into `progress`/`pageCount`. */
export interface ExportProgress {
  stage: 'load' | 'plan' | 'render' | 'index' | 'write' | 'pack' | 'done';
  pagesDone: number;
  pagesPlanned: number;
}
