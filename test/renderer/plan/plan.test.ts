import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSite } from '../../../renderer/load/index.js';
import { planSite, UnknownPathsError } from '../../../renderer/plan/index.js';
import type { NavNode, SitePlan } from '../../../renderer/types.js';
import { fixtureSite, tempSite } from '../load/site-fixtures.js';

const plan = (name: string, paths?: string[]): SitePlan => planSite(loadSite(fixtureSite(name)), paths ? { paths } : {});
const page = (p: SitePlan, slug: string) => {
  const found = p.pages.find((x) => x.slug === slug);
  if (!found) throw new Error(`no planned page ${slug}`);
  return found;
};
const titles = (nodes: NavNode[]): unknown[] =>
  nodes.map((n) => (n.kind === 'group' ? { [n.title]: titles(n.children) } : n.kind === 'page' ? n.slug : `link:${n.href}`));

describe('plan: docs.json tabs, groups, hidden, links', () => {
  const p = plan('basic');

  it('makes one section per tab, external tabs as links', () => {
    expect(p.sections.map((s) => s.id)).toEqual(['guides', 'api', 'blog']);
    const blog = p.sections[2];
    expect(blog).toMatchObject({ external: true, href: 'https://blog.acme.example', sidebar: [] });
    expect(p.sections[0]).toMatchObject({ href: '/', trail: [{ kind: 'tab', title: 'Guides' }], external: false, hidden: false });
    expect(p.sections[1]?.href).toBe('/api/users/');
  });

  it('builds nested sidebars without hidden groups or missing pages', () => {
    expect(titles(p.sections[0]?.sidebar ?? [])).toEqual([
      { Start: ['index', 'quickstart', 'guides/install'] },
      { Deeper: ['guides/config', { Advanced: ['guides/advanced/tuning'] }, 'link:https://status.acme.example'] },
    ]);
    const deeper = p.sections[0]?.sidebar[1];
    expect(deeper).toMatchObject({ kind: 'group', root: 'guides', expanded: true });
    const start = p.sections[0]?.sidebar[0];
    expect(start).toMatchObject({ kind: 'group', icon: 'rocket' });
  });

  it('labels pages from frontmatter (sidebarTitle, then title) and reads API methods', () => {
    const start = p.sections[0]?.sidebar[0];
    if (start?.kind !== 'group') throw new Error('expected group');
    expect(start.children[1]).toEqual({ kind: 'page', slug: 'quickstart', title: 'Quick start', icon: 'bolt' });
    expect(start.children[2]).toMatchObject({ title: 'Install the widget' });
    const api = p.sections[1]?.sidebar[0];
    if (api?.kind !== 'group') throw new Error('expected group');
    expect(api.children.map((c) => (c.kind === 'page' ? c.method : undefined))).toEqual(['GET', 'POST']);
    expect(p.pageTitles?.['quickstart']).toBe('Quickstart');
  });

  it('lists pages in navigation order, then pages outside it (hidden); never snippets or ignored files', () => {
    expect(p.pages.map((x) => x.slug)).toEqual([
      'index',
      'quickstart',
      'guides/install',
      'guides',
      'guides/config',
      'guides/advanced/tuning',
      'guides/internal',
      'api/users',
      'api/notes',
      'orphan',
    ]);
    expect(page(p, 'orphan')).toMatchObject({ hidden: true, file: 'orphan.mdx', breadcrumbs: [] });
    expect(page(p, 'orphan').sectionId).toBeUndefined();
    expect(page(p, 'guides/internal').hidden).toBe(true);
    const files = p.pages.map((x) => x.file);
    expect(files.some((f) => f.startsWith('snippets/') || f.startsWith('drafts/') || f === 'README.md' || f === 'secret-notes.md')).toBe(false);
  });

  it('names output files and links prev/next through visible pages', () => {
    expect(page(p, 'index')).toMatchObject({ outputPath: 'index.html', next: 'quickstart', sectionId: 'guides', hidden: false });
    expect(page(p, 'index').prev).toBeUndefined();
    expect(page(p, 'guides')).toMatchObject({ file: 'guides/index.mdx', outputPath: 'guides/index.html', breadcrumbs: ['Deeper'] });
    expect(page(p, 'guides/config')).toMatchObject({ file: 'guides/config.md', outputPath: 'guides/config/index.html' });
    expect(page(p, 'guides/advanced/tuning')).toMatchObject({ breadcrumbs: ['Deeper', 'Advanced'], prev: 'guides/config', next: 'api/users' });
    expect(page(p, 'api/notes').next).toBeUndefined();
    expect(page(p, 'orphan').prev).toBeUndefined();
  });

  it('warns about a navigation entry without a page instead of failing', () => {
    expect(p.warnings).toContainEqual(expect.objectContaining({ code: 'missing-page', file: 'docs.json', message: expect.stringContaining('guides/not-written-yet') }));
  });

  it('plans static redirect pages, keeps patterns for the server, skips redirects over real pages', () => {
    expect(p.redirects).toEqual([{ from: 'old-start', to: '/quickstart' }]);
    expect(p.redirectRules).toEqual([
      { source: '/old-start', destination: '/quickstart', status: 308 },
      { source: '/blog/:slug*', destination: '/news/:slug*', status: 308 },
    ]);
    const codes = p.warnings.map((w) => w.code);
    expect(codes).not.toContain('redirect-dynamic');
    expect(codes).toContain('redirect-shadowed');
  });

  it('gives every other file a content-hashed bundle path', () => {
    expect(p.assets['images/logo.png']).toMatch(/^_assets\/images\/logo\.[0-9a-f]{8}\.png$/);
    expect(p.assets['style.css']).toMatch(/^_assets\/style\.[0-9a-f]{8}\.css$/);
    expect(p.assets['custom.js']).toMatch(/^_assets\/custom\.[0-9a-f]{8}\.js$/);
    expect(Object.keys(p.assets).sort()).toEqual(['custom.js', 'fonts/brand-sans.woff2', 'images/favicon.svg', 'images/logo.png', 'style.css']);
  });

  it('collects global anchors', () => {
    expect(p.globalLinks).toEqual([{ label: 'Community', href: 'https://community.acme.example', icon: 'users' }]);
  });
});

