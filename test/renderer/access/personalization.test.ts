/**
 * `{user.*}` in MDX (issue 40, create/personalization.mdx "Dynamic MDX content"): code that reads
 * `user` is an island rendered in the reader's browser with the reader's `content`, pre-rendered
 * signed out (`user` is `{}`); such a page loads reader.js before the component runtime; a page
 * that does not read `user` loads nothing new.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { exportSite, type ExportResult } from '../../../renderer/index.js';
import { readsUser } from '../../../renderer/islands/reads-user.js';
import { sharedRenderPool } from '../../helpers/render-pool.js';
import { tempSite } from '../load/site-fixtures.js';
import { PERSONAL_FILES } from './personal-pages.js';

let site: ExportResult;
beforeAll(async () => {
  site = await exportSite({ sourceDir: tempSite(PERSONAL_FILES), pool: sharedRenderPool() });
}, 60_000);

const page = (slug: string): string => new TextDecoder().decode(site.files.get(`${slug}/index.html`));
const scripts = (html: string): string[] => [...html.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1] ?? '');

describe('user in MDX', () => {
  it('renders user expressions as islands, pre-rendered signed out, never as code', () => {
    const html = page('welcome');
    expect(html).not.toContain('c-expression');
    expect(html).not.toContain('{user.');
    expect(html).toContain('data-island=');
    // Signed out: `user.firstName` renders nothing, the conditional takes its other branch.
    expect(html).toMatch(/Welcome back, (<[^>]+>)*(<\/[^>]+>)*!/);
    expect(html).toContain('for information about upgrading.');
    expect(html).not.toContain('Contact your admin');
    // The snippet component reading user, pre-rendered signed out.
    expect(html).toContain('<span class="plan-badge">No plan</span>');
  });

  it('loads reader.js before the component runtime on a page that reads user, and ships it', () => {
    const list = scripts(page('welcome'));
    const reader = list.findIndex((s) => /\/_static\/islands\/reader\.[0-9a-f]{10}\.js$/.test(s));
    const runtime = list.findIndex((s) => /\/_static\/islands\/runtime\.[0-9a-f]{10}\.js$/.test(s));
    expect(reader).toBeGreaterThanOrEqual(0);
    expect(runtime).toBeGreaterThan(reader);
    const file = new TextDecoder().decode(site.files.get((list[reader] ?? '').slice(1)));
    expect(file).toContain('/_/reader/user');
    expect(file).toContain('mintlify:user');
    // The modules reading user get it from the runtime.
    const modules = list.filter((s) => s.includes('/_static/islands/') && !/\/(reader|runtime)\./.test(s));
    expect(modules.some((m) => new TextDecoder().decode(site.files.get(m.slice(1))).includes('var user = __mint.user'))).toBe(true);
  });

  it('changes nothing on a page that does not read user', () => {
    const html = page('plain');
    expect(scripts(html).some((s) => s.includes('/reader.'))).toBe(false);
    for (const [file, bytes] of site.files) {
      if (file.startsWith('_static/islands/') && !file.includes('/reader.') && !file.includes('/runtime.')) {
        const code = new TextDecoder().decode(bytes);
        if (code.includes('team.user')) expect(code).not.toContain('__mint.user');
      }
    }
  });
});

describe('readsUser', () => {
  it('finds the free user name and not a property, a key or a user of its own', () => {
    expect(readsUser('return user.firstName;')).toBe(true);
    expect(readsUser("return user?.org?.plan === 'x' ? a : b;")).toBe(true);
    expect(readsUser('return f({ user });')).toBe(true);
    expect(readsUser('return props.user;')).toBe(false);
    expect(readsUser('return { user: 1 };')).toBe(false);
    expect(readsUser('const user = 1; return user;')).toBe(false);
    expect(readsUser('const f = (user) => user.name;')).toBe(false);
    expect(readsUser('return "the user";')).toBe(false);
  });
});
