import { describe, expect, it } from 'vitest';
import { codes, makeCtx, render } from './helpers.js';

describe('links and assets', () => {
  it('rewrites local images through the asset map: absolute, relative and bare paths', () => {
    const abs = render('![a](/images/logo.png)', { file: 'guides/page.mdx' });
    const rel = render('![a](../images/logo.png)', { file: 'guides/page.mdx' });
    const bare = render('![a](images/logo.png)', { file: 'index.mdx' });
    for (const page of [abs, rel, bare]) {
      expect(page.html).toContain('<img src="/_assets/logo.1a2b3c4d.png" alt="a" loading="lazy">');
      expect(page.warnings).toEqual([]);
    }
    expect(render('<img src="/images/logo.png" alt="x" />').html).toContain('src="/_assets/logo.1a2b3c4d.png"');
  });

  it('lists the first 50 warnings of a kind per page and counts the rest in one line', () => {
    const links = Array.from({ length: 5_000 }, (_, i) => `[l${i}](/gone-${i})`).join(' ');
    // Each listed warning searches the page for its line: 50,000 of them took 18 s on one page.
    const page = render(`${links}\n\n![x](/images/missing.png)\n`, { file: 'guides/many.mdx' });
    const broken = page.warnings.filter((w) => w.code === 'broken-link');
    expect(broken).toHaveLength(51);
    expect(broken[0]).toEqual({ code: 'broken-link', message: 'Link /gone-0 points to a page that does not exist (gone-0)', file: 'guides/many.mdx', line: 1 });
    expect(broken[49]?.message).toBe('Link /gone-49 points to a page that does not exist (gone-49)');
    expect(broken[50]).toEqual({ code: 'broken-link', message: '4950 more broken-link warnings on this page are not listed (the first 50 are)', file: 'guides/many.mdx' });
    // Other kinds keep their own allowance.
    expect(page.warnings.filter((w) => w.code === 'missing-asset')).toEqual([expect.objectContaining({ line: 3 })]);
    expect(page.html).toContain('href="/gone-4999/"');
  });

  it('warns missing-asset for a local file that is not in the assets, with the line', () => {
    const page = render('Intro\n\n![x](/images/missing.png)', { file: 'guides/a.mdx' });
    expect(page.warnings).toEqual([{ code: 'missing-asset', message: expect.stringContaining('/images/missing.png'), file: 'guides/a.mdx', line: 3 }]);
    expect(page.html).toContain('src="/images/missing.png"');
  });

  it('shows a placeholder linking to an external image and warns external-image', () => {
    const page = render('![x](https://cdn.example.com/a.png)');
    expect(page.html).not.toContain('src="https://cdn.example.com/a.png"');
    expect(page.html).toContain('href="https://cdn.example.com/a.png"');
    expect(codes(page)).toEqual(['external-image']);
  });

  it('keeps internal page links extensionless, strips .md/.mdx, and resolves relative links', () => {
    const page = render('[a](/guides/intro) [b](/guides/intro.mdx#part) [c](setup.md) [d](./intro?x=1) [e](#local) [f](https://example.com)', {
      file: 'guides/page.mdx',
    });
    expect(page.html).toContain('<a href="/guides/intro/">a</a>');
    expect(page.html).toContain('<a href="/guides/intro/#part">b</a>');
    expect(page.html).toContain('<a href="/guides/setup/">c</a>');
    expect(page.html).toContain('<a href="/guides/intro/?x=1">d</a>');
    expect(page.html).toContain('<a href="#local">e</a>');
    expect(page.html).toContain('<a href="https://example.com" rel="noopener noreferrer">f</a>');
    expect(page.warnings).toEqual([]);
  });

  it('resolves a relative link or image that climbs above the site root as a browser does: from the root', () => {
    // A page at /tools/page, written `../../guides/intro`: the browser stops at the root (/guides/intro).
    const page = render('[a](../../guides/intro) [b](../../../guides/setup#x) ![i](../../images/logo.png)', { file: 'tools/page.mdx' });
    expect(page.html).toContain('<a href="/guides/intro/">a</a>');
    expect(page.html).toContain('<a href="/guides/setup/#x">b</a>');
    expect(page.html).toContain('src="/_assets/logo.1a2b3c4d.png"');
    expect(page.warnings).toEqual([]);
    // One that names a missing page is still a broken link, named by the page it would be.
    const gone = render('[c](../../nowhere)', { file: 'tools/page.mdx' });
    expect(gone.warnings).toEqual([expect.objectContaining({ code: 'broken-link', message: 'Link ../../nowhere points to a page that does not exist (nowhere)' })]);
    expect(gone.html).toContain('href="/nowhere/"');
  });

  it('warns broken-link for a page that does not exist, and links local files to their hashed copy', () => {
    const page = render('See [gone](/guides/gone).\n\n[manual](/files/manual.pdf)');
    expect(page.warnings).toEqual([expect.objectContaining({ code: 'broken-link', line: 1 })]);
    expect(page.html).toContain('<a href="/_assets/manual.9f8e7d6c.pdf">manual</a>');
  });

  it('checks Card hrefs like any other link', () => {
    const page = render('<Card title="x" href="/nowhere" />');
    expect(codes(page)).toEqual(['broken-link']);
  });

  it('uses the page index URL (the pool may give pages other URLs)', () => {
    const ctx = makeCtx({ pageIndex: { 'guides/intro': { title: 'Intro', url: '/docs/guides/intro' } } });
    expect(render('[x](/guides/intro)', { ctx }).html).toContain('href="/docs/guides/intro"');
  });
});

