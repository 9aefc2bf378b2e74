/**
 * Checks an exported site directory the way a reader would meet it, without trusting the
 * renderer's own warnings: every internal link must reach a file of the bundle, every
 * `#fragment` must name an id on its target page, and no page may show JSX or expression source
 * as text. Used by `npm run corpora` and by the tests that export small sites (it reads only the
 * output directory it is given, never the corpora).
 */
import fs from 'node:fs';
import path from 'node:path';
import { Parser } from 'htmlparser2';

export interface SiteCheck {
  pages: number;
  brokenLinks: { page: string; href: string }[];
  missingFragments: { page: string; href: string }[];
  rawSourcePages: { page: string; sample: string }[];
}

/** Text that is JSX or a JS expression leaking into the page, not prose about it. */
const RAW_SOURCE_RES: RegExp[] = [
  // <Card title=… or </Card>, but not a generic type such as ReactElement<StepProps>[]
  /(?:^|[\s({>])<\/?[A-Z][A-Za-z0-9]*(?:\.[A-Z][A-Za-z0-9]*)*(?:\s+[a-zA-Z][\w-]*=|\s*\/?>)/,
  /\{[^{}\n]{0,200}(?:=>|\?\s*<|&&\s*<|\.map\()[^{}\n]{0,200}\}/, // {cond ? <x/> : …}, {xs.map(…)}
  /\bclassName=["{]/,
  /^\s*(?:export\s+(?:const|default|function)|import\s+[\w{*][^;\n]*\sfrom\s+["'])/m,
];

/** Elements whose text is code or not shown, where source text is expected. */
const CODE_ELEMENTS = new Set(['code', 'pre', 'script', 'style', 'template', 'textarea', 'svg', 'noscript']);

interface PageScan {
  ids: Set<string>;
  links: string[];
  rawSample?: string;
}

function scanPage(html: string): PageScan {
  const ids = new Set<string>();
  const links: string[] = [];
  let codeDepth = 0;
  let text = '';
  let rawSample: string | undefined;
  const flush = (): void => {
    if (!rawSample && text.trim()) {
      const hit = RAW_SOURCE_RES.map((re) => re.exec(text)).find(Boolean);
      if (hit) rawSample = hit[0].slice(0, 120);
    }
    text = '';
  };
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        flush();
        if (attrs['id']) ids.add(attrs['id']);
        if (name === 'a' && attrs['name']) ids.add(attrs['name']);
        if (name === 'a' && attrs['href'] !== undefined) links.push(attrs['href']);
        if (CODE_ELEMENTS.has(name)) codeDepth++;
      },
      ontext(data) {
        if (codeDepth === 0) text += data;
      },
      onclosetag(name) {
        flush();
        if (CODE_ELEMENTS.has(name)) codeDepth = Math.max(0, codeDepth - 1);
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  flush();
  return { ids, links, ...(rawSample ? { rawSample } : {}) };
}

function listFiles(root: string): string[] {
  const out: string[] = [];
  const stack = [''];
  while (stack.length > 0) {
    const rel = stack.pop() as string;
    for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) stack.push(child);
      else if (e.isFile()) out.push(child);
    }
  }
  return out;
}

/**
 * How links are resolved: `appliance` as its site listener looks a path up (`/a` → `a`, `a.html`,
 * `a/index.html`); `static` as a plain static file server with no rewrite rules does (`/a/` →
 * `a/index.html`, `/a` → the file `a` only: an object store has no directory redirect).
 */
export type ServingMode = 'appliance' | 'static';

/** The bundle file a site-relative path is served from, or undefined. */
function targetFile(files: Set<string>, urlPath: string, mode: ServingMode): string | undefined {
  const p = urlPath.replace(/^\/+/, '').replace(/\/+$/, '');
  if (mode === 'static') {
    const candidate = p === '' ? 'index.html' : urlPath.endsWith('/') ? `${p}/index.html` : p;
    return files.has(candidate) ? candidate : undefined;
  }
  const candidates = p === '' ? ['index.html'] : [p, `${p}.html`, `${p}/index.html`];
  return candidates.find((c) => files.has(c));
}

/** The URL a page file is read at, which its relative links resolve against. */
function servedAt(page: string, mode: ServingMode): string {
  // A static server serves a/index.html at `/a/` (and index.html at `/`), a/b.html at `/a/b.html`.
  if (mode === 'static') return `/${page.replace(/(?:^|\/)index\.html$/, (m) => (m.startsWith('/') ? '/' : ''))}`;
  // The appliance at `/a/b` for a/b.html, `/a` for a/index.html.
  return `/${page.replace(/(?:^|\/)index\.html$/, '').replace(/\.html$/, '')}`;
}

export function checkSite(outDir: string, mode: ServingMode = 'appliance'): SiteCheck {
  const files = new Set(listFiles(outDir));
  const pages = [...files].filter((f) => f.endsWith('.html') && f !== '404.html').sort();
  const scans = new Map<string, PageScan>();
  const scanOf = (file: string): PageScan => {
    let s = scans.get(file);
    if (!s) {
      s = scanPage(fs.readFileSync(path.join(outDir, file), 'utf8'));
      scans.set(file, s);
    }
    return s;
  };
  const result: SiteCheck = { pages: pages.length, brokenLinks: [], missingFragments: [], rawSourcePages: [] };
  for (const page of pages) {
    const scan = scanOf(page);
    if (scan.rawSample) result.rawSourcePages.push({ page, sample: scan.rawSample });
    // A redirect page is only a meta refresh; its one link is checked like any other.
    for (const href of scan.links) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')) continue; // outside the bundle
      const hashAt = href.indexOf('#');
      const pathPart = (hashAt >= 0 ? href.slice(0, hashAt) : href).split('?')[0] ?? '';
      const fragment = hashAt >= 0 ? href.slice(hashAt + 1) : '';
      let decodedPath: string;
      try {
        decodedPath = decodeURIComponent(pathPart);
      } catch {
        result.brokenLinks.push({ page, href });
        continue;
      }
      // Relative links resolve against the folder of the URL the page is read at.
      const base = servedAt(page, mode);
      const folder = base.endsWith('/') ? base : path.posix.dirname(base);
      const absolute = decodedPath.startsWith('/') ? decodedPath : path.posix.join(folder, decodedPath);
      const target = pathPart === '' ? page : targetFile(files, path.posix.normalize(absolute), mode);
      if (!target) {
        result.brokenLinks.push({ page, href });
        continue;
      }
      if (fragment && target.endsWith('.html')) {
        let id = fragment;
        try {
          id = decodeURIComponent(fragment);
        } catch {
          /* keep it as written */
        }
        if (!scanOf(target).ids.has(id)) result.missingFragments.push({ page, href });
      }
    }
  }
  return result;
}
