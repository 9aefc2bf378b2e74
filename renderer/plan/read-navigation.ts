import { readScope, type OpenApiScope } from '../openapi/settings.js';
import type { BuildWarning, DivisionKind, NavLink } from '../types.js';

/**
 * First pass over a docs.json `navigation`: turn every form Mintlify accepts into raw sections
 * (a trail of division choices and a sidebar of page references). Page references are resolved to
 * files later, so this pass only knows the config and never touches the disk.
 */

export type RawEntry =
  | { kind: 'page'; ref: string; /** The `openapi` in force where the entry is (for `GET /users` entries). */ scope?: OpenApiScope }
  /** Every operation of the specs an `openapi` names, for an element that lists no pages of its own. */
  | { kind: 'openapi'; scope: OpenApiScope }
  | { kind: 'group'; title: string; icon?: string; root?: string; expanded?: boolean; hidden: boolean; children: RawEntry[] }
  | { kind: 'link'; title: string; href: string; icon?: string };

export interface RawSection {
  trail: { kind: DivisionKind; title: string; icon?: string }[];
  sidebar: RawEntry[];
  /** Set for a division entry that is only a link (an external tab, say). */
  href?: string;
  hidden: boolean;
}

export interface ReadNavigation {
  sections: RawSection[];
  globalLinks: NavLink[];
}

/** Division key in the navigation object → its kind and the key of an entry's title. */
const DIVISIONS: Record<string, { kind: DivisionKind; titleKey: string }> = {
  tabs: { kind: 'tab', titleKey: 'tab' },
  anchors: { kind: 'anchor', titleKey: 'anchor' },
  dropdowns: { kind: 'dropdown', titleKey: 'dropdown' },
  products: { kind: 'product', titleKey: 'product' },
  versions: { kind: 'version', titleKey: 'version' },
  languages: { kind: 'language', titleKey: 'language' },
  menu: { kind: 'menu', titleKey: 'item' },
};

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

function hasContent(o: Obj): boolean {
  return Object.keys(o).some((k) => k in DIVISIONS || k === 'groups' || k === 'pages');
}

