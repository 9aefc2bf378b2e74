import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSite } from '../../scripts/site-check/check-site.js';
import { exportSite, type ExportResult } from '../../renderer/index.js';
import { createTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { crawl, referencesOf } from '../helpers/crawl.js';
import { searchUrls } from '../helpers/search-index.js';
import { pythonStaticServer, type StaticServer } from '../helpers/static-server.js';
import { tempSite } from '../renderer/load/site-fixtures.js';
import { fastLoader, siteFeature } from '../site/helpers.js';
import { sharedRenderPool } from '../helpers/render-pool.js';

/**
 * Issue 15 part 8: an exported bundle, unzipped and served by a plain static file server with no
 * rewrite rules (python's http.server here), answers every internal link; the appliance's site
 * listener serves the same bundle with clean URLs on top.
 */
const SOURCE = {
  'docs.json': JSON.stringify({
    name: 'Portable',
    colors: { primary: '#0d9373' },
    logo: { light: '/images/logo.png', dark: '/images/logo.png', href: '/guides' },
    navbar: { links: [{ label: 'Setup', href: '/guides/setup' }], primary: { type: 'button', label: 'Nested', href: '/guides/deep/nested' } },
    footer: { links: [{ header: 'More', items: [{ label: 'Old setup', href: '/old-setup' }] }] },
    navigation: {
      global: { anchors: [{ anchor: 'Guides home', href: '/guides/' }] },
      languages: [
        {
          language: 'en',
          tabs: [
            { tab: 'Docs', groups: [{ group: 'Start', pages: ['index', { group: 'Guides', root: 'guides/index', pages: ['guides/setup', 'guides/deep/nested'] }] }] },
            { tab: 'Reference', groups: [{ group: 'API', pages: ['reference/api'] }] },
          ],
        },
        { language: 'fr', groups: [{ group: 'Début', pages: ['fr/index', 'fr/guides/setup'] }] },
      ],
    },
    redirects: [
      { source: '/old-setup', destination: '/guides/setup' },
      { source: '/older', destination: '/old-setup' },
      { source: '/old/:slug*', destination: '/guides/:slug*' },
    ],
  }),
  'index.mdx':
    '---\ntitle: Home\n---\n\n[Setup](/guides/setup) [step two](/guides/setup#step-two) [nested](guides/deep/nested.mdx) ' +
    '[old](/old-setup) [pattern](/old/setup) [guides](/guides/index)\n\n<Card title="Guides" href="/guides">Go</Card>\n\n![logo](/images/logo.png)\n',
  'guides/index.mdx': '# Guides\n\n[relative](./setup) [up](../) [deeper](deep/nested#bottom)\n',
  'guides/setup.mdx': '# Setup\n\n## Step two\n\n[home](/) [reference](/reference/api)\n',
  'guides/deep/nested.mdx': '# Nested\n\n[back](../setup#step-two) [sibling](../../reference/api.mdx)\n\n## Bottom\n',
  'reference/api.mdx': '# API\n\n[french](/fr/guides/setup)\n',
  'fr/index.mdx': '# Accueil\n\n[installation](/fr/guides/setup)\n',
  'fr/guides/setup.mdx': '# Installation\n\n[accueil](/fr)\n',
  // Not a real PNG: an asset is copied as it is.
  'images/logo.png': 'PNG',
};

const PAGES = ['/', '/guides/', '/guides/setup/', '/guides/deep/nested/', '/reference/api/', '/fr/', '/fr/guides/setup/'];

let outDir: string;
let zip: string;
let result: ExportResult;

beforeAll(async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-portable-'));
  outDir = path.join(tmp, 'site');
  zip = path.join(tmp, 'bundle.zip');
  const pool = sharedRenderPool(1);
  try {
    result = await exportSite({ sourceDir: tempSite(SOURCE), outDir, outZip: zip, pool, projectId: 'p', domain: 'docs.example', version: 'portable', createdAt: new Date('2026-01-01T00:00:00Z') });
  } finally {
    await pool.close();
  }
}, 60_000);