describe('plan: products, versions, languages, menus, dropdowns, anchors', () => {
  const p = plan('divisions');

  it('flattens any nesting into sections with trails', () => {
    expect(p.sections.map((s) => s.id)).toEqual([
      'cloud/v2/docs',
      'cloud/v2/api/rest',
      'cloud/v2/api/webhooks',
      'cloud/v1',
      'edge/en/guides',
      'edge/en/changelog',
      'edge/fr/guides',
      'labs',
    ]);
    expect(p.sections[2]?.trail).toEqual([
      { kind: 'product', title: 'Cloud', icon: 'cloud' },
      { kind: 'version', title: 'v2' },
      { kind: 'tab', title: 'API' },
      { kind: 'menu', title: 'Webhooks' },
    ]);
    expect(p.sections[4]?.trail.map((t) => t.kind)).toEqual(['product', 'language', 'dropdown']);
    expect(p.sections[6]?.trail.map((t) => t.kind)).toEqual(['product', 'language', 'anchor']);
    expect(p.sections[5]).toMatchObject({ external: true, href: 'https://changes.example.com' });
  });

  it('hides a hidden division and its pages but still builds them', () => {
    expect(p.sections[7]).toMatchObject({ hidden: true, href: '/labs/preview/' });
    expect(page(p, 'labs/preview').hidden).toBe(true);
    expect(page(p, 'cloud/v2/events')).toMatchObject({ sectionId: 'cloud/v2/api/webhooks', breadcrumbs: ['Events'], hidden: false });
  });

  it('collects global links from every level', () => {
    expect(p.globalLinks.map((l) => l.href)).toEqual(['https://status.example.com', 'https://forum.example.com/fr']);
  });
});

describe('plan: $ref navigation', () => {
  it('reads the inlined navigation', () => {
    const p = plan('refs');
    expect(p.sections.map((s) => [s.id, s.trail[0]?.icon])).toEqual([
      ['renamed-guides', 'book'],
      ['api', undefined],
    ]);
    expect(p.pages.map((x) => x.slug)).toEqual(['guides/one', 'guides/two', 'api/ref']);
  });
});

