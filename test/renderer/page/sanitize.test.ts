import { describe, expect, it } from 'vitest';
import { makeCtx, render } from './helpers.js';

const unsafe = makeCtx({}, { allowUnsafeHtml: true });

describe('sanitising user HTML', () => {
  it('removes scripts, inline handlers and javascript: URLs', () => {
    const source = [
      '<script>alert(1)</script>',
      '',
      '<img src="/images/logo.png" onerror="alert(2)" />',
      '',
      '<div onclick="alert(3)" class="box">Box **md**</div>',
      '',
      '<a href="javascript:alert(4)">bad</a> [md](javascript:alert(5)) <a href="JaVaScRiPt:alert(6)">x</a>',
      '',
      '<iframe src="https://evil.example/"></iframe>',
      '',
      '<object data="x.swf"></object>',
    ].join('\n');
    const page = render(source);
    expect(page.html).not.toMatch(/<script|alert\(|onerror|onclick|javascript:|<iframe|<object/i);
    expect(page.html).toContain('<div class="box">Box <strong>md</strong></div>');
    expect(page.html).toContain('src="/_assets/logo.1a2b3c4d.png"');
    expect(page.warnings.map((w) => w.code)).toEqual(expect.arrayContaining(['unsafe-link', 'external-embed']));
  });

  it('keeps local iframes and ordinary HTML (tables, details, styles, svg)', () => {
    const page = render('<iframe src="/embeds/demo.html" title="Demo"></iframe>\n\n<table><tr><td colSpan={2} style={{ textAlign: "center" }}>x</td></tr></table>\n\n<svg viewBox="0 0 10 10"><path d="M0 0h10" /></svg>');
    expect(page.html).toContain('<iframe src="/embeds/demo.html" title="Demo"></iframe>');
    expect(page.html).toContain('<td colspan="2" style="text-align:center">x</td>');
    expect(page.html).toMatch(/<svg viewBox="0 0 10 10"><path d="M0 0h10"( \/)?><\/path>|<svg viewBox="0 0 10 10"><path d="M0 0h10" \/><\/svg>/);
  });

  it('does not sanitise the trusted component output inside user HTML', () => {
    const page = render('<div class="wrap">\n\n<Card title="Inside" icon="rocket" />\n\n</div>');
    expect(page.html).toContain('<svg xmlns="http://www.w3.org/2000/svg"');
    expect(page.html).toContain('aria-hidden="true"');
  });

  it('escapes component attributes that come from users', () => {
    const page = render('<Card title="&quot;><script>alert(1)</script>" href="/guides/intro" />\n\n<Tooltip tip="<img src=x onerror=alert(1)>">t</Tooltip>');
    expect(page.html).not.toMatch(/<script|<img src=x/);
    expect(page.html).toContain('&lt;script&gt;');
  });

  it('keeps scripts, handlers and javascript: links when the project opts in', () => {
    const page = render('<script>window.x = 1</script>\n\n<button onclick="go()">Go</button> <a href="javascript:void(0)">j</a>', { ctx: unsafe });
    expect(page.html).toContain('<script>window.x = 1</script>');
    expect(page.html).toContain('onclick="go()"');
    expect(page.html).toContain('href="javascript:void(0)"');
  });
});
