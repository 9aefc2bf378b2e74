import { describe, expect, it } from 'vitest';
import { renderDocument } from '../../../renderer/layout/index.js';
import { fixtureConfig, fixtureContent, fixtureCtx, fixturePage } from './fixture-ctx.js';

/** The opening tags of every element whose attribute loads something into the page. */
function loadedUrls(html: string): string[] {
  const urls: string[] = [];
  const tag = /<(script|link|img|source|iframe)\b[^>]*>/gi;
  for (let m = tag.exec(html); m; m = tag.exec(html)) {
    const attr = /\b(src|href)="([^"]*)"/gi;
    for (let a = attr.exec(m[0]); a; a = attr.exec(m[0])) urls.push(a[2]!);
  }
  return urls;
}

/** Every attribute name of every start tag (values skipped, so escaped text inside them is ignored). */
function attributeNames(html: string): string[] {
  const names: string[] = [];
  const tag = /<[a-zA-Z][a-zA-Z0-9-]*((?:\s+[^\s"'>/=]+(?:="[^"]*")?)*)\s*\/?>/g;
  for (let m = tag.exec(html); m; m = tag.exec(html)) {
    const attr = /\s+([^\s"'>/=]+)(?:="[^"]*")?/g;
    for (let a = attr.exec(m[1]!); a; a = attr.exec(m[1]!)) names.push(a[1]!.toLowerCase());
  }
  return names;
}

function render(overrides: Parameters<typeof fixtureContent>[0] = {}, page = fixturePage(), ctx = fixtureCtx()) {
  return renderDocument({ page, content: fixtureContent(overrides), ctx });
}

describe('renderDocument', () => {
  it('renders the page title, description, canonical URL and OpenGraph title', () => {
    const html = render();
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<title>Configuration - Acme Docs</title>');
    expect(html).toContain('<h1 class="page-title">Configuration</h1>');
    expect(html).toContain('<meta name="description" content="How to configure Acme">');
    expect(html).toContain('<link rel="canonical" href="/deep/config">');
    expect(html).toContain('<meta property="og:title" content="Configuration">');
    expect(html).toContain('<p>Body text</p>');
  });

  it('marks exactly the current page in the sidebar and opens the groups around it', () => {
    const html = render();
    const current = html.match(/<a [^>]*aria-current="page"[^>]*>/g) ?? [];
    expect(current).toHaveLength(1);
    expect(current[0]).toContain('href="/deep/config/"');
    // "Deep dive" contains the page: open. "Closed group" does not: closed.
    expect(html).toMatch(/<details class="nav-group" open><summary[^>]*>(?:(?!<\/summary>).)*Deep dive/);
    expect(html).toMatch(/<details class="nav-group"><summary[^>]*>(?:(?!<\/summary>).)*Closed group/);
  });

  it('opens every ancestor group of a deeply nested page and marks the next page on the next render', () => {
    const ctx = fixtureCtx();
    const deep = renderDocument({
      page: fixturePage({ slug: 'deep/deeper/internals', breadcrumbs: ['Getting started', 'Deep dive', 'Deeper'] }),
      content: fixtureContent({ title: 'Internals' }),
      ctx,
    });
    expect(deep).toMatch(/<details class="nav-group" open><summary[^>]*>(?:(?!<\/summary>).)*Deep dive/);
    expect(deep).toMatch(/<details class="nav-group" open><summary[^>]*>(?:(?!<\/summary>).)*Deeper/);
    expect(deep.match(/aria-current="page"/g)).toHaveLength(1);
    // The cached sidebar is not mutated by marking: the next page sees a clean tree.
    const other = renderDocument({ page: fixturePage({ slug: 'quickstart' }), content: fixtureContent({ title: 'Quickstart' }), ctx });
    expect(other.match(/<a [^>]*aria-current="page"[^>]*>/g)).toEqual([expect.stringContaining('href="/quickstart/"')]);
    expect(other).not.toMatch(/<details class="nav-group" open>/);
  });

  it('links previous and next pages by their titles', () => {
    const html = render();
    expect(html).toMatch(/<a class="pager-link pager-prev" href="\/quickstart\/" rel="prev">.*Quickstart/);
    expect(html).toMatch(/<a class="pager-link pager-next" href="\/deep\/deeper\/internals\/" rel="next">.*Internals/);
  });

  it('renders breadcrumbs and the table of contents', () => {
    const html = render();
    // Each crumb links to its group's first page (or root), so a reader can climb up.
    expect(html).toMatch(/<nav class="eyebrow" aria-label="Breadcrumb"><ol><li><a href="\/">Getting started<\/a><\/li><li><a href="\/deep\/config\/">Deep dive<\/a><\/li><\/ol><\/nav>/);
    expect(html).toContain('<a href="#options" data-toc-link="options">Options</a>');
    expect(html).toContain('<li class="toc-depth-3"><a href="#advanced" data-toc-link="advanced">Advanced</a></li>');
  });

  it('writes the config\'s seo.metatags into every head, escaped, without contradicting its own tags', () => {
    const config = fixtureConfig({
      seo: {
        metatags: [
          { name: 'og:image', content: 'https://cdn.example.com/card.png' },
          { name: 'twitter:site', content: '@acme' },
          { name: 'keywords', content: '"docs" <b>&' },
          { name: 'og:title', content: 'would contradict the page title' },
          { name: 'robots', content: 'noindex' },
        ],
        indexing: 'navigable',
      },
    });
    const html = render({}, fixturePage(), fixtureCtx(config));
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toContain('<meta property="og:image" content="https://cdn.example.com/card.png">');
    expect(head).toContain('<meta name="twitter:site" content="@acme">');
    expect(head).toContain('<meta name="keywords" content="&#34;docs&#34; &lt;b&gt;&amp;">');
    expect(head).not.toContain('would contradict');
    expect(head).not.toContain('noindex');
    // A meta tag loads nothing: the page still fetches only from the bundle.
    expect(loadedUrls(html).filter((u) => /^https?:/.test(u))).toEqual([]);
  });

  it('puts the config\'s banner above the top bar, Markdown rendered and sanitised, with a dismiss button keyed to its text', () => {
    const banner = (content: string, dismissible: boolean) => render({}, fixturePage(), fixtureCtx(fixtureConfig({ banner: { content, dismissible } })));
    const html = banner('New: **v3** is out. [Upgrade](/guides/upgrade) <script>alert(1)</script> [x](javascript:alert(2))![pixel](https://tracker.example.com/p.gif)', true);
    const region = /<div class="site-banner" role="region" aria-label="Announcement"><p class="site-banner-text">(.*?)<\/p>(.*?)<\/div>/.exec(html);
    expect(region?.[1]).toBe('New: <strong>v3</strong> is out. <a href="/guides/upgrade">Upgrade</a>  <a>x</a>');
    expect(region?.[2]).toMatch(/^<button class="site-banner-close" type="button" data-banner-dismiss aria-label="Dismiss announcement">/);
    // Before the top bar, so it is the first thing read after the skip link.
    expect(html.indexOf('class="site-banner"')).toBeLessThan(html.indexOf('class="topbar"'));
    const key = /<html [^>]*data-banner="([0-9a-f]{12})"/.exec(html)?.[1];
    expect(key).toBeDefined();
    // Another text, another key: a new announcement shows again after the last one was dismissed.
    expect(/data-banner="([0-9a-f]{12})"/.exec(banner('Other news', true))?.[1]).not.toBe(key);
    const fixed = banner('Maintenance on Friday', false);
    expect(fixed).toContain('<p class="site-banner-text">Maintenance on Friday</p></div>');
    expect(fixed).not.toContain('data-banner=');
    expect(fixed).not.toContain('data-banner-dismiss');
    expect(render()).not.toContain('site-banner');
  });

  it('shows only the page\'s own group above the title with styling.eyebrows "section"', () => {
    const html = render({}, fixturePage(), fixtureCtx({ ...fixtureConfig(), eyebrows: 'section' }));
    expect(html).toMatch(/<nav class="eyebrow" aria-label="Breadcrumb"><ol><li><a href="\/deep\/config\/">Deep dive<\/a><\/li><\/ol><\/nav>/);
    expect(html).not.toContain('>Getting started</a></li><li>');
  });

  it('hides the table of contents in wide mode and all chrome but the top bar in custom mode', () => {
    const wide = render({ mode: 'wide' });
    expect(wide).not.toContain('class="toc"');
    expect(wide).toContain('id="sidebar"');
    const custom = render({ mode: 'custom', html: '<section class="hero">Hi</section>' });
    expect(custom).not.toContain('class="toc"');
    // The sidebar is there only as the phone drawer: no has-sidebar on the body.
    expect(custom).toMatch(/<body class="mode-custom has-tabs">/);
    expect(custom).toContain('id="sidebar"');
    expect(custom).toContain('data-nav-toggle');
    expect(custom).not.toContain('class="page-header"');
    expect(custom).toContain('<section class="hero">Hi</section>');
    expect(custom).toContain('class="topbar"');
  });

  it('draws the tab row and the version switcher for the current section', () => {
    const html = render();
    const tabs = html.match(/<nav class="tabs"[\s\S]*?<\/nav>/)?.[0] ?? '';
    expect(tabs).toMatch(/<a class="tab" href="\/" aria-current="true">.*Guides<\/a>/);
    expect(tabs).toMatch(/<a class="tab" href="\/api\/users\/">.*API<\/a>/);
    expect(tabs).toContain('<a class="tab" href="https://blog.acme.test" rel="noopener">Blog</a>');
    // v1's tabs are not siblings of v2's.
    expect(tabs).not.toContain('/v1');
    const versions = html.match(/<details class="switcher switcher-version"[\s\S]*?<\/details>/)?.[0] ?? '';
    expect(versions).toContain('<span class="switcher-title">v2</span>');
    expect(versions).toMatch(/<a href="\/" aria-current="true"><span>v2<\/span>/);
    expect(versions).toContain('<a href="/v1/"><span>v1</span></a>');
  });

  it('shows the sidebar and switchers of the page section (v1 API page)', () => {
    const html = renderDocument({
      page: fixturePage({ slug: 'v1/api/users', sectionId: 'v1/api', breadcrumbs: ['Endpoints'], prev: undefined, next: undefined }),
      content: fixtureContent({ title: 'List users', toc: [] }),
      ctx: fixtureCtx(),
    });
    expect(html).toMatch(/<a class="tab" href="\/v1\/api\/users\/" aria-current="true">.*API<\/a>/);
    expect(html).toContain('<span class="switcher-title">v1</span>');
    expect(html).toContain('<span class="method-badge method-delete">DEL</span>');
    expect(html).not.toContain('href="/deep/config/"');
    expect(html).not.toContain('class="pager"');
    expect(html).not.toContain('class="toc"');
  });

  it('includes KaTeX CSS and the Mermaid script only when the page needs them', () => {
    const plain = render();
    expect(plain).not.toContain('katex');
    expect(plain).not.toContain('mermaid');
    const math = render({ usesMath: true });
    expect(math).toContain('<link rel="stylesheet" href="/_static/katex.23456789.css">');
    expect(math).not.toContain('mermaid');
    const diagram = render({ usesMermaid: true });
    expect(diagram).toContain('<script src="/_static/mermaid.34567890.js" defer></script>');
    expect(diagram).not.toContain('katex');
  });

  it('has no inline script, no inline event handler and loads nothing from outside the bundle', () => {
    const html = render({ usesMath: true, usesMermaid: true });
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/i);
    const names = attributeNames(html);
    expect(names).toContain('aria-current');
    expect(names.filter((n) => n.startsWith('on'))).toEqual([]);
    const urls = loadedUrls(html);
    expect(urls.length).toBeGreaterThan(8);
    for (const url of urls) expect(url.startsWith('/') && !url.startsWith('//'), url).toBe(true);
    expect(urls.join(' ')).not.toMatch(/https?:/);
  });

  it('loads the theme initialiser synchronously before the stylesheets and sets brand colours', () => {
    const html = render();
    const init = html.indexOf('<script src="/_static/theme-init.dddddddd.js"></script>');
    expect(init).toBeGreaterThan(0);
    expect(init).toBeLessThan(html.indexOf('rel="stylesheet"'));
    expect(html).toContain('--brand:#0E7490;--brand-light:#22D3EE;--brand-dark:#155E75');
    expect(html).toContain('data-appearance="system"');
  });

  it('honours a strict dark appearance: no toggle, dark from the first paint', () => {
    const ctx = fixtureCtx(fixtureConfig({ appearance: { default: 'dark', strict: true } }));
    const html = render({}, fixturePage(), ctx);
    expect(html).toMatch(/<html lang="en" data-theme="dark" data-appearance="dark" data-appearance-strict="true" data-strings='\{"askAi":"Ask AI",[^']*'>/);
    expect(html).not.toContain('data-theme-toggle');
  });

  it('renders navbar, global links, the primary button, logos, favicon and footer', () => {
    const html = render();
    expect(html).toContain('<img class="logo logo-light" src="/_assets/logo/light.1111aaaa.svg" alt="Acme Docs">');
    expect(html).toContain('<img class="logo logo-dark" src="/_assets/logo/dark.2222bbbb.svg" alt="Acme Docs">');
    expect(html).toContain('<link rel="icon" href="/_assets/favicon.3333cccc.svg" type="image/svg+xml">');
    expect(html).toContain('<a href="https://support.acme.test" rel="noopener">Support</a>');
    expect(html).toContain('<a href="https://community.acme.test" rel="noopener">Community</a>');
    expect(html).toMatch(/<a class="button-primary" href="https:\/\/app.acme.test" rel="noopener">Dashboard/);
    expect(html).toMatch(/<a href="https:\/\/github.com\/acme" rel="noopener" aria-label="GitHub"[^>]*><svg/);
    expect(html).toContain('<a href="https://acme.test/about" rel="noopener">About</a>');
    expect(html).toContain('Built with docs-appliance');
    // Repeated in the phone drawer, where the top bar has no room for them.
    const drawer = html.match(/<div class="drawer-links">[\s\S]*?<\/div>/)?.[0] ?? '';
    expect(drawer).toContain('<a href="https://support.acme.test" rel="noopener">Support</a>');
    expect(drawer).toContain('Dashboard</a>');
  });

  it('adds the customer custom CSS and JS after the theme files', () => {
    const ctx = fixtureCtx(fixtureConfig({ customCss: ['style.css'], customJs: ['extra.js'] }));
    ctx.assets['style.css'] = '/_assets/style.abcdef12.css';
    ctx.assets['extra.js'] = '/_assets/extra.abcdef12.js';
    const html = render({}, fixturePage(), ctx);
    expect(html.indexOf('/_assets/style.abcdef12.css')).toBeGreaterThan(html.indexOf('components.eeeeeeee.css'));
    expect(html).toContain('<script src="/_assets/extra.abcdef12.js" defer></script>');
  });

  it('contains a keyboard-reachable search dialog wired to the bundled MiniSearch and fixed index folder', () => {
    const html = render();
    expect(html).toContain('<dialog class="search-dialog" id="search-dialog" role="dialog"');
    expect(html).toContain('role="combobox"');
    expect(html).toContain('data-minisearch="/_static/minisearch.12345678.js" data-search="/_search/"');
    expect(html).toContain('<a class="skip-link" href="#content">');
    expect(html).toContain('<main id="content"');
  });

  it('escapes a hostile site name, title, description and breadcrumb everywhere', () => {
    const evil = '"><script>alert(1)</script><img src=x onerror=alert(2)>';
    const ctx = fixtureCtx(fixtureConfig({ name: evil, logo: {}, navbar: { links: [{ label: evil, href: 'javascript:alert(3)' }] } }));
    const html = renderDocument({
      page: fixturePage({ breadcrumbs: [evil] }),
      content: fixtureContent({ title: evil, description: evil, toc: [{ id: 'x"y', text: evil, depth: 2 }] }),
      ctx,
    });
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img src=x');
    expect(attributeNames(html).filter((n) => n.startsWith('on'))).toEqual([]);
    expect(html).not.toContain('javascript:');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('href="#x&#34;y"');
  });

  it('refuses colour values that could break out of the style element', () => {
    const ctx = fixtureCtx(fixtureConfig({ colors: { primary: 'red}</style><script>x()</script>' } }));
    const html = render({}, fixturePage(), ctx);
    expect(html).not.toContain('</style><script>');
    expect(html).toMatch(/<style>:root\{--brand:#[0-9a-f]+;/i);
  });

  it('renders a page outside the navigation with the default sidebar and nothing marked', () => {
    const html = renderDocument({
      page: fixturePage({ slug: 'orphan', sectionId: undefined, breadcrumbs: [], prev: undefined, next: undefined, hidden: true }),
      content: fixtureContent({ title: 'Orphan' }),
      ctx: fixtureCtx(),
    });
    expect(html).toContain('<h1 class="page-title">Orphan</h1>');
    expect(html).toContain('href="/quickstart/"');
    expect(html).not.toContain('aria-current="page"');
    expect(html).toContain('<link rel="canonical" href="/orphan">');
  });
});

describe('API pages', () => {
  const example = (kind: string) =>
    `<aside class="c-example c-example--${kind}" aria-label="${kind}"><p class="c-example__label">${kind}</p><div class="c-code"><pre><code>x</code></pre></div></aside>`;

  it('moves request/response examples into the side panel and drops the toc', () => {
    const html = render({ html: `<p>Intro</p>${example('request')}<p>Middle</p>${example('response')}<p>End</p>` });
    const prose = html.match(/<div class="prose" id="page-content">([\s\S]*?)<\/div>\n<\/article>/)?.[1] ?? '';
    expect(prose).toContain('<p>Intro</p><p>Middle</p><p>End</p>');
    expect(prose).not.toContain('c-example');
    const panel = html.match(/<div class="examples-panel">[\s\S]*?<\/div>\n<\/div>/)?.[0] ?? '';
    expect(panel.indexOf('c-example--request')).toBeGreaterThan(0);
    expect(panel.indexOf('c-example--response')).toBeGreaterThan(panel.indexOf('c-example--request'));
    expect(html).toContain('has-examples');
    expect(html).not.toContain('class="toc"');
  });

  it('moves a <Panel> into the side column too, nested asides included', () => {
    const panel = '<aside class="c-panel"><p>Side</p><aside class="inner">nested</aside></aside>';
    const html = render({ html: `<p>Body</p>${panel}<p>After</p>` });
    expect(html).toContain(`<div class="examples-panel-inner prose">\n${panel}`);
    expect(html).toContain('<p>Body</p><p>After</p>');
  });

  it('leaves pages without examples alone', () => {
    const html = render();
    expect(html).not.toContain('examples-panel');
    expect(html).not.toContain('has-examples');
  });
});