describe('plan: legacy mint.json', () => {
  const p = plan('legacy');

  it('puts groups in tabs and anchors by URL prefix, the rest in the primary tab', () => {
    expect(p.sections.map((s) => [s.id, s.trail.map((t) => `${t.kind}:${t.title}`).join('>')])).toEqual([
      ['home', 'tab:Home'],
      ['api-reference', 'tab:API Reference'],
      ['sdks', 'tab:SDKs'],
      ['forum', 'tab:Forum'],
      ['changelog', 'anchor:Changelog'],
    ]);
    expect(titles(p.sections[0]?.sidebar ?? [])).toEqual([
      { 'Getting started': ['introduction', { Nested: ['setup'] }] },
      { 'Other SDKs': ['sdks/other'] },
    ]);
    expect(titles(p.sections[2]?.sidebar ?? [])).toEqual([{ Python: ['sdks/python/install'] }]);
    expect(p.sections[3]).toMatchObject({ external: true, href: 'https://forum.example.com' });
    expect(page(p, 'changelog/2024').sectionId).toBe('changelog');
  });

  it('turns external anchors into global links and keeps redirects', () => {
    expect(p.globalLinks).toEqual([{ label: 'Blog', href: 'https://blog.example.com', icon: 'newspaper' }]);
    expect(p.redirects).toEqual([{ from: 'intro', to: '/introduction' }]);
  });

  it('nests a version level for legacy versions, untagged groups under every version', () => {
    const dir = tempSite({
      'mint.json': JSON.stringify({
        name: 'x',
        versions: ['v2', 'v1'],
        navigation: [
          { group: 'Intro', pages: ['intro'] },
          { group: 'New', version: 'v2', pages: ['v2/new'] },
          { group: 'Old', version: 'v1', pages: ['v1/old'] },
        ],
      }),
      'intro.mdx': '# intro',
      'v2/new.mdx': '# new',
      'v1/old.mdx': '# old',
    });
    const q = planSite(loadSite(dir));
    expect(q.sections.map((s) => [s.id, titles(s.sidebar)])).toEqual([
      ['v2', [{ Intro: ['intro'] }, { New: ['v2/new'] }]],
      ['v1', [{ Intro: ['intro'] }, { Old: ['v1/old'] }]],
    ]);
    expect(page(q, 'intro').sectionId).toBe('v2');
  });

  it('shows a tab or anchor whose url is a path of the site but claims no group as a link to that path', () => {
    // BAML: `{ "name": "Community", "icon": "discord", "url": "/discord" }`, /discord a redirect
    // to the Discord server. The anchor vanished; the tab likewise.
    const dir = tempSite({
      'mint.json': JSON.stringify({
        name: 'x',
        anchors: [{ name: 'Community', icon: 'discord', url: '/discord' }],
        tabs: [{ name: 'Status', url: 'status' }],
        redirects: [{ source: '/discord', destination: 'https://discord.example.com' }],
        navigation: [{ group: 'A', pages: ['a'] }],
      }),
      'a.mdx': '# a',
      'status.mdx': '# status',
    });
    const q = planSite(loadSite(dir));
    expect(q.globalLinks).toEqual([{ label: 'Community', href: '/discord', icon: 'discord' }]);
    expect(q.sections.map((s) => [s.trail.map((t) => `${t.kind}:${t.title}`).join('>'), s.external ?? false, s.href])).toEqual([
      ['tab:Documentation', false, '/a/'],
      ['tab:Status', true, '/status'],
    ]);
    expect(q.redirects).toEqual([{ from: 'discord', to: 'https://discord.example.com' }]);
  });

  it('uses "Documentation" as the primary tab without primaryTab', () => {
    const dir = tempSite({
      'mint.json': JSON.stringify({
        name: 'x',
        tabs: [{ name: 'API', url: 'api' }],
        navigation: [
          { group: 'A', pages: ['a'] },
          { group: 'B', pages: ['api/b'] },
        ],
      }),
      'a.mdx': '# a',
      'api/b.mdx': '# b',
    });
    const q = planSite(loadSite(dir));
    expect(q.sections.map((s) => s.trail[0]?.title)).toEqual(['Documentation', 'API']);
  });
});

