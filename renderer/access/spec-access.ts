import { pageSpecFile } from '../openapi/page-spec-file.js';
import type { SitePlan } from '../types.js';
import { unionOf, type Requirement } from './contract.js';

/**
 * The requirement of each OpenAPI/AsyncAPI file the bundle carries (bundle path → requirement),
 * for specs behind at least one restricted page: a spec holds every operation whole, so one with
 * a restricted operation is only for the readers of its restricted pages (the union of their
 * requirements), even when it also backs public pages (fail closed: those pages are rendered
 * already and need no spec at reading time). Specs behind public pages only are left out.
 */
export function specRequirements(plan: Pick<SitePlan, 'pages' | 'assets'>, reqs: ReadonlyMap<string, Requirement>): Map<string, Requirement> {
  const restricted = new Map<string, Requirement[]>();
  for (const p of plan.pages) {
    const file = pageSpecFile(p.api);
    const req = reqs.get(p.slug);
    if (file === undefined || req === undefined || req === 'public') continue;
    const bundled = plan.assets[file] ?? plan.assets[file.replace(/^\/+/, '')];
    if (!bundled) continue;
    const list = restricted.get(bundled);
    if (list) list.push(req);
    else restricted.set(bundled, [req]);
  }
  return new Map([...restricted].map(([file, list]) => [file, unionOf(list)]));
}
