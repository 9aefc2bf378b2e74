import { pageSpecFile } from '../openapi/page-spec-file.js';
import type { SitePlan } from '../types.js';
import { unionOf, type Requirement } from './contract.js';
import type { HiddenOperation } from './public-spec.js';

/** How reader access treats the spec files the bundle carries (bundle paths). */
export interface SpecAccess {
  /** Specs only some readers may fetch (bundle path → requirement): fixed in the access map. */
  requirements: Map<string, Requirement>;
  /** Every spec behind a page (repository path → bundle path and the operations to remove): written as its public view (public-spec.ts). */
  publicViews: Map<string, { bundled: string; hidden: HiddenOperation[] }>;
}

/**
 * Every spec behind a page is written as its public view (docs/reader-access.md, "Spec files").
 * A spec that backs a public page, and whose restricted pages are all operations, is then public,
 * those operations removed. One behind restricted pages only, or with a
 * restricted schema or channel page (which cannot be cut out of the document safely), stays
 * for the readers of its restricted pages (the union of their requirements): fail closed.
 */
export function specAccess(plan: Pick<SitePlan, 'pages' | 'assets'>, reqs: ReadonlyMap<string, Requirement>): SpecAccess {
  const specs = new Map<string, { bundled: string; hidden: HiddenOperation[]; restricted: Requirement[]; publicPage: boolean; uncut: boolean }>();
  for (const p of plan.pages) {
    const file = pageSpecFile(p.api);
    if (file === undefined) continue;
    const bundled = plan.assets[file] ?? plan.assets[file.replace(/^\/+/, '')];
    if (!bundled) continue;
    const key = plan.assets[file] ? file : file.replace(/^\/+/, '');
    let s = specs.get(key);
    if (!s) specs.set(key, (s = { bundled, hidden: [], restricted: [], publicPage: false, uncut: false }));
    const req = reqs.get(p.slug) ?? 'signed-in';
    if (req === 'public') {
      s.publicPage = true;
      continue;
    }
    s.restricted.push(req);
    if (p.api?.kind === 'operation') s.hidden.push({ method: p.api.operation.method, path: p.api.operation.path });
    else s.uncut = true;
  }
  const requirements = new Map<string, Requirement>();
  const publicViews: SpecAccess['publicViews'] = new Map();
  for (const [file, s] of specs) {
    const cut = s.publicPage && !s.uncut;
    publicViews.set(file, { bundled: s.bundled, hidden: cut ? s.hidden : [] });
    if (s.restricted.length > 0 && !cut) requirements.set(s.bundled, unionOf(s.restricted));
  }
  return { requirements, publicViews };
}
