import { chromeStrings, type ChromeStrings } from '../i18n/chrome-strings.js';
import { languageOf } from '../i18n/language.js';
import { createHash } from 'node:crypto';
import type { NavNode, RenderContext } from '../types.js';
import { prepareSidebar, type PreparedSidebar } from './sidebar.js';

/**
 * The sidebar of a large section (docs/site-layout.md, "Sidebar of a large section").
 *
 * A section with at most INLINE_LINKS links is carried whole by every page, as Mintlify does.
 * Past that, each page would carry a sidebar as big as its section (a tab of 10,000 pages: about
 * 800 KB of links on every page), so a page carries only a window of it: the WINDOW_LINKS links of
 * its block (pages in navigation order, cut into blocks of WINDOW_LINKS) inside their groups, and
 * the other top-level groups as headings linking to their first page (at most HEADINGS of them,
 * around the page's own), and one link beyond each end of the block. That is what the first paint and a reader without JavaScript see; every
 * page of the section is reachable through it (block by block, or heading by heading). site.js
 * then replaces it with the whole tree from one shared file per section (content-hashed, cached
 * by the browser once for the whole section) and marks the current page in it.
 */
export const INLINE_LINKS = 300;
export const WINDOW_LINKS = 100;
export const HEADINGS = 60;

export function countLinks(nodes: readonly NavNode[]): number {
  let n = 0;
  for (const node of nodes) n += node.kind === 'group' ? countLinks(node.children) + (node.root ? 1 : 0) : 1;
  return n;
}

export function needsWindow(nodes: readonly NavNode[]): boolean {
  return countLinks(nodes) > INLINE_LINKS;
}

/** A section's windows: one prepared sidebar per block, built when a page of the block first asks. */
export interface SidebarWindows {
  /** slug → block number (its first appearance among the section's links). */
  blockOf: Map<string, number>;
  prepared: Map<number, PreparedSidebar>;
  nodes: NavNode[];
}

export function sidebarWindows(nodes: NavNode[]): SidebarWindows {
  const blockOf = new Map<string, number>();
  let position = 0;
  const walk = (list: readonly NavNode[]): void => {
    for (const node of list) {
      if (node.kind === 'group') {
        if (node.root !== undefined) visit(node.root);
        walk(node.children);
      } else if (node.kind === 'page') visit(node.slug);
      else position++;
    }
  };
  const visit = (slug: string): void => {
    if (!blockOf.has(slug)) blockOf.set(slug, Math.floor(position / WINDOW_LINKS));
    position++;
  };
  walk(nodes);
  return { blockOf, prepared: new Map(), nodes };
}

/** The prepared window around `slug` (block 0 for a page the section does not list). */
export function windowFor(windows: SidebarWindows, slug: string | undefined, ctx: RenderContext, t?: ChromeStrings): PreparedSidebar {
  const block = (slug === undefined ? undefined : windows.blockOf.get(slug)) ?? 0;
  let hit = windows.prepared.get(block);
  if (!hit) {
    // One link beyond each end: the blocks chain, so the windows alone lead to every page.
    hit = prepareSidebar(windowNodes(windows.nodes, block * WINDOW_LINKS - 1, (block + 1) * WINDOW_LINKS + 1), ctx, t);
    windows.prepared.set(block, hit);
  }
  return hit;
}

function firstPage(nodes: readonly NavNode[]): string | undefined {
  for (const node of nodes) {
    if (node.kind === 'page') return node.slug;
    if (node.kind === 'group') {
      const found = node.root ?? firstPage(node.children);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** The section's tree pruned to the links at positions [from, to), plus top-level headings. */
export function windowNodes(nodes: readonly NavNode[], from: number, to: number): NavNode[] {
  let position = 0;
  const prune = (list: readonly NavNode[]): NavNode[] => {
    const out: NavNode[] = [];
    for (const node of list) {
      if (node.kind === 'group') {
        const rootInside = node.root !== undefined && position >= from && position < to;
        if (node.root !== undefined) position++;
        // A group wholly outside the window is skipped without walking it twice.
        const size = countLinks(node.children);
        if (position + size <= from || position >= to) {
          position += size;
          if (rootInside) out.push({ ...node, children: [] });
          continue;
        }
        const children = prune(node.children);
        if (children.length > 0 || rootInside) out.push({ ...node, children });
      } else {
        if (position >= from && position < to) out.push(node);
        position++;
      }
    }
    return out;
  };
  // Top-level groups outside the window stay as headings that lead to their first page.
  const top: { node: NavNode; inside: boolean }[] = [];
  position = 0;
  for (const node of nodes) {
    const start = position;
    const kept = prune([node]);
    const end = position;
    if (kept.length > 0) top.push({ node: kept[0] as NavNode, inside: true });
    else if (node.kind === 'group' && end > start) {
      const root = node.root ?? firstPage(node.children);
      if (root !== undefined) top.push({ node: { kind: 'group', title: node.title, ...(node.icon ? { icon: node.icon } : {}), root, children: [] }, inside: false });
    }
  }
  // At most HEADINGS headings, the nearest to the window.
  const firstInside = top.findIndex((t) => t.inside);
  const centre = firstInside < 0 ? 0 : firstInside;
  const headings = top.map((t, i) => ({ i, t })).filter((x) => !x.t.inside);
  headings.sort((a, b) => Math.abs(a.i - centre) - Math.abs(b.i - centre) || a.i - b.i);
  const keep = new Set(headings.slice(0, HEADINGS).map((x) => x.i));
  return top.filter((t, i) => t.inside || keep.has(i)).map((t) => t.node);
}

/**
 * The shared sidebar files of an export: for each section too big to carry inline, its whole tree
 * (nothing marked: site.js marks the reader's page) at `_sidebar/sidebar.<hash>.html`. Built once, on the
 * main thread, before the pages render, since every page of the section names the file.
 */
export function sharedSidebars(ctx: RenderContext): { files: [string, Uint8Array][]; urls: Record<string, string> } {
  const files: [string, Uint8Array][] = [];
  const urls: Record<string, string> = {};
  const seen = new Set<string>();
  for (const section of ctx.sections) {
    if (section.external || !needsWindow(section.sidebar)) continue;
    const bytes = new TextEncoder().encode(prepareSidebar(section.sidebar, ctx, chromeStrings(languageOf(section))).html);
    const file = `_sidebar/sidebar.${createHash('sha256').update(bytes).digest('hex').slice(0, 12)}.html`;
    if (!seen.has(file)) {
      seen.add(file);
      files.push([file, bytes]);
    }
    urls[section.id] = `/${file}`;
  }
  return { files, urls };
}
