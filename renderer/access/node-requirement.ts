import type { NavNode, RenderContext } from '../types.js';
import { MARK_CLOSE, markOpen, unionOf, type Requirement } from './contract.js';

/** A page's requirement as the render workers know it: ctx.pageAccess lists only the non-public ones. */
export function pageRequirement(ctx: RenderContext, slug: string): Requirement {
  return ctx.pageAccess?.[slug] ?? 'public';
}

/** Slugs a sidebar node links to (a group's root and every page under it). */
function slugsOf(node: NavNode, out: string[]): string[] {
  if (node.kind === 'page') out.push(node.slug);
  else if (node.kind === 'group') {
    if (node.root) out.push(node.root);
    for (const c of node.children) slugsOf(c, out);
  }
  return out;
}

/**
 * What a reader needs to see a sidebar entry: a page's own requirement; a group's, the union of
 * its pages' (a group of only restricted pages disappears for readers who see none of them); a
 * group without pages (links only) and a link are public.
 */
export function nodeRequirement(ctx: RenderContext, node: NavNode): Requirement {
  if (!ctx.pageAccess || node.kind === 'link') return 'public';
  const slugs = slugsOf(node, []);
  if (slugs.length === 0) return 'public';
  return unionOf(slugs.map((s) => pageRequirement(ctx, s)));
}

/** The pages of a whole sidebar tree, for tabs, anchors and dropdowns. */
export function treeRequirement(ctx: RenderContext, nodes: readonly NavNode[]): Requirement {
  if (!ctx.pageAccess) return 'public';
  const slugs: string[] = [];
  for (const n of nodes) slugsOf(n, slugs);
  if (slugs.length === 0) return 'public';
  return unionOf(slugs.map((s) => pageRequirement(ctx, s)));
}

/** Marker pair around a fragment that needs `req`: empty strings for public (and with access off). */
export function markers(req: Requirement): { open: string; close: string } {
  return req === 'public' ? { open: '', close: '' } : { open: markOpen(req), close: MARK_CLOSE };
}
