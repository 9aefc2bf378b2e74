import { Parser } from 'htmlparser2';

/** One request the crawl made that did not answer 200, and the page that linked to it. */
export interface CrawlMiss {
  url: string;
  status: number;
  from: string;
}

export interface CrawlResult {
  /** Every site path requested (page, asset, redirect page), in crawl order. */
  visited: string[];
  misses: CrawlMiss[];
  /** HTML pages read, by path: what a reader sees at each. */
  pages: Map<string, string>;
}

/**
 * The references of one HTML document a browser follows: links, stylesheets, icons, scripts,
 * images and a meta refresh. `rel=canonical` is left out: it names the extensionless URL for
 * crawlers (DESIGN section 4), which only the appliance (or the hosted platform) answers.
 */
export function referencesOf(html: string): string[] {
  const refs: string[] = [];
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'a' && attrs['href'] !== undefined) refs.push(attrs['href']);
        if (name === 'link' && attrs['href'] !== undefined && !/\bcanonical\b/i.test(attrs['rel'] ?? '')) refs.push(attrs['href']);
        if ((name === 'script' || name === 'img' || name === 'source' || name === 'video') && attrs['src']) refs.push(attrs['src']);
        if (name === 'meta' && attrs['http-equiv']?.toLowerCase() === 'refresh') {
          const url = /url=(.*)$/i.exec(attrs['content'] ?? '')?.[1];
          if (url) refs.push(url.trim());
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  return refs;
}

/**
 * Request every internal reference reachable from `start` (plus `extra` paths) on `origin`,
 * following no HTTP redirect: a 3xx is reported like a 404, because an object store or a CDN
 * answering the bundle has no directory redirect to lean on. Fragments and queries are dropped;
 * outside URLs, `mailto:` and the like are not requested.
 */
export async function crawl(origin: string, start: string[] = ['/']): Promise<CrawlResult> {
  const seen = new Set<string>();
  const queue: { url: string; from: string }[] = start.map((url) => ({ url, from: '(start)' }));
  const result: CrawlResult = { visited: [], misses: [], pages: new Map() };
  while (queue.length > 0) {
    const { url, from } = queue.shift() as { url: string; from: string };
    if (seen.has(url)) continue;
    seen.add(url);
    result.visited.push(url);
    const res = await fetch(origin + url, { redirect: 'manual' });
    if (res.status !== 200) {
      result.misses.push({ url, status: res.status, from });
      await res.arrayBuffer();
      continue;
    }
    if (!(res.headers.get('content-type') ?? '').startsWith('text/html')) {
      await res.arrayBuffer();
      continue;
    }
    const html = await res.text();
    result.pages.set(url, html);
    for (const ref of referencesOf(html)) {
      if (ref === '' || ref.startsWith('#') || /^[a-z][a-z0-9+.-]*:/i.test(ref) || ref.startsWith('//')) continue;
      const target = new URL(ref, origin + url);
      if (target.origin !== origin) continue;
      queue.push({ url: target.pathname, from: url });
    }
  }
  return result;
}
