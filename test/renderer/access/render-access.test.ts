import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportSite, type ExportResult, type RenderPool } from '../../../renderer/index.js';
import { ANONYMOUS, canSee, markOpen, type ReaderView, type Requirement } from '../../../renderer/access/contract.js';
import { filterMarked } from '../../../renderer/access/filter.js';
import { sharedRenderPool } from '../../helpers/render-pool.js';
import { clientSearch, type BundleFiles } from '../../helpers/search-index.js';
import { accessSite, PUBLIC_MARKERS, RESTRICTED_MARKERS } from './fixture.js';

/**
 * The renderer's half of reader access (issue 40): page requirements, the manifest's access map,
 * markers in every listing of pages, and search shards per requirement, checked on a fixture.
 */

let pool: RenderPool;
let on: ExportResult;
const decoder = new TextDecoder();
const text = (r: ExportResult, p: string): string => decoder.decode(r.files.get(p));
const CREATED = new Date('2026-01-01T00:00:00Z');

const member: ReaderView = { signedIn: true, groups: new Set() };
const admin: ReaderView = { signedIn: true, groups: new Set(['admin']) };

/** The bundle as `view` receives it: files it may not see are gone, marked files filtered. */
function viewOf(r: ExportResult, view: ReaderView): BundleFiles & { paths: string[] } {
  const access = r.manifest.access;
  if (!access) throw new Error('no access map');
  const marked = new Set(access.marked);
  const visible = (p: string): boolean => canSee((access.files[p] ?? access.defaultRequirement) as Requirement, view);
  return {
    paths: [...r.files.keys()].filter(visible),
    get(p) {
      const bytes = r.files.get(p);
      if (!bytes || !visible(p)) return undefined;
      return marked.has(p) ? new TextEncoder().encode(filterMarked(decoder.decode(bytes), view)) : bytes;
    },
  };
}

beforeAll(async () => {
  pool = sharedRenderPool(2);
  on = await exportSite({ sourceDir: accessSite(), pool, readerAccess: true, createdAt: CREATED });
});

afterAll(async () => {
  await pool.close();
});