export function readNavigation(navigation: unknown, configFile: string, warnings: BuildWarning[]): ReadNavigation {
  const sections: RawSection[] = [];
  const globalLinks: NavLink[] = [];
  const seenGlobal = new Set<string>();

  const warn = (message: string): void => {
    warnings.push({ code: 'navigation-entry', message, file: configFile });
  };
  // OpenAPI and AsyncAPI files in the navigation generate pages (renderer/openapi).
  const asyncEntries = (entry: Obj): RawEntry[] => {
    const scope = readScope(entry['asyncapi']);
    return scope ? [{ kind: 'openapi', scope: { ...scope, async: true } }] : [];
  };
  const scopeOf = (entry: Obj, inherited: OpenApiScope | undefined): OpenApiScope | undefined => readScope(entry['openapi']) ?? inherited;

  const collectGlobal = (g: unknown): void => {
    if (!isObj(g)) return;
    for (const [key, def] of Object.entries(DIVISIONS)) {
      const items = g[key];
      if (!Array.isArray(items)) continue;
      for (const item of items) {
        if (!isObj(item)) continue;
        const href = text(item['href']);
        const label = text(item[def.titleKey]) ?? text(item['label']) ?? text(item['name']);
        if (!href || seenGlobal.has(href)) continue;
        seenGlobal.add(href);
        const link: NavLink = { label: label ?? href, href };
        const icon = text(item['icon']);
        if (icon) link.icon = icon;
        globalLinks.push(link);
      }
    }
  };

  const entries = (list: unknown, where: string, scope: OpenApiScope | undefined): RawEntry[] => {
    if (list === undefined) return [];
    if (!Array.isArray(list)) {
      warn(`${where} must be an array`);
      return [];
    }
    const out: RawEntry[] = [];
    for (const item of list) {
      if (typeof item === 'string') {
        out.push(scope ? { kind: 'page', ref: item, scope } : { kind: 'page', ref: item });
      } else if (isObj(item) && (text(item['group']) !== undefined || Array.isArray(item['pages']))) {
        const title = text(item['group']) ?? '';
        const inner = scopeOf(item, scope);
        const children = [...entries(item['groups'], `${where} › ${title}.groups`, inner), ...entries(item['pages'], `${where} › ${title}.pages`, inner)];
        // A group that names a spec and lists nothing shows every operation of it.
        if (children.length === 0 && item['openapi'] !== undefined && inner) children.push({ kind: 'openapi', scope: inner });
        // AsyncAPI channels join the group beside the pages it lists (Mintlify's nested groups).
        children.push(...asyncEntries(item));
        const group: RawEntry = {
          kind: 'group',
          title,
          hidden: item['hidden'] === true,
          children,
        };
        const icon = text(item['icon']);
        if (icon) group.icon = icon;
        const root = text(item['root']);
        if (root) group.root = root;
        if (typeof item['expanded'] === 'boolean') group.expanded = item['expanded'];
        out.push(group);
      } else if (isObj(item) && text(item['href'])) {
        const href = item['href'] as string;
        const link: RawEntry = {
          kind: 'link',
          title: text(item['title']) ?? text(item['label']) ?? text(item['name']) ?? text(item['page']) ?? href,
          href,
        };
        const icon = text(item['icon']);
        if (icon) link.icon = icon;
        out.push(link);
      } else if (isObj(item) && text(item['page'])) {
        out.push(scope ? { kind: 'page', ref: item['page'] as string, scope } : { kind: 'page', ref: item['page'] as string });
      } else {
        warn(`${where}: entry ${JSON.stringify(item)?.slice(0, 80)} is neither a page, a group nor a link`);
      }
    }
    return out;
  };

  const walk = (node: Obj, trail: RawSection['trail'], hidden: boolean, where: string, scope: OpenApiScope | undefined): void => {
    collectGlobal(node['global']);
    let sidebar: RawEntry[] | undefined;
    for (const key of Object.keys(node)) {
      const def = DIVISIONS[key];
      if (def) {
        const items = node[key];
        if (!Array.isArray(items)) {
          warn(`${where}.${key} must be an array`);
          continue;
        }
        items.forEach((item, i) => {
          if (!isObj(item)) {
            warn(`${where}.${key}[${i}] must be an object`);
            return;
          }
          const title = text(item[def.titleKey]) ?? text(item['name']) ?? `${def.kind} ${i + 1}`;
          const step: RawSection['trail'][number] = { kind: def.kind, title };
          const icon = text(item['icon']);
          if (icon) step.icon = icon;
          const itemHidden = hidden || item['hidden'] === true;
          const itemWhere = `${where}.${key}[${i}]`;
          const itemScope = scopeOf(item, scope);
          if (hasContent(item)) {
            walk(item, [...trail, step], itemHidden, itemWhere, itemScope);
          } else if ((item['openapi'] !== undefined && itemScope) || item['asyncapi'] !== undefined) {
            // A tab (version, anchor…) that only names a spec: its sidebar is the spec's operations (and channels).
            const sidebar: RawEntry[] = [...(item['openapi'] !== undefined && itemScope ? [{ kind: 'openapi' as const, scope: itemScope }] : []), ...asyncEntries(item)];
            sections.push({ trail: [...trail, step], sidebar, hidden: itemHidden });
          } else if (text(item['href'])) {
            collectGlobal(item['global']);
            sections.push({ trail: [...trail, step], sidebar: [], href: item['href'] as string, hidden: itemHidden });
          } else if (item['openapi'] === undefined && item['asyncapi'] === undefined) {
            warn(`${itemWhere} ("${title}") has no pages, groups or href`);
          }
        });
      } else if (key === 'groups' || key === 'pages') {
        sidebar = [...(sidebar ?? []), ...entries(node[key], `${where}.${key}`, scope)];
      }
    }
    const channels = asyncEntries(node);
    if (channels.length > 0) sidebar = [...(sidebar ?? []), ...channels];
    if (sidebar !== undefined) sections.push({ trail, sidebar, hidden });
  };

  if (Array.isArray(navigation)) {
    // A bare array is a list of groups/pages (the legacy shape, also accepted by docs.json readers).
    sections.push({ trail: [], sidebar: entries(navigation, 'navigation', undefined), hidden: false });
  } else if (isObj(navigation)) {
    walk(navigation, [], false, 'navigation', readScope(navigation['openapi']));
  } else {
    warn('navigation must be an object');
  }
  return { sections, globalLinks };
}
