import { normaliseRef } from './slugs.js';

/**
 * mint.json kept its navigation as one array of groups and let `tabs` and `anchors` claim groups
 * by URL prefix (`{"name": "API", "url": "api-reference"}` takes every group whose pages live under
 * `api-reference/`); the rest goes to the primary tab (`primaryTab.name`, "Documentation" by
 * default). This rewrites that into the docs.json shape, so one interpreter reads both formats.
 */

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
const isExternal = (url: string): boolean => /^([a-z][a-z0-9+.-]*:|\/\/)/i.test(url);

function firstPage(entry: unknown): string | undefined {
  if (typeof entry === 'string') return normaliseRef(entry);
  if (!isObj(entry)) return undefined;
  if (text(entry['root'])) return normaliseRef(entry['root'] as string);
  const pages = entry['pages'];
  if (Array.isArray(pages)) {
    for (const p of pages) {
      const found = firstPage(p);
      if (found) return found;
    }
  }
  return undefined;
}

interface Claimer {
  kind: 'tabs' | 'anchors';
  titleKey: 'tab' | 'anchor';
  name: string;
  prefix: string;
  icon?: string;
  groups: unknown[];
}

function claimersOf(list: unknown, kind: Claimer['kind']): { internal: Claimer[]; external: Obj[] } {
  const titleKey = kind === 'tabs' ? 'tab' : 'anchor';
  const internal: Claimer[] = [];
  const external: Obj[] = [];
  for (const item of Array.isArray(list) ? list : []) {
    if (!isObj(item)) continue;
    const name = text(item['name']);
    const url = text(item['url']);
    if (!name || !url) continue;
    const icon = text(item['icon']);
    if (isExternal(url)) {
      external.push({ [titleKey]: name, href: url, ...(icon ? { icon } : {}) });
    } else {
      internal.push({ kind, titleKey, name, prefix: normaliseRef(url), ...(icon ? { icon } : {}), groups: [] });
    }
  }
  return { internal, external };
}

/** Which claimer's prefix holds each group; a group no prefix holds stays with the primary tab. */
function claim(groups: unknown[], claimers: Claimer[]): unknown[] {
  const primary: unknown[] = [];
  for (const group of groups) {
    const slug = firstPage(group);
    let best: Claimer | undefined;
    for (const c of claimers) {
      if (slug !== undefined && (slug === c.prefix || slug.startsWith(`${c.prefix}/`))) {
        if (!best || c.prefix.length > best.prefix.length) best = c;
      }
    }
    (best ? best.groups : primary).push(group);
  }
  return primary;
}

/**
 * A tab or anchor whose `url` is a path of this site but the prefix of no group's pages
 * (`{"name": "Community", "url": "/discord"}`, with `/discord` a redirect): a link to that path,
 * as Mintlify shows it, not a division with nothing in it.
 */
function asLink(c: Claimer): Obj {
  return { [c.titleKey]: c.name, href: c.prefix === 'index' ? '/' : `/${c.prefix}`, ...(c.icon ? { icon: c.icon } : {}) };
}

function distribute(groups: unknown[], legacy: Obj): Obj {
  const tabs = claimersOf(legacy['tabs'], 'tabs');
  const anchors = claimersOf(legacy['anchors'], 'anchors');
  const primary = claim(groups, [...tabs.internal, ...anchors.internal]);
  const tabLinks = [...tabs.internal.filter((c) => c.groups.length === 0).map(asLink), ...tabs.external];
  const anchorLinks = [...anchors.internal.filter((c) => c.groups.length === 0).map(asLink), ...anchors.external];
  const claiming = [...tabs.internal, ...anchors.internal].filter((c) => c.groups.length > 0);
  if (claiming.length === 0 && tabLinks.length === 0) {
    return { groups, ...(anchorLinks.length ? { global: { anchors: anchorLinks } } : {}) };
  }
  const primaryTab = isObj(legacy['primaryTab']) ? text(legacy['primaryTab']['name']) : undefined;
  const asItem = (c: Claimer): Obj => ({ [c.titleKey]: c.name, ...(c.icon ? { icon: c.icon } : {}), groups: c.groups });
  const tabItems: Obj[] = [];
  if (primary.length > 0) tabItems.push({ tab: primaryTab ?? 'Documentation', groups: primary });
  tabItems.push(...tabs.internal.filter((c) => c.groups.length > 0).map(asItem), ...tabLinks);
  const anchorItems = anchors.internal.filter((c) => c.groups.length > 0).map(asItem);
  const out: Obj = {};
  if (tabItems.length) out['tabs'] = tabItems;
  if (anchorItems.length) out['anchors'] = anchorItems;
  if (anchorLinks.length) out['global'] = { anchors: anchorLinks };
  return out;
}

export function legacyToNavigation(navigation: unknown[], legacy: Obj): Obj {
  const versions = Array.isArray(legacy['versions'])
    ? legacy['versions'].map((v) => (isObj(v) ? text(v['name']) : text(v))).filter((v): v is string => v !== undefined)
    : [];
  if (versions.length === 0) return distribute(navigation, legacy);
  // Groups tagged with `version` appear only under that version; untagged groups under all.
  return {
    versions: versions.map((version) => ({
      version,
      ...distribute(
        navigation.filter((g) => !isObj(g) || text(g['version']) === undefined || g['version'] === version),
        legacy,
      ),
    })),
  };
}
