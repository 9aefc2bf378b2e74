import type { DivisionKind, NavSection } from '../types.js';
import { safeHref } from './escape.js';
import { unionOf, type Requirement } from '../access/contract.js';
import { markers } from '../access/node-requirement.js';

export interface SwitcherOption {
  /** As shown: a language tag (`fr`) becomes its own name (`français`). */
  title: string;
  icon?: string;
  href: string;
  external: boolean;
  current: boolean;
  /** Reader access: markers around the option when every page under it is restricted (absent otherwise). */
  open?: string;
  close?: string;
}

/** One level of division nesting: the sibling options the reader can switch between. */
export interface SwitcherLevel {
  kind: DivisionKind;
  depth: number;
  options: SwitcherOption[];
}

const languageNames = new Map<string, string>();

/** `fr` → `français` (each language named in itself); anything that is not a tag stays as is. */
export function languageName(tag: string): string {
  const hit = languageNames.get(tag);
  if (hit) return hit;
  let name = tag;
  try {
    const own = new Intl.DisplayNames([tag], { type: 'language' }).of(tag);
    if (own && own.toLowerCase() !== tag.toLowerCase()) name = own;
  } catch {
    // Not a valid BCP 47 tag: a title such as "English" is already a name.
  }
  languageNames.set(tag, name);
  return name;
}

function samePrefix(a: NavSection['trail'], b: NavSection['trail'], length: number): boolean {
  for (let i = 0; i < length; i++) {
    const x = a[i];
    const y = b[i];
    if (!x || !y || x.kind !== y.kind || x.title !== y.title) return false;
  }
  return true;
}

/**
 * Plan flattens tabs/anchors/versions/… into sections with a trail; the switcher at depth i
 * offers every distinct trail[i] among the sections sharing the current trail up to i. Each
 * option links where its first section does (its first page, or the external href).
 */
export function switcherLevels(sections: NavSection[], current: NavSection | undefined, requirementOf?: (section: NavSection) => Requirement): SwitcherLevel[] {
  if (!current) return [];
  const levels: SwitcherLevel[] = [];
  current.trail.forEach((step, depth) => {
    const options: SwitcherOption[] = [];
    const seen = new Set<string>();
    // Reader access: an option stands for every section under it; it needs what all their pages need together.
    const reqs = new Map<string, Requirement[]>();
    for (const section of sections) {
      if (section.hidden && section !== current) continue;
      const own = section.trail[depth];
      if (!own || !samePrefix(section.trail, current.trail, depth)) continue;
      const key = `${own.kind}\u0000${own.title}`;
      if (requirementOf && !section.external) reqs.set(key, [...(reqs.get(key) ?? []), requirementOf(section)]);
      if (seen.has(key)) continue;
      seen.add(key);
      options.push({
        title: own.kind === 'language' ? languageName(own.title) : own.title,
        ...(own.icon ? { icon: own.icon } : {}),
        // A section's href is the config's own for an external tab or anchor: checked like every config link.
        href: safeHref(section.href),
        external: section.external,
        current: own.kind === step.kind && own.title === step.title,
      });
    }
    if (requirementOf) {
      const keys = [...seen];
      options.forEach((o, i) => {
        const list = reqs.get(keys[i] as string);
        const m = markers(list ? unionOf(list) : 'public');
        if (m.open) Object.assign(o, m);
      });
    }
    if (options.length > 0) levels.push({ kind: step.kind, depth, options });
  });
  return levels;
}