describe('reader access in the renderer', () => {
  it('gives each page its requirement and lists every file that differs from the default', () => {
    const access = on.manifest.access;
    expect(access?.defaultRequirement).toBe('public');
    const files = access?.files ?? {};
    expect(files['member-guide/index.html']).toBe('signed-in');
    expect(files['member-guide.md']).toBe('signed-in');
    expect(files['admin-guide/index.html']).toBe('groups:admin');
    expect(files['admin-guide.md']).toBe('groups:admin');
    expect(files['partner-page/index.html']).toBe('groups:partners');
    // Public through the navigation (nested too), through frontmatter, through a public API group.
    for (const p of ['intro/index.html', 'nested-page/index.html', 'own-public/index.html', 'intro.md']) expect(files[p]).toBeUndefined();
    const apiPages = Object.entries(files).filter(([p]) => p.startsWith('api-reference/'));
    expect(apiPages.length).toBeGreaterThan(0);
    expect(apiPages.every(([, r]) => r === 'groups:admin')).toBe(true);
    expect(apiPages.some(([p]) => p.endsWith('/index.html') && text(on, p).includes('resetadminwpl'))).toBe(true);
    expect(access?.pages).toEqual({ public: 4, signedIn: 1, groups: 3 });
  });

  it('gives an image only an admin page uses the admin requirement, and leaves a shared one public', () => {
    const files = on.manifest.access?.files ?? {};
    const assets = [...on.files.keys()].filter((p) => p.endsWith('.png'));
    expect(assets).toHaveLength(2);
    const adminAsset = assets.find((p) => text(on, 'admin-guide/index.html').includes(p) && !text(on, 'intro/index.html').includes(p));
    const sharedAsset = assets.find((p) => text(on, 'intro/index.html').includes(p));
    expect(adminAsset).toBeDefined();
    expect(files[adminAsset as string]).toBe('groups:admin');
    expect(sharedAsset).toBeDefined();
    expect(files[sharedAsset as string]).toBeUndefined();
  });

  it('marks the sidebar, the pager, llms.txt, llms-full.txt, sitemap.xml and the search listing', () => {
    const marked = on.manifest.access?.marked ?? [];
    for (const p of ['intro/index.html', '404.html', 'llms.txt', 'llms-full.txt', 'sitemap.xml', '_search/scopes.json']) expect(marked).toContain(p);
    const intro = text(on, 'intro/index.html');
    // The sidebar's entry of the member page, and the Admin group (all its pages restricted) as a whole.
    expect(intro).toMatch(new RegExp(`${markOpen('signed-in')}<li><a href="/member-guide/"`));
    expect(intro).toContain(`${markOpen('groups:admin')}<li class="nav-section">`);
    expect(text(on, 'sitemap.xml')).toContain(`${markOpen('signed-in')}  <url><loc>/member-guide</loc></url><!--/da-->`);
    expect(text(on, 'llms.txt')).toContain(`${markOpen('groups:admin')}- [Admin admintitleqjw](/admin-guide.md)`);
    // The pager: own-public follows member-guide in navigation order.
    expect(text(on, 'own-public/index.html')).toContain(`${markOpen('signed-in')}<a class="pager-link pager-prev" href="/member-guide/"`);
    // The listing stays valid JSON for every view.
    for (const view of [ANONYMOUS, member, admin]) expect(() => JSON.parse(viewOf(on, view).get('_search/scopes.json') ? decoder.decode(viewOf(on, view).get('_search/scopes.json')) : '')).not.toThrow();
  });

  it('leaks no restricted page to an anonymous reader, in any file it may receive', () => {
    const anon = viewOf(on, ANONYMOUS);
    for (const p of anon.paths) {
      // The assistant's section index is not served to readers (the appliance's retrieval reads it).
      if (p.startsWith('_retrieval/')) continue;
      const body = decoder.decode(anon.get(p)).toLowerCase();
      for (const m of RESTRICTED_MARKERS) expect(body.includes(m), `${m} in ${p}`).toBe(false);
    }
    // …while what is public is all still there.
    const all = anon.paths.map((p) => decoder.decode(anon.get(p))).join('\n').toLowerCase();
    for (const m of PUBLIC_MARKERS) expect(all).toContain(m);
  });

  it('filterMarked(…, ANONYMOUS) of every marked file anonymous readers receive drops every restricted marker word', () => {
    const access = on.manifest.access;
    const received = (access?.marked ?? []).filter((p) => canSee(access?.files[p] ?? 'public', ANONYMOUS));
    expect(received.length).toBeGreaterThan(5);
    for (const p of received) {
      const body = filterMarked(text(on, p), ANONYMOUS).toLowerCase();
      for (const m of RESTRICTED_MARKERS) expect(body.includes(m), `${m} in ${p}`).toBe(false);
    }
  });

  it('puts restricted pages in search shards of their own, which the client searches for readers who may load them', async () => {
    const files = on.manifest.access?.files ?? {};
    const shardFiles = Object.entries(files).filter(([p]) => p.startsWith('_search/'));
    expect(shardFiles.some(([p, r]) => p.startsWith('_search/all~signed-in/') && r === 'signed-in')).toBe(true);
    expect(shardFiles.some(([, r]) => r === 'groups:admin')).toBe(true);
    // The public shard holds only public pages.
    const publicDocs = Object.keys(Object.fromEntries([...on.files.keys()].filter((p) => p.startsWith('_search/all/d.')).map((p) => [p, 1])))
      .map((p) => text(on, p))
      .join('');
    expect(publicDocs).toContain('/intro/');
    expect(publicDocs).not.toContain('/member-guide/');

    const anonymous = await clientSearch(viewOf(on, ANONYMOUS), 'all').search('words');
    const anonymousUrls = anonymous.results.map((r) => r.url);
    expect(anonymousUrls).toContain('/intro/');
    expect(anonymousUrls).not.toContain('/member-guide/');
    expect(anonymousUrls).not.toContain('/admin-guide/');

    const asAdmin = await clientSearch(viewOf(on, admin), 'all').search('words', { limit: 50 });
    const adminUrls = asAdmin.results.map((r) => r.url);
    expect(adminUrls).toContain('/intro/');
    expect(adminUrls).toContain('/member-guide/');
    expect(adminUrls).toContain('/admin-guide/');
    expect(adminUrls).not.toContain('/partner-page/');
    expect(asAdmin.results.every((r) => r.label === undefined)).toBe(true);
  });
});

describe('reader access off', () => {
  it('writes the bundle byte for byte as without the option', async () => {
    const source = accessSite();
    const plain = await exportSite({ sourceDir: source, pool, createdAt: CREATED });
    const off = await exportSite({ sourceDir: source, pool, readerAccess: false, createdAt: CREATED });
    expect(off.manifest.access).toBeUndefined();
    expect([...off.files.keys()].sort()).toEqual([...plain.files.keys()].sort());
    for (const [p, bytes] of plain.files) expect(Buffer.from(off.files.get(p) as Uint8Array).equals(Buffer.from(bytes)), p).toBe(true);
    for (const [p, bytes] of off.files) expect(decoder.decode(bytes).includes('<!--da:'), p).toBe(false);
    expect(text(off, '_search/scopes.json')).toBe(JSON.stringify({ v: 1, scopes: [{ key: 'all', pages: 8 }] }));
  });
});
