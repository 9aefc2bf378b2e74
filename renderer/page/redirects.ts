/**
 * The site's redirects as seen by link checking: a link to a redirected path is not broken, and
 * it is rewritten to the redirect's target so readers skip the hop. Sources may use Mintlify's
 * patterns (`/old/:slug`, `/old/:path*`, `/old/*`). Compiled once per export (per context).
 */
import type { RenderContext } from '../types.js';

interface Rule {
  match: (slug: string) => string | undefined;
}

const cache = new WeakMap<RenderContext, Rule[]>();
const MAX_HOPS = 5;

function trimSlashes(p: string): string {
  return p.replace(/^\/+|\/+$/g, '');
}

function compile(source: string, destination: string): Rule {
  const src = trimSlashes(source);
  if (!/[:*]/.test(src)) return { match: (slug) => (slug === src ? destination : undefined) };
  const names: string[] = [];
  const pattern = src
    .split('/')
    .map((seg) => {
      const param = /^:([A-Za-z_]\w*)(\*)?$/.exec(seg);
      if (param?.[1]) {
        names.push(param[1]);
        return param[2] ? '(.*)' : '([^/]+)';
      }
      if (seg === '*') {
        names.push('*');
        return '(.*)';
      }
      return seg.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  const re = new RegExp(`^${pattern}$`);
  const fills = names.map((name) => (name === '*' ? /\*/ : new RegExp(`:${name}\\*?`, 'g')));
  return {
    match: (slug) => {
      const m = re.exec(slug);
      if (!m) return undefined;
      let out = destination;
      fills.forEach((fill, i) => {
        out = out.replace(fill, m[i + 1] ?? '');
      });
      return out;
    },
  };
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
    const next = trimSlashes(target.split(/[?#]/)[0] ?? '').replace(/\.mdx?$/i, '') || 'index';
    if (ctx.pageIndex[next]) return { slug: next };
    current = next;
  }
  return undefined;
}
