import { describe, expect, it } from 'vitest';
import { renderNotFoundPage, renderRedirectPage } from '../../../renderer/layout/index.js';
import { fixtureCtx } from './fixture-ctx.js';

describe('renderRedirectPage', () => {
  it('redirects with meta refresh, canonical and a link, and no script', () => {
    const html = renderRedirectPage('/guides/new-home', fixtureCtx());
    // Written in the bundle's portable form: a plain static server finds `/guides/new-home/`.
    expect(html).toContain('<meta http-equiv="refresh" content="0; url=/guides/new-home/">');
    expect(html).toContain('<link rel="canonical" href="/guides/new-home/">');
    expect(html).toContain('<a href="/guides/new-home/">/guides/new-home/</a>');
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(html).not.toContain('<script');
  });

  it('makes a bare target site-absolute and keeps external http targets', () => {
    expect(renderRedirectPage('guides/x', fixtureCtx())).toContain('url=/guides/x/"');
    expect(renderRedirectPage('https://elsewhere.test/a?b=1&c=2', fixtureCtx())).toContain('url=https://elsewhere.test/a?b=1&amp;c=2"');
  });

  it('never redirects to a script URL and escapes the target', () => {
    expect(renderRedirectPage('javascript:alert(1)', fixtureCtx())).not.toContain('javascript:');
    const html = renderRedirectPage('/a"><script>x()</script>', fixtureCtx());
    expect(html).not.toContain('<script>');
    expect(html).toContain('/a&#34;&gt;&lt;script&gt;');
  });
});

describe('renderNotFoundPage', () => {
  it('renders the site chrome, a message, working search and no sidebar marking', () => {
    const html = renderNotFoundPage(fixtureCtx());
    expect(html).toContain('<title>Page not found - Acme Docs</title>');
    expect(html).toContain('Page not found</h1>');
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(html).toContain('class="topbar"');
    expect(html).toContain('id="search-dialog"');
    expect(html).toContain('data-search-open');
    expect(html).toContain('<script src="/_static/search.cccccccc.js" defer');
    expect(html).not.toContain('rel="canonical"');
    expect(html).not.toContain('aria-current="page"');
    // Served for any missing path at any depth: every asset URL must be absolute.
    expect(html).not.toMatch(/(?:src|href)="(?![/#]|https?:)/);
  });
});

describe('the chrome stays Latin-1', () => {
  it('adds no character above U+00FF to a page of ASCII content (the page encodes as a one-byte string)', () => {
    const html = renderNotFoundPage(fixtureCtx());
    expect([...html].filter((ch) => ch.charCodeAt(0) > 0xff)).toEqual([]);
    expect(html).toContain('<kbd>&uarr;</kbd><kbd>&darr;</kbd>');
  });
});