describe('the bundle layout', () => {
  it('writes each page as a directory index and each static redirect as one too', () => {
    for (const p of ['index.html', 'guides/index.html', 'guides/setup/index.html', 'guides/deep/nested/index.html', 'fr/index.html', 'fr/guides/setup/index.html', 'old-setup/index.html', 'older/index.html', '404.html']) {
      expect(result.files.has(p), p).toBe(true);
    }
    expect([...result.files.keys()].filter((p) => /(?<!\/index|^index|^404)\.html$/.test(p))).toEqual([]);
  });

  it('keeps the canonical link and the sitemap extensionless', () => {
    const setup = fs.readFileSync(path.join(outDir, 'guides/setup/index.html'), 'utf8');
    expect(setup).toContain('<link rel="canonical" href="/guides/setup">');
    const sitemap = fs.readFileSync(path.join(outDir, 'sitemap.xml'), 'utf8');
    expect(sitemap).toContain('<loc>https://docs.example/guides/setup</loc>');
    const locs = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1] as string);
    expect(locs.filter((l) => l !== 'https://docs.example/' && (l.endsWith('/') || l.endsWith('.html')))).toEqual([]);
  });

  it('links pages, config links, switchers and redirect pages in the /x/ form', () => {
    const home = fs.readFileSync(path.join(outDir, 'index.html'), 'utf8');
    const refs = referencesOf(home);
    for (const href of ['/guides/setup/', '/guides/setup/#step-two', '/guides/deep/nested/', '/guides/', '/fr/']) expect(refs, href).toContain(href);
    // Not one internal page link without its slash (assets keep their file names).
    expect(refs.filter((r) => r.startsWith('/') && !r.startsWith('/_') && !r.endsWith('/') && !r.includes('/#') && !r.includes('/?'))).toEqual([]);
    expect(fs.readFileSync(path.join(outDir, 'old-setup/index.html'), 'utf8')).toContain('url=/guides/setup/"');
    // A chain stays a chain of static pages, each one found by a static server.
    expect(fs.readFileSync(path.join(outDir, 'older/index.html'), 'utf8')).toContain('url=/old-setup/"');
  });

  it('has no link the strict static-server check finds broken', () => {
    const check = checkSite(outDir, 'static');
    expect(check.brokenLinks).toEqual([]);
    expect(check.missingFragments).toEqual([]);
  });

  it('points every search result at a page a static server finds', () => {
    const urls = searchUrls(outDir);
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) expect(fs.existsSync(path.join(outDir, url, 'index.html')), url).toBe(true);
  });
});

describe('served by a plain static file server (python3 -m http.server)', () => {
  let server: StaticServer;
  beforeAll(async () => {
    server = await pythonStaticServer(outDir);
  }, 20_000);
  afterAll(() => server?.close());

  it('answers every internal link, redirect page and search result with 200, following no HTTP redirect', async () => {
    const crawled = await crawl(server.origin, ['/', '/old-setup/', '/older/', '/404.html', ...searchUrls(outDir)]);
    expect(crawled.misses).toEqual([]);
    for (const p of PAGES) expect(crawled.pages.has(p), p).toBe(true);
    expect(crawled.visited.some((u) => u.startsWith('/_static/'))).toBe(true);
    // The redirect pages answered, and their meta refresh landed on the page.
    expect(crawled.pages.get('/old-setup/')).toContain('url=/guides/setup/"');
  }, 60_000);
});

describe('served by the appliance site listener', () => {
  let t: TestAppliance;
  let origin: string;
  let server: http.Server;
  beforeAll(async () => {
    t = createTestAppliance({ config: { staticExport: { enabled: true, bundleUrl: 'placeholder', ...fastLoader } } });
    await t.start();
    await siteFeature(t.features).reload({ ...t.config, staticExport: { ...t.config.staticExport, bundleUrl: zip } });
    server = http.createServer(t.site);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 60_000);
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    server.closeAllConnections();
    await t.close();
  });

  it('answers every internal link with 200', async () => {
    const crawled = await crawl(origin, ['/', '/404.html']);
    expect(crawled.misses).toEqual([]);
    for (const p of PAGES) expect(crawled.pages.has(p), p).toBe(true);
  }, 60_000);

  it('serves clean URLs: /x and /x/ answer the same page, the canonical form included', async () => {
    for (const p of PAGES.filter((u) => u !== '/')) {
      const slash = await supertest(t.site).get(p).expect(200);
      const clean = await supertest(t.site).get(p.slice(0, -1)).expect(200);
      expect(clean.text).toBe(slash.text);
      expect(clean.text).toContain(`<link rel="canonical" href="${p.slice(0, -1)}">`);
    }
  });

  it('still applies pattern redirects and answers a miss with the bundle 404 page', async () => {
    expect((await supertest(t.site).get('/old/setup').expect(308)).headers.location).toBe('/guides/setup');
    const miss = await supertest(t.site).get('/nowhere/').expect(404);
    expect(miss.text).toContain('Page not found');
  });
});
