import type { NavNode, RenderContext } from '../types.js';

export interface Crumb {
  title: string;
  /** The group's landing page (`root`), else its first page; absent for a group with no page. */
  url?: string;
}

const cache = new WeakMap<RenderContext, Map<string, Crumb[]>>();

/**
 * Breadcrumbs as links: each group title of the trail points at the group's landing page, so a
 * reader can climb from a deep page. Resolved by walking the section's sidebar once per trail.
 */
export function crumbsFor(ctx: RenderContext, sectionId: string | undefined, titles: readonly string[]): Crumb[] {
  if (titles.length === 0) return [];
  let perCtx = cache.get(ctx);
  if (!perCtx) cache.set(ctx, (perCtx = new Map()));
  const key = `${sectionId ?? ''}\u0000${titles.join('\u0000')}`;
  const hit = perCtx.get(key);
  if (hit) return hit;
  const section = ctx.sections.find((s) => s.id === sectionId);
  let level: NavNode[] = section?.sidebar ?? [];
  const crumbs = titles.map((title): Crumb => {
    const group = level.find((n) => n.kind === 'group' && n.title === title);
    if (!group || group.kind !== 'group') {
      level = [];
      return { title };
    }
    level = group.children;
    const slug = group.root ?? firstPage(group.children);
    const url = slug ? ctx.pageIndex[slug]?.url : undefined;
    return url ? { title, url } : { title };
  });
  perCtx.set(key, crumbs);
  return crumbs;
}

function firstPage(nodes: readonly NavNode[]): string | undefined {
  for (const n of nodes) {
    if (n.kind === 'page') return n.slug;
    if (n.kind === 'group') {
      const found = n.root ?? firstPage(n.children);
      if (found) return found;
    }
  }
  return undefined;
}