describe('plan: entries the appliance cannot build', () => {
  it('warns about a missing AsyncAPI file, a missing spec and malformed entries instead of failing', () => {
    const dir = tempSite({
      'docs.json': JSON.stringify({
        name: 'x',
        navigation: {
          tabs: [
            { tab: 'Guides', pages: ['index', 42, { nonsense: true }] },
            { tab: 'API', openapi: 'openapi.json' },
            { tab: 'Events', asyncapi: 'asyncapi.yaml' },
            { tab: 'Empty' },
          ],
        },
      }),
      'index.mdx': '# home',
    });
    const p = planSite(loadSite(dir));
    expect(p.sections.map((s) => s.id)).toEqual(['guides']);
    expect(p.warnings.map((w) => w.code).sort()).toEqual(['asyncapi-missing', 'navigation-entry', 'navigation-entry', 'navigation-entry', 'openapi-missing']);
    expect(p.warnings.find((w) => w.code === 'asyncapi-missing')?.message).toContain('asyncapi.yaml is not a file of the repository');
    expect(p.warnings.find((w) => w.code === 'openapi-missing')?.message).toContain('openapi.json is not a file of the repository');
  });
});

describe('plan: hostile names', () => {
  it('skips redirect sources that leave the site and files with backslashes, with warnings', () => {
    const dir = tempSite({
      'docs.json': JSON.stringify({
        name: 'x',
        navigation: { pages: ['index'] },
        redirects: [
          { source: '/../../etc/passwd', destination: '/' },
          { source: '/a//b', destination: '/' },
          { source: '/ok', destination: '/' },
        ],
      }),
      'index.mdx': '# home',
      'odd\\name.mdx': '# odd',
    });
    const p = planSite(loadSite(dir));
    expect(p.redirects).toEqual([{ from: 'ok', to: '/' }]);
    expect(p.pages.map((x) => x.file)).toEqual(['index.mdx']);
    expect(p.warnings.map((w) => w.code).sort()).toEqual(['redirect-invalid', 'redirect-invalid', 'unsupported-file-name']);
  });
});

describe('plan: paths', () => {
  it('limits pages and prunes the navigation to them', () => {
    const p = plan('basic', ['guides']);
    expect(p.pages.map((x) => x.slug)).toEqual(['guides/install', 'guides', 'guides/config', 'guides/advanced/tuning', 'guides/internal']);
    expect(p.sections.map((s) => s.id)).toEqual(['guides', 'blog']);
    expect(p.sections[0]?.href).toBe('/guides/install/');
    expect(page(p, 'guides/install').prev).toBeUndefined();
  });

  it('accepts globs', () => {
    expect(plan('basic', ['api/*', 'orphan']).pages.map((x) => x.slug)).toEqual(['api/users', 'api/notes', 'orphan']);
  });

  it('rejects entries that match nothing, naming them', () => {
    expect(() => plan('basic', ['guides', 'nope/*'])).toThrow(UnknownPathsError);
    expect(() => plan('basic', ['nope/*'])).toThrow(/nope\/\*/);
  });
});

