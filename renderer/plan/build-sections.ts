import type { NavGroupOfOperations } from '../openapi/plan.js';
import type { OpenApiScope } from '../openapi/settings.js';
import type { BuildWarning, NavNode, NavSection } from '../types.js';
import type { PageMeta } from './page-meta.js';
import type { RawEntry, RawSection } from './read-navigation.js';
import { pageHref } from '../page-urls.js';
import { normaliseRef, slugify, titleFromSlug } from './slugs.js';

/** Where a page shows up in the navigation. */
export interface Appearance {
  slug: string;
  sectionId: string;
  breadcrumbs: string[];
  hidden: boolean;
}

/** The API reference's part in the navigation (renderer/openapi/plan.ts). */
export interface ApiNavigation {
  operationPage(ref: string, scope: OpenApiScope | undefined): { slug?: string } | undefined;
  expand(scope: OpenApiScope): NavGroupOfOperations[];
}

export interface BuiltSections {
  sections: NavSection[];
  /** Every page the navigation mentions, once, in navigation order (first appearance wins). */
  appearances: Appearance[];
}

function sectionId(trail: RawSection['trail'], taken: Set<string>): string {
  const base = trail.length === 0 ? 'root' : trail.map((t) => slugify(t.title)).join('/');
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  taken.add(id);
  return id;
}

/**
 * Second pass: resolve every page reference to a page of the repository (a missing one is a
 * `missing-page` warning, never a crash), label it from its frontmatter, drop hidden entries from
 * the sidebars (their pages are still built, marked hidden) and record each page's first place.
 */
export function buildSections(
  raw: RawSection[],
  pageFiles: ReadonlyMap<string, string>,
  metaFor: (slug: string) => PageMeta,
  configFile: string,
  warnings: BuildWarning[],
  api?: ApiNavigation,
): BuiltSections {
  const taken = new Set<string>();
  const sections: NavSection[] = [];
  const bySlug = new Map<string, Appearance>();
  const appearances: Appearance[] = [];
  const reportedMissing = new Set<string>();

  const resolve = (ref: string): string | undefined => {
    const slug = normaliseRef(ref);
    if (pageFiles.has(slug)) return slug;
    if (!reportedMissing.has(slug)) {
      reportedMissing.add(slug);
      warnings.push({
        code: 'missing-page',
        message: /^_?snippets\//.test(slug)
          ? `navigation lists "${ref}", in the root ${slug.split('/')[0]}/ folder, whose files are fragments to import and never pages`
          : `navigation lists "${ref}" but there is no ${slug}.mdx or ${slug}.md`,
        file: configFile,
      });
    }
    return undefined;
  };

  const appear = (slug: string, id: string, breadcrumbs: string[], hidden: boolean): void => {
    const prior = bySlug.get(slug);
    if (!prior) {
      const a = { slug, sectionId: id, breadcrumbs, hidden };
      bySlug.set(slug, a);
      appearances.push(a);
    } else if (prior.hidden && !hidden) {
      // A page listed under a hidden group and also visibly elsewhere belongs to the visible place.
      Object.assign(prior, { sectionId: id, breadcrumbs, hidden: false });
    }
  };

  for (const section of raw) {
    const id = sectionId(section.trail, taken);
    let firstUrl: string | undefined;
    let firstAnyUrl: string | undefined;

    const pageNode = (slug: string, crumbs: string[], hidden: boolean): NavNode => {
      appear(slug, id, crumbs, hidden);
      if (!hidden) firstUrl ??= pageHref(slug);
      firstAnyUrl ??= pageHref(slug);
      const meta = metaFor(slug);
      const node: NavNode = { kind: 'page', slug, title: meta.sidebarTitle ?? meta.title ?? titleFromSlug(slug) };
      if (meta.icon) node.icon = meta.icon;
      if (meta.method) node.method = meta.method;
      if (meta.deprecated) node.deprecated = true;
      return node;
    };

    const convertAll = (list: RawEntry[], crumbs: string[], hidden: boolean): NavNode[] =>
      list.flatMap((entry): NavNode[] => {
        if (entry.kind !== 'openapi') {
          const node = convert(entry, crumbs, hidden);
          return node ? [node] : [];
        }
        // Every operation of a spec: one group per tag, untagged operations on their own.
        return (api?.expand(entry.scope) ?? []).flatMap((g): NavNode[] => {
          const inner = g.title ? [...crumbs, g.title] : crumbs;
          for (const slug of g.hiddenPages) appear(slug, id, inner, true);
          const children = g.pages.map((slug) => pageNode(slug, inner, hidden));
          if (!g.title) return children;
          return children.length > 0 ? [{ kind: 'group', title: g.title, children }] : [];
        });
      });

    const convert = (entry: Exclude<RawEntry, { kind: 'openapi' }>, crumbs: string[], hidden: boolean): NavNode | null => {
      if (entry.kind === 'link') {
        return { kind: 'link', title: entry.title, href: entry.href, ...(entry.icon ? { icon: entry.icon } : {}) };
      }
      if (entry.kind === 'page') {
        const generated = api?.operationPage(entry.ref, entry.scope);
        if (generated) return generated.slug === undefined ? null : pageNode(generated.slug, crumbs, hidden);
        const slug = resolve(entry.ref);
        return slug === undefined ? null : pageNode(slug, crumbs, hidden);
      }
      const groupHidden = hidden || entry.hidden;
      const inner = entry.title ? [...crumbs, entry.title] : crumbs;
      const root = entry.root === undefined ? undefined : resolve(entry.root);
      if (root !== undefined) {
        appear(root, id, inner, groupHidden);
        if (!groupHidden) firstUrl ??= pageHref(root);
        firstAnyUrl ??= pageHref(root);
      }
      const children = convertAll(entry.children, inner, groupHidden);
      if (entry.hidden) return null;
      if (children.length === 0 && root === undefined) return null;
      return {
        kind: 'group',
        title: entry.title,
        ...(entry.icon ? { icon: entry.icon } : {}),
        ...(root !== undefined ? { root } : {}),
        ...(entry.expanded !== undefined ? { expanded: entry.expanded } : {}),
        children,
      };
    };

    const sidebar = convertAll(section.sidebar, [], section.hidden);
    // A division that only names a spec that could not be read (already a warning) has nothing to show.
    if (sidebar.length === 0 && section.sidebar.length > 0 && section.sidebar.every((e) => e.kind === 'openapi')) continue;
    const external = section.href !== undefined;
    sections.push({
      id,
      trail: section.trail,
      sidebar,
      href: section.href ?? firstUrl ?? firstAnyUrl ?? '/',
      external,
      hidden: section.hidden,
    });
  }
  return { sections, appearances };
}
