import { beforeAll, describe, expect, it } from 'vitest';
import { normaliseDestination } from '../../../renderer/plan/redirects.js';
import type { BundleManifest } from '../../../renderer/types.js';
import { docsJson, exportFiles, type Exported } from './export-helpers.js';

const REDIRECTS = [
  { source: '/old-index', destination: '/guides/index' },
  { source: '/old-slash', destination: '/guides/setup/' },
  { source: '/old-mdx', destination: 'guides/setup.mdx#step-2' },
  { source: '/old-dot', destination: './guides/../guides/setup' },
  { source: '/gone', destination: '/nowhere/at-all' },
  { source: '/chain', destination: '/old-slash' },
  { source: '/to-file', destination: '/files/manual.pdf' },
  { source: '/outside', destination: 'https://example.com/x' },
  { source: '/temporary', destination: '/guides', permanent: false },
  { source: '/beta/:slug*', destination: '/guides/:slug*' },
  { source: '/articles/concepts-*', destination: '/guides/setup' },
  { source: '/users/:id/profile', destination: '/people/:id' },
  { source: '/pattern-gone/:slug*', destination: '/missing-page' },
];

let site: Exported;

beforeAll(async () => {
  site = await exportFiles({
    'docs.json': docsJson(['index', 'guides/index', 'guides/setup', 'links'], { redirects: REDIRECTS }),
    'index.mdx': '# Home',
    'guides/index.mdx': '# Guides',
    'guides/setup.mdx': '# Setup\n\n## Step 2',
    'links.mdx': '[a](/old-index) [b](/beta/setup) [c](/chain)',
    'files/manual.pdf': '%PDF-1.4',
  });
}, 60_000);

const refreshTarget = (html: string): string | undefined => /<meta http-equiv="refresh" content="0; url=([^"]*)"/.exec(html)?.[1];

describe('redirect destinations', () => {
  it('normalises them like content links', () => {
    expect(normaliseDestination('/guides/index')).toBe('/guides');
    expect(normaliseDestination('/guides/setup/')).toBe('/guides/setup');
    expect(normaliseDestination('guides/setup.mdx#step-2')).toBe('/guides/setup#step-2');
    expect(normaliseDestination('./a/../b?x=1')).toBe('/b?x=1');
    expect(normaliseDestination('/index')).toBe('/');
    expect(normaliseDestination('https://example.com/x/index')).toBe('https://example.com/x/index');
  });

  it('writes redirect pages that point at the page itself (in the bundle\'s /x/ form), never at /x/index', () => {
    expect(refreshTarget(site.page('/old-index'))).toBe('/guides/');
    expect(refreshTarget(site.page('/old-slash'))).toBe('/guides/setup/');
    expect(refreshTarget(site.page('/old-mdx'))).toBe('/guides/setup/#step-2');
    expect(refreshTarget(site.page('/old-dot'))).toBe('/guides/setup/');
    // A file keeps its own name; an outside URL is kept as written.
    expect(refreshTarget(site.page('/to-file'))).toMatch(/^\/files\/manual\.pdf$|^\/_assets\//);
    expect(refreshTarget(site.page('/outside'))).toBe('https://example.com/x');
    // Each redirect page is a directory index, so a plain static server finds `/old-index/`.
    expect(site.result.files.has('old-index/index.html')).toBe(true);
    expect(site.result.files.has('old-index.html')).toBe(false);
  });

  it('warns when a target is not a page, a file or another redirect, and only then', () => {
    const missing = site.result.warnings.filter((w) => w.code === 'redirect-missing-target');
    expect(missing.map((w) => w.message).sort()).toEqual([
      expect.stringContaining('/gone → /nowhere/at-all'),
      expect.stringContaining('/pattern-gone/:slug* → /missing-page'),
    ]);
    expect(missing[0]?.file).toBe('docs.json');
  });

  it('links through a redirect land on the normalised page', () => {
    const html = site.page('/links');
    expect(html).toMatch(/href="\/guides\/"/);
    expect(html).toMatch(/href="\/guides\/setup\/"/);
    expect(site.result.warnings.filter((w) => w.code === 'broken-link')).toEqual([]);
  });
});

describe('pattern redirects in the bundle', () => {
  it('lists the pattern redirects in the manifest, with their status', () => {
    const m = JSON.parse(site.file('manifest.json') ?? '{}') as BundleManifest;
    expect(m.redirects).toEqual([
      { source: '/beta/:slug*', destination: '/guides/:slug*', status: 308 },
      { source: '/articles/concepts-*', destination: '/guides/setup', status: 308 },
      { source: '/users/:id/profile', destination: '/people/:id', status: 308 },
      { source: '/pattern-gone/:slug*', destination: '/missing-page', status: 308 },
    ]);
    expect(m.files.map((f) => f.path)).toContain('nginx-redirects.conf');
    expect(site.result.warnings.map((w) => w.code)).not.toContain('redirect-dynamic');
  });

  it('writes an nginx snippet with every redirect, patterns applied only where no file answers', () => {
    const conf = site.file('nginx-redirects.conf') ?? '';
    expect(conf).toContain('location = "/old-index" { return 308 "/guides$is_args$args"; }');
    expect(conf).toContain('location = "/old-mdx" { return 308 "/guides/setup#step-2"; }');
    expect(conf).toContain('location = "/temporary" { return 307 "/guides$is_args$args"; }');
    expect(conf).toContain('location = "/outside" { return 308 "https://example.com/x$is_args$args"; }');
    expect(conf).toContain('try_files $uri $uri.html $uri/index.html @docs_redirects;');
    expect(conf).toContain('try_files $docs_dir/index.html $docs_dir.html @docs_redirects;');
    expect(conf).toContain('  if ($uri ~ "^/beta(?:/(.*))?/?$") { return 308 "/guides/$1$is_args$args"; }');
    expect(conf).toContain('  if ($uri ~ "^/articles/concepts-(.*)/?$") { return 308 "/guides/setup$is_args$args"; }');
    expect(conf).toContain('  if ($uri ~ "^/users/([^/]+)/profile/?$") { return 308 "/people/$1$is_args$args"; }');
    // Patterns come after the try_files, in a named location ending in the bundle's 404 page.
    expect(conf.indexOf('location @docs_redirects {')).toBeLessThan(conf.indexOf('^/beta'));
    expect(conf).toMatch(/error_page 404 \/404\.html;\n {2}return 404;\n\}\n$/);
  });
});