describe('plan: ignores', () => {
  it('honours .mintignore negation and never builds snippets or dot-folders', () => {
    const dir = tempSite({
      'docs.json': JSON.stringify({ name: 'x', navigation: { pages: ['index'] } }),
      'index.mdx': '# home',
      'notes/a.mdx': '# a',
      'notes/keep.mdx': '# keep',
      '_snippets/frag.mdx': 'fragment',
      'guides/snippets/frag.mdx': 'fragment',
      '.github/pull_request_template.md': '# PR',
      'node_modules/pkg/readme.md': '# pkg',
      'CHANGELOG.md': '# changes',
      '.mintignore': 'notes/*\n!notes/keep.mdx\n',
    });
    const p = planSite(loadSite(dir));
    expect(p.pages.map((x) => x.file)).toEqual(['index.mdx', 'notes/keep.mdx']);
  });

  it("leaves out Mintlify's default folders and agent instruction files, unless the navigation or .mintignore asks for one", () => {
    // A repository's CLAUDE.md became the page /CLAUDE (issue 39 class 11).
    const dir = tempSite({
      'docs.json': JSON.stringify({ name: 'x', navigation: { pages: ['index', 'guides/AGENTS'] } }),
      'index.mdx': '# home',
      'CLAUDE.md': '# instructions for Claude Code',
      'AGENTS.md': '# instructions for agents',
      'api/Gemini.md': '# instructions for Gemini',
      'guides/AGENTS.md': '# a page the navigation lists',
      'build/out.mdx': '# built',
      'dist/out.md': '# dist',
      'coverage/report.md': '# coverage',
      'tmp/scratch.mdx': '# tmp',
      'docs/temp/scratch.mdx': '# temp',
      'keep/build/page.mdx': '# kept by .mintignore',
      '.mintignore': '!keep/build/\n',
    });
    const p = planSite(loadSite(dir));
    expect(p.pages.map((x) => [x.file, x.hidden])).toEqual([
      ['index.mdx', false],
      ['guides/AGENTS.md', false],
      ['keep/build/page.mdx', true],
    ]);
    // Nor are they copied as files for a browser to fetch.
    expect(Object.keys(p.assets).filter((f) => f.endsWith('.md'))).toEqual([]);
  });

  it('builds a page in a snippets folder below the root when the navigation lists it; the root snippets folder stays fragments', () => {
    // A "Snippets" section of the docs (BAML: docs/snippets/syntax/strings) was reported missing.
    const dir = tempSite({
      'mint.json': JSON.stringify({ name: 'x', navigation: [{ group: 'Code snippets', pages: ['index', 'docs/snippets/syntax/strings', 'snippets/shared'] }] }),
      'index.mdx': '# home',
      'docs/snippets/syntax/strings.mdx': '---\ntitle: strings\n---\n\nQuoted strings.',
      'docs/snippets/unlisted.mdx': 'fragment',
      'snippets/shared.mdx': 'fragment',
    });
    const p = planSite(loadSite(dir));
    expect(p.pages.map((x) => [x.file, x.hidden])).toEqual([
      ['index.mdx', false],
      ['docs/snippets/syntax/strings.mdx', false],
    ]);
    // Named for what it is: the file exists, but the root snippets folder holds no pages.
    expect(p.warnings.filter((w) => w.code === 'missing-page').map((w) => w.message)).toEqual([
      'navigation lists "snippets/shared", in the root snippets/ folder, whose files are fragments to import and never pages',
    ]);
  });

  it('names the settings of docs.json and mint.json it does not apply, in one warning', () => {
    const docs = tempSite({
      'docs.json': JSON.stringify({ $schema: 'https://mintlify.com/docs.json', name: 'x', theme: 'maple', thumbnails: { background: '/bg.png' }, background: { color: {} }, navigation: { pages: ['index'] } }),
      'index.mdx': '# home',
    });
    expect(planSite(loadSite(docs)).warnings.filter((w) => w.code === 'config-ignored')).toEqual([
      { code: 'config-ignored', message: '"background", "thumbnails" are settings docs-appliance does not apply; the site is built without them', file: 'docs.json' },
    ]);
    const mint = tempSite({
      'mint.json': JSON.stringify({ name: 'x', analytics: { ga4: { measurementId: 'G-1' } }, modeToggle: { default: 'dark' }, navigation: [{ group: 'G', pages: ['index'] }] }),
      'index.mdx': '# home',
    });
    expect(planSite(loadSite(mint)).warnings.filter((w) => w.code === 'config-ignored')).toEqual([
      { code: 'config-ignored', message: '"analytics" is a setting docs-appliance does not apply; the site is built without it', file: 'mint.json' },
    ]);
    const styled = tempSite({
      'docs.json': JSON.stringify({ name: 'x', styling: { eyebrows: 'section', codeblocks: 'dark' }, navigation: { pages: ['index'] } }),
      'index.mdx': '# home',
    });
    const styledSite = loadSite(styled);
    expect(styledSite.config.eyebrows).toBe('section');
    const seo = tempSite({
      'docs.json': JSON.stringify({ name: 'x', seo: { indexing: 'all', metatags: { 'og:locale': 'en_US', 'og:image:width': 1200, nested: { no: 1 } } }, navigation: { pages: ['index'] } }),
      'index.mdx': '# home',
    });
    expect(loadSite(seo).config.seo).toEqual({ metatags: [{ name: 'og:locale', content: 'en_US' }, { name: 'og:image:width', content: '1200' }], indexing: 'all' });
    expect(planSite(loadSite(seo)).warnings.filter((w) => w.code === 'config-ignored')).toEqual([]);
    const fonts = (value: unknown) => {
      const dir = tempSite({ 'docs.json': JSON.stringify({ name: 'x', fonts: value, navigation: { pages: ['index'] } }), 'index.mdx': '# home' });
      return loadSite(dir).config.fonts;
    };
    // A heading or body block naming its own family does not borrow the top-level file; one that only sets a weight does.
    expect(fonts({ family: 'Inter', source: '/fonts/inter.woff2', weight: 400, heading: { family: 'Display', weight: 700 } })).toEqual({
      body: { family: 'Inter', weight: 400, source: '/fonts/inter.woff2' },
      heading: { family: 'Display', weight: 700 },
    });
    expect(fonts({ family: 'Inter', source: 'https://fonts.example.com/i.woff2', format: 'woff2', heading: { weight: 700 } })).toEqual({
      body: { family: 'Inter', source: 'https://fonts.example.com/i.woff2', format: 'woff2' },
      heading: { family: 'Inter', weight: 700, source: 'https://fonts.example.com/i.woff2', format: 'woff2' },
    });
    expect(fonts({ body: { family: 'Body Only', weight: 99999 } })).toEqual({ body: { family: 'Body Only' } });
    expect(planSite(styledSite).warnings.find((w) => w.code === 'config-ignored')?.message).toBe('"styling.codeblocks" is a setting docs-appliance does not apply; the site is built without it');
    const plain = tempSite({ 'docs.json': JSON.stringify({ name: 'x', navigation: { pages: ['index'] } }), 'index.mdx': '# home' });
    expect(planSite(loadSite(plain)).warnings.filter((w) => w.code === 'config-ignored')).toEqual([]);
  });

  it('leaves symbolic links out and says so for each one that is not ignored', () => {
    const outside = tempSite({ 'secret.mdx': '# secret', 'private/data.png': 'png' });
    const dir = tempSite({
      'docs.json': JSON.stringify({ name: 'x', navigation: { pages: ['index', 'linked'] } }),
      'index.mdx': '# home',
      'guides/real.mdx': '# real',
    });
    fs.symlinkSync(path.join(outside, 'secret.mdx'), path.join(dir, 'linked.mdx'));
    fs.symlinkSync(path.join(outside, 'private'), path.join(dir, 'images'));
    fs.symlinkSync(path.join(dir, 'guides', 'real.mdx'), path.join(dir, 'guides', 'alias.mdx'));
    fs.mkdirSync(path.join(dir, 'node_modules'));
    fs.symlinkSync(outside, path.join(dir, 'node_modules', 'ignored'));

    const p = planSite(loadSite(dir));
    expect(p.pages.map((x) => x.file)).toEqual(['index.mdx', 'guides/real.mdx']);
    expect(Object.keys(p.assetDigests ?? {}).filter((f) => f.startsWith('images/'))).toEqual([]);
    const links = p.warnings.filter((w) => w.code === 'symbolic-link');
    expect(links.map((w) => w.file)).toEqual(['guides/alias.mdx', 'images/', 'linked.mdx']);
    expect(links[2]?.message).toBe(
      'linked.mdx is a symbolic link and is left out: links are not followed, since one could pull files from outside the repository into the bundle',
    );
    expect(p.warnings.find((w) => w.code === 'missing-page')?.message).toMatch(/"linked"/);
  });
});