describe('attribute strings', () => {
  it('decodes character references like JSX, escapes on output, and still catches encoded schemes', () => {
    const page = render('<Card title="Fish &amp; Chips &#8212; &lt;b&gt;" />\n\n<a href="java&#115;cript:alert(1)">x</a>');
    expect(page.html).toContain('<p class="c-card__title">Fish &amp; Chips — &lt;b&gt;</p>');
    expect(page.html).not.toContain('alert');
    expect(page.warnings.map((w) => w.code)).toEqual(['unsafe-link']);
  });

  it('locates a warning about a prop value where the prop was written', () => {
    const page = render("import { Banner } from '/snippets/banner.jsx';\n\n<Banner title=\"x\" href=\"/guides/gone\" />");
    expect(page.warnings).toEqual([expect.objectContaining({ code: 'broken-link', file: 'guides/page.mdx', line: 3 })]);
  });
});

describe('links through redirects', () => {
  const redirects = [
    { source: '/old/intro', destination: '/guides/intro', permanent: true },
    { source: '/legacy/:slug', destination: '/guides/:slug', permanent: true },
    { source: '/hop', destination: '/old/intro', permanent: true },
    { source: '/away', destination: 'https://example.com/x', permanent: false },
    { source: '/loop-a', destination: '/loop-b', permanent: true },
    { source: '/loop-b', destination: '/loop-a', permanent: true },
  ];
  const ctx = makeCtx({}, { redirects });

  it('does not report a link whose path is redirected, and points it at the final page', () => {
    const page = render('[a](/old/intro#x) [b](/legacy/setup) [c](/hop) [d](/away)', { ctx });
    expect(page.warnings).toEqual([]);
    expect(page.html).toContain('<a href="/guides/intro/#x">a</a>');
    expect(page.html).toContain('<a href="/guides/setup/">b</a>');
    expect(page.html).toContain('<a href="/guides/intro/">c</a>');
    expect(page.html).toContain('<a href="https://example.com/x" rel="noopener noreferrer">d</a>');
  });

  it('still reports links that redirect nowhere or in a loop', () => {
    const page = render('[a](/legacy/gone) [b](/loop-a)', { ctx });
    expect(page.warnings.map((w) => w.code)).toEqual(['broken-link', 'broken-link']);
  });
});
