import { pageSpecFile } from '../openapi/page-spec-file.js';
import type { NavNode, SitePlan } from '../types.js';

/** The parts of llms.txt after its pages (mintlify-docs ai/llmstxt.mdx, "Structure of the llms.txt file"). */
export interface LlmsLinks {
  /** OpenAPI and AsyncAPI documents the site's pages are made from: name and bundle URL path. */
  /** `requirement`: reader access, set when only some readers may fetch the spec (its line is a marked fragment). */
  openapi: { name: string; path: string; requirement?: import('../access/contract.js').Requirement }[];
  asyncapi: { name: string; path: string }[];
  /** Absolute URLs of the navigation (external tabs, sidebar links, global anchors): the `Optional` section. */
  optional: { title: string; href: string }[];
}

const nameOf = (file: string): string => (file.split('/').pop() ?? file).replace(/\.(json|ya?ml)$/i, '');

/**
 * Specs are listed when a visible page of the listed division (llms.txt's language and version)
 * is made from them, at their path in the bundle (the repository file, content-hashed like every
 * asset). External links of that division's sections and the global ones are listed once each, in
 * navigation order.
 */
export function llmsLinks(plan: Pick<SitePlan, 'pages' | 'assets' | 'sections' | 'globalLinks'>, listedSection: (sectionId: string | undefined) => boolean): LlmsLinks {
  const openapi = new Set<string>();
  const asyncapi = new Set<string>();
  for (const p of plan.pages) {
    if (p.hidden || !listedSection(p.sectionId)) continue;
    const file = pageSpecFile(p.api);
    if (file !== undefined) (p.api?.kind === 'channel' ? asyncapi : openapi).add(file);
  }
  const listed = (files: Set<string>) =>
    [...files].sort().flatMap((file) => {
      const bundled = plan.assets[file];
      return bundled ? [{ name: nameOf(file), path: `/${bundled}` }] : [];
    });
  const optional: LlmsLinks['optional'] = [];
  const seen = new Set<string>();
  const add = (title: string, href: string): void => {
    if (!/^https?:\/\//i.test(href) || seen.has(href)) return;
    seen.add(href);
    optional.push({ title, href });
  };
  const walk = (nodes: readonly NavNode[]): void => {
    for (const n of nodes) {
      if (n.kind === 'link') add(n.title, n.href);
      else if (n.kind === 'group') walk(n.children);
    }
  };
  for (const link of plan.globalLinks) add(link.label, link.href);
  for (const s of plan.sections) {
    if (!listedSection(s.id)) continue;
    if (s.external) add(s.trail[s.trail.length - 1]?.title ?? s.href, s.href);
    walk(s.sidebar);
  }
  return { openapi: listed(openapi), asyncapi: listed(asyncapi), optional };
}
