import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportSite, type ExportResult, type RenderPool } from '../../../renderer/index.js';
import { INLINE_LINKS, WINDOW_LINKS } from '../../../renderer/layout/sidebar-window.js';
import { tempSite } from '../load/site-fixtures.js';
import { sharedRenderPool } from '../../helpers/render-pool.js';

/**
 * The sidebar of a large tab: each page carries a bounded window (first paint, no JavaScript),
 * the whole tree is one shared file; an ordinary tab is carried whole as before.
 */

/** One tab of `groups` groups × `perGroup` pages (plus a small second tab). */
function tabSite(groups: number, perGroup: number): string {
  const files: Record<string, string> = {};
  const big = Array.from({ length: groups }, (_, g) => ({
    group: `Group ${g}`,
    pages: Array.from({ length: perGroup }, (_, k) => {
      const slug = `big/g${g}/p${k}`;
      files[`${slug}.mdx`] = `---\ntitle: Page ${g}.${k}\n---\n\nText.\n`;
      return slug;
    }),
  }));
  files['small/a.mdx'] = '---\ntitle: Small A\n---\n\nA.\n';
  files['small/b.mdx'] = '---\ntitle: Small B\n---\n\nB.\n';
  files['docs.json'] = JSON.stringify({ name: 'Big', navigation: { tabs: [{ tab: 'Big', groups: big }, { tab: 'Small', groups: [{ group: 'Only', pages: ['small/a', 'small/b'] }] }] } });
  return tempSite(files);
}

const NAV = /<nav class="sidebar-nav"[^>]*>([\s\S]*?)<\/nav>/;
const text = (r: ExportResult, p: string): string => new TextDecoder().decode(r.files.get(p));
const navOf = (html: string): string => NAV.exec(html)?.[0] ?? '';
const links = (html: string): number => (html.match(/<a href=/g) ?? []).length;

let pool: RenderPool;
const sites = new Map<number, ExportResult>();
// 200 pages in one tab; 1,000 and 3,000 in 10 groups; 3,000 in 20 and in 150 groups.
const SIZES = [[4, 50], [10, 100], [10, 300], [20, 150], [150, 20]] as const;

beforeAll(async () => {
  pool = sharedRenderPool(2);
  for (const [groups, perGroup] of SIZES) sites.set(groups * 1000 + perGroup, await exportSite({ sourceDir: tabSite(groups, perGroup), pool }));
}, 240_000);

const site = (groups: number, perGroup: number): ExportResult => sites.get(groups * 1000 + perGroup)!;

afterAll(async () => {
  await pool.close();
});

describe('sidebar of a large tab', () => {
  it('carries an ordinary tab whole, with no shared file', () => {
    const r = site(4, 50);
    expect(200).toBeLessThanOrEqual(INLINE_LINKS);
    const nav = navOf(text(r, 'big/g2/p10/index.html'));
    expect(nav).not.toContain('data-sidebar-src');
    expect(links(nav)).toBe(200);
    expect([...r.files.keys()].some((p) => p.startsWith('_sidebar/'))).toBe(false);
  });

  it('keeps the bytes a page carries for the sidebar bounded as the tab grows', () => {
    const nav = (r: ExportResult, g: number, k: number): number => navOf(text(r, `big/g${g}/p${k}/index.html`)).length;
    // Bigger groups: the same window.
    const at1000 = nav(site(10, 100), 5, 50);
    const at3000 = nav(site(10, 300), 5, 150);
    expect(at3000).toBeLessThan(at1000 * 1.05);
    // More groups: at most HEADINGS headings besides the window.
    const manyGroups = navOf(text(site(150, 20), 'big/g75/p10/index.html'));
    // (the groups the window's 102 links fall in are whole headings of their own: 20 pages each)
    expect((manyGroups.match(/nav-section-title/g) ?? []).length).toBeLessThanOrEqual(60 + Math.ceil((WINDOW_LINKS + 2) / 20) + 1);
    expect(manyGroups.length).toBeLessThan(16 * 1024);
    // …and far below the whole tree, which every page used to carry.
    const whole = site(20, 150);
    const shared = [...whole.files.keys()].filter((p) => p.startsWith('_sidebar/'));
    expect(shared).toHaveLength(1);
    expect(at3000).toBeLessThan(whole.files.get(shared[0]!)!.length / 10);
    const page = text(whole, 'big/g10/p75/index.html');
    expect(links(navOf(page))).toBeLessThanOrEqual(WINDOW_LINKS + 2 + 60);
  });

  it('first paint without JavaScript: the page marked current inside its open group, its neighbours, and every other group as a heading leading to its first page', () => {
    const page = text(site(20, 150), 'big/g10/p75/index.html');
    const nav = navOf(page);
    expect(nav).toMatch(/data-sidebar-src="\/_sidebar\/sidebar\.[0-9a-f]{12}\.html"/);
    expect(nav).toContain('<a href="/big/g10/p75/" aria-current="page">Page 10.75</a>');
    expect(nav).toContain('href="/big/g10/p74/"');
    expect(nav).toContain('href="/big/g10/p76/"');
    for (let g = 0; g < 20; g++) expect(nav, `group ${g}`).toContain(`Group ${g}`);
    expect(nav).toContain('<a href="/big/g0/p0/">Group 0</a>');
    expect(nav).toContain('<a href="/big/g19/p0/">Group 19</a>');
  });

  it('the shared file holds the whole tab, nothing marked, and every page of the tab names the same file', () => {
    const r = site(20, 150);
    const src = /data-sidebar-src="\/([^"]+)"/.exec(text(r, 'big/g0/p0/index.html'))?.[1];
    expect(src).toBeDefined();
    expect(text(r, 'big/g19/p149/index.html')).toContain(`data-sidebar-src="/${src}"`);
    const whole = text(r, src!);
    expect(links(whole)).toBe(3000);
    expect(whole).not.toContain('aria-current');
    // The small tab of the same site is carried whole.
    expect(navOf(text(r, 'small/a/index.html'))).not.toContain('data-sidebar-src');
  });

  it('reaches every page of the tab through the windows alone (readers without JavaScript)', () => {
    const r = site(20, 150);
    const seen = new Set<string>(['/big/g0/p0/']);
    const queue = ['/big/g0/p0/'];
    while (queue.length > 0) {
      const url = queue.pop()!;
      const nav = navOf(text(r, `${url.slice(1)}index.html`));
      for (const m of nav.matchAll(/href="(\/big\/[^"]+)"/g)) {
        if (!seen.has(m[1]!)) {
          seen.add(m[1]!);
          queue.push(m[1]!);
        }
      }
    }
    expect(seen.size).toBe(3000);
  });
});
