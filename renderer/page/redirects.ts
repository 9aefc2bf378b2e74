/**
 * The site's redirects as seen by link checking: a link to a redirected path is not broken, and
 * it is rewritten to the redirect's target so readers skip the hop. Sources may use Mintlify's
 * patterns (`/old/:slug`, `/old/:path*`, `/old/*`). Compiled once per export (per context).
 */
import { compileRedirect, isPatternSource, trimSlashes } from '../redirect-patterns.js';
import { normaliseRef } from '../plan/slugs.js';
import type { RenderContext } from '../types.js';

interface Rule {
  match: (slug: string) => string | undefined;
}

const cache = new WeakMap<RenderContext, Rule[]>();
const MAX_HOPS = 5;

function compile(source: string, destination: string): Rule {
  const src = trimSlashes(source);
  if (!isPatternSource(src)) return { match: (slug) => (slug === src ? destination : undefined) };
  const compiled = compileRedirect(src, destination);
  return 'error' in compiled ? { match: () => undefined } : compiled;
}

function rulesFor(ctx: RenderContext): Rule[] {
  let rules = cache.get(ctx);
  if (!rules) {
    rules = (ctx.config.redirects ?? []).map((r) => compile(r.source, r.destination));
    cache.set(ctx, rules);
  }
  return rules;
}

/**
 * Where a page slug that is not a page ends up after the site's redirects: a page slug, an
 * external URL, or undefined when no redirect applies (or they loop).
 */
export function followRedirects(ctx: RenderContext, slug: string): { slug: string } | { url: string } | undefined {
  const rules = rulesFor(ctx);
  if (rules.length === 0) return undefined;
  let current = slug;
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    let target: string | undefined;
    for (const rule of rules) {
      target = rule.match(current);
      if (target !== undefined) break;
    }
    if (target === undefined) return hop === 0 ? undefined : { slug: current };
    if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(target)) return { url: target };
    // `/x/index`, `/x/`, `x.mdx` all name the page `x`, as in content links.
    const next = normaliseRef(target);
    if (ctx.pageIndex[next]) return { slug: next };
    current = next;
  }
  return undefined;
}
