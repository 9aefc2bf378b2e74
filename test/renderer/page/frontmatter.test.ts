import { describe, expect, it } from 'vitest';
import { RenderError } from '../../../renderer/types.js';
import { render, renderError } from './helpers.js';

describe('frontmatter', () => {
  it('reads title, description, mode and keeps the whole frontmatter', () => {
    const page = render('---\ntitle: Quickstart\ndescription: Start here\nmode: wide\nsidebarTitle: Start\nicon: rocket\n---\nBody');
    expect(page.title).toBe('Quickstart');
    expect(page.description).toBe('Start here');
    expect(page.mode).toBe('wide');
    expect(page.frontmatter).toMatchObject({ sidebarTitle: 'Start', icon: 'rocket' });
    expect(page.html).toContain('<p>Body</p>');
  });

  it('derives the title from the file name when frontmatter has none (not from the first heading)', () => {
    const page = render('# A heading\n\ntext', { file: 'guides/getting-started.mdx' });
    expect(page.title).toBe('Getting started');
    expect(render('text', { file: 'api/rate_limits.md' }).title).toBe('Rate limits');
    expect(render('text', { file: 'guides/index.mdx' }).title).toBe('Guides');
  });

  it('fails on broken YAML with the file and the line inside the file', () => {
    const err = renderError('---\ntitle: Fine\ndescription: "unterminated\nother: x\n---\nBody', { file: 'guides/bad.mdx' });
    expect(err.name).toBe('RenderError');
    expect(err.file).toBe('guides/bad.mdx');
    expect(err.line).toBeGreaterThanOrEqual(3);
    expect(err.line).toBeLessThanOrEqual(5);
    expect(err.message).toMatch(/YAML/);
  });

  it('reports a bad mapping line exactly', () => {
    const err = renderError('---\ntitle: a\ndescription: b: c\n---\n', { file: 'x.mdx' });
    expect(err.file).toBe('x.mdx');
    expect(err.line).toBe(3);
    expect(renderError('---\ntitle: a\ntags: [one, two\n---\n').line).toBeGreaterThanOrEqual(3);
  });

  it('accepts what Mintlify (front-matter, js-yaml 3) accepts and the yaml library refuses', () => {
    // A double-quoted string continued at column 0 (polar-docs, livepeer-docs).
    const page = render('---\ntitle: Webhooks\ndescription: "Deliveries are retried\nwith backoff, up to 10 times"\n---\nBody', { file: 'guides/hooks.mdx' });
    expect(page.description).toBe('Deliveries are retried with backoff, up to 10 times');
    expect(page.title).toBe('Webhooks');
    expect(page.warnings).toEqual([]);
    // A tab before a key, read by js-yaml 3 as a key of the mapping.
    expect(render('---\ntitle: a\n\tsidebarTitle: b\n---\n').frontmatter).toMatchObject({ title: 'a', sidebarTitle: 'b' });
  });

  it('refuses frontmatter whose aliases would expand without bound, as invalid YAML of that page', () => {
    const levels = ['a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
    for (const [i, name] of [...'bcdefghi'].entries()) {
      const prev = i === 0 ? 'a' : ('bcdefghi'[i - 1] as string);
      levels.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(', ')}]`);
    }
    const err = renderError(`---\n${levels.join('\n')}\ntitle: Bomb\n---\nbody\n`, { file: 'guides/bomb.mdx' });
    expect(err.file).toBe('guides/bomb.mdx');
    expect(err.line).toBe(2);
    expect(err.message).toMatch(/^Invalid YAML frontmatter: Excessive alias count/);
  });

  it('rejects frontmatter that is not a mapping', () => {
    expect(renderError('---\n- a\n- b\n---\nBody').message).toMatch(/mapping/);
  });

  it('reads an opening --- that nothing closes as a thematic break, as Mintlify (front-matter, remark-frontmatter) does', () => {
    const plain = render('---\n\nSome text.\n', { file: 'guides/rule.mdx' });
    expect(plain.html).toMatch(/^<hr\s*\/?>\s*<p>Some text\.<\/p>/);
    expect(plain.frontmatter).toEqual({});
    expect(plain.warnings).toEqual([]);
    // key: value lines after it were meant as frontmatter: the page renders, and says what was lost.
    const lost = render('---\ntitle: x\n\nBody without end\n', { file: 'guides/lost.mdx' });
    expect(lost.title).toBe('Lost');
    expect(lost.html).toContain('Body without end');
    expect(lost.warnings.map((w) => [w.code, w.line])).toEqual([['unclosed-frontmatter', 1]]);
  });

  it('renders a snippet whose unclosed --- is a thematic break in every page that imports it', () => {
    const page = render("import Cta from '/snippets/cta-unclosed.mdx';\n\n# Pricing\n\n<Cta />\n", { file: 'guides/pricing.mdx' });
    expect(page.html).toMatch(/<hr\s*\/?>/);
    expect(page.html).toContain('Contact');
    expect(page.html).toContain('href="https://example.com"');
    expect(page.warnings).toEqual([]);
  });

  it('renders an endpoint header for openapi pages, including webhooks', () => {
    const get = render('---\nopenapi: "GET /plants/{id}"\n---\n');
    expect(get.html).toMatch(/<div class="c-endpoint"><span class="c-endpoint__method c-endpoint__method--get">GET<\/span><code class="c-endpoint__path">\/plants\/\{id\}<\/code><\/div>/);
    const hook = render('---\nopenapi: "openapi.json WEBHOOK /plant/webhook"\n---\n');
    expect(hook.html).toContain('c-endpoint__method--webhook">WEBHOOK</span>');
    expect(hook.html).toContain('/plant/webhook');
    // OpenAPI 3.2's QUERY, read as navigation and generated pages read it.
    expect(render('---\napi: "query /plants/search"\n---\n').html).toContain('<span class="c-endpoint__method c-endpoint__method--query">QUERY</span><code class="c-endpoint__path">/plants/search</code>');
  });

  it('throws RenderError instances (what the pool serialises)', () => {
    expect(() => render('---\na: [\n---\n')).toThrow(RenderError);
  });
});
