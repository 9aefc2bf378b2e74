import { chromeStrings, type ChromeStrings } from '../i18n/chrome-strings.js';
import type { NavNode, RenderContext } from '../types.js';
import { isExternalHref, safeHref } from './escape.js';
import { pageHref } from '../page-urls.js';
import { layoutIcons } from './icon.js';
import { template } from './templates.js';
import { oneByte } from '../page/one-byte.js';
import { markers, nodeRequirement } from '../access/node-requirement.js';

const PAGE_OPEN = '\uE000';
const PAGE_CLOSE = '\uE001';
const GROUP_OPEN = '\uE002';
const GROUP_CLOSE = '\uE003';
const SENTINELS = /[\uE000-\uE003]/g;

/**
 * A sidebar rendered once per section, with the places where the current page is marked
 * remembered as string offsets: marking one page is then a few slices, not a re-render of the tree.
 */
export interface PreparedSidebar {
  html: string;
  /** slug → offsets (inside the opening <a> tag) where `aria-current="page"` goes. */
  pageOffsets: Map<string, number[]>;
  /** slug → offsets (inside `<details`) of the collapsible groups that contain it. */
  openOffsets: Map<string, number[]>;
}

/** `t`: the words of the section's language (the "deprecated" label). */
export function prepareSidebar(nodes: NavNode[], ctx: RenderContext, t: ChromeStrings = chromeStrings(undefined)): PreparedSidebar {
  const groupStack: (number | null)[] = [];
  const ancestorsBySlug = new Map<string, Set<number>>();
  let nextGroup = 0;
  const nodesTemplate = template('sidebar-nodes');

  const helpers = {
    t,
    icon: layoutIcons(ctx.config),
    safeHref,
    isExternal: isExternalHref,
    page(slug: string) {
      const entry = ctx.pageIndex[slug];
      return { url: entry?.url ?? pageHref(slug), title: entry?.title ?? slug };
    },
    pageMark(slug: string) {
      const clean = slug.replace(SENTINELS, '');
      let set = ancestorsBySlug.get(clean);
      if (!set) ancestorsBySlug.set(clean, (set = new Set()));
      for (const id of groupStack) if (id !== null) set.add(id);
      return PAGE_OPEN + clean + PAGE_CLOSE;
    },
    openGroup(node: { expanded?: boolean }) {
      if (node.expanded) {
        groupStack.push(null);
        return ' open';
      }
      const id = nextGroup++;
      groupStack.push(id);
      return GROUP_OPEN + id + GROUP_CLOSE;
    },
    closeGroup() {
      groupStack.pop();
      return '';
    },
    // Reader access (issue 40): restricted entries wrapped in fragment markers; '' when access is off.
    accessOpen(node: NavNode) {
      return ctx.pageAccess ? markers(nodeRequirement(ctx, node)).open : '';
    },
    accessClose(node: NavNode) {
      return ctx.pageAccess ? markers(nodeRequirement(ctx, node)).close : '';
    },
    children(children: NavNode[], depth: number): string {
      return nodesTemplate({ ...helpers, nodes: children, depth });
    },
  };

  const marked = nodes.length === 0 ? '' : helpers.children(nodes, 0);

  // Strip the sentinels, remembering where each one stood in the clean string.
  const pageOffsets = new Map<string, number[]>();
  const groupOffsets = new Map<number, number>();
  let html = '';
  let last = 0;
  const pattern = /\uE000([^\uE001]*)\uE001|\uE002(\d+)\uE003/g;
  for (let m = pattern.exec(marked); m; m = pattern.exec(marked)) {
    html += marked.slice(last, m.index);
    last = m.index + m[0].length;
    if (m[1] !== undefined) {
      const list = pageOffsets.get(m[1]);
      if (list) list.push(html.length);
      else pageOffsets.set(m[1], [html.length]);
    } else if (m[2] !== undefined) {
      groupOffsets.set(Number(m[2]), html.length);
    }
  }
  html += marked.slice(last);
  // Cut from a string holding sentinels, the sidebar would keep every page two bytes a character.
  html = oneByte(html);

  const openOffsets = new Map<string, number[]>();
  for (const [slug, ids] of ancestorsBySlug) {
    const offsets: number[] = [];
    for (const id of ids) {
      const at = groupOffsets.get(id);
      if (at !== undefined) offsets.push(at);
    }
    if (offsets.length > 0) openOffsets.set(slug, offsets);
  }
  return { html, pageOffsets, openOffsets };
}

/** The sidebar with `slug` marked current and the groups around it open. */
export function markCurrent(sidebar: PreparedSidebar, slug: string): string {
  const pages = sidebar.pageOffsets.get(slug);
  const groups = sidebar.openOffsets.get(slug);
  if (!pages && !groups) return sidebar.html;
  const inserts: [number, string][] = [];
  for (const at of pages ?? []) inserts.push([at, ' aria-current="page"']);
  for (const at of groups ?? []) inserts.push([at, ' open']);
  inserts.sort((a, b) => a[0] - b[0]);
  let out = '';
  let last = 0;
  for (const [at, text] of inserts) {
    out += sidebar.html.slice(last, at) + text;
    last = at;
  }
  return out + sidebar.html.slice(last);
}

