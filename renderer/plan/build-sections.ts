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
        message: `navigation lists "${ref}" but there is no ${slug}.mdx or ${slug}.md`,
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

    const convert = (entry: RawEntry, crumbs: string[], hidden: boolean): NavNode | null => {
      if (entry.kind === 'link') {
        return { kind: 'link', title: entry.title, href: entry.href, ...(entry.icon ? { icon: entry.icon } : {}) };
      }
      if (entry.kind === 'page') {
        const slug = resolve(entry.ref);
        if (slug === undefined) return null;
        appear(slug, id, crumbs, hidden);
        if (!hidden) firstUrl ??= pageHref(slug);
        firstAnyUrl ??= pageHref(slug);
        const meta = metaFor(slug);
        const node: NavNode = { kind: 'page', slug, title: meta.sidebarTitle ?? meta.title ?? titleFromSlug(slug) };
        if (meta.icon) node.icon = meta.icon;
        if (meta.method) node.method = meta.method;
        return node;
      }
      const groupHidden = hidden || entry.hidden;
      const inner = entry.title ? [...crumbs, entry.title] : crumbs;
      const root = entry.root === undefined ? undefined : resolve(entry.root);
      if (root !== undefined) {
        appear(root, id, inner, groupHidden);
        if (!groupHidden) firstUrl ??= pageHref(root);
        firstAnyUrl ??= pageHref(root);
      }
      const children = entry.children.map((c) => convert(c, inner, groupHidden)).filter((n): n is NavNode => n !== null);
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

    const sidebar = section.sidebar.map((e) => convert(e, [], section.hidden)).filter((n): n is NavNode => n !== null);
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
