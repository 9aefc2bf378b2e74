import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkSite } from '../../scripts/site-check/check-site.js';

let dir: string;
function site(files: Record<string, string>): string {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'check-site-'));
  for (const [rel, body] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), body);
  }
  return dir;
}
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('site check (scripts/site-check/check-site.ts)', () => {
  it('resolves extensionless, index and relative links the way the site listener serves them', () => {
    const r = checkSite(
      site({
        'index.html': '<a href="/guide/intro">a</a><a href="/guide">b</a><a href="guide/intro#setup">c</a><a href="https://example.com/x">d</a>',
        'guide/index.html': '<a href="intro">relative to /guide, so /intro</a>',
        'guide/intro.html': '<h2 id="setup">Setup</h2><a href="#setup">self</a><a href="/_static/x.css">asset</a>',
        '_static/x.css': 'body{}',
      }),
    );
    expect(r.pages).toBe(3);
    expect(r.brokenLinks).toEqual([{ page: 'guide/index.html', href: 'intro' }]);
    expect(r.missingFragments).toEqual([]);
  });

  it('in static mode resolves links as a plain static server does: /x/ is x/index.html, /x only the file x', () => {
    const files = {
      'index.html': '<a href="/guide/intro/">a</a><a href="/guide/">b</a><a href="guide/intro/#setup">c</a><a href="/guide/intro">no slash</a><a href="/old">old form</a>',
      'guide/index.html': '<a href="intro/">relative to /guide/, so /guide/intro/</a><a href="../">up to /</a>',
      'guide/intro/index.html': '<h2 id="setup">Setup</h2><a href="/_static/x.css">asset</a>',
      'old.html': '<p>an old-layout page</p>',
      '_static/x.css': 'body{}',
    };
    const r = checkSite(site(files), 'static');
    expect(r.brokenLinks).toEqual([
      { page: 'index.html', href: '/guide/intro' },
      { page: 'index.html', href: '/old' },
    ]);
    expect(r.missingFragments).toEqual([]);
    // The appliance's lookup answers both forms.
    expect(checkSite(dir, 'appliance').brokenLinks).toEqual([{ page: 'guide/index.html', href: 'intro/' }]);
  });

  it('reports links to missing pages and fragments missing on the target page', () => {
    const r = checkSite(
      site({
        'index.html': '<a href="/nope">x</a><a href="/a#param-id">y</a><a href="#top">z</a>',
        'a.html': '<div id="other"></div>',
      }),
    );
    expect(r.brokenLinks).toEqual([{ page: 'index.html', href: '/nope' }]);
    expect(r.missingFragments).toEqual([
      { page: 'index.html', href: '/a#param-id' },
      { page: 'index.html', href: '#top' },
    ]);
  });

  it('flags JSX or expression source shown as text, but not inside code', () => {
    const r = checkSite(
      site({
        'raw.html': '<p>{eyebrow ? &lt;div className="u-eyebrow"&gt;{eyebrow}&lt;/div&gt; : null}</p>',
        'tag.html': '<p>&lt;Card title="x"&gt;</p>',
        'type.html': '<p>Type: ReactElement&lt;StepProps&gt;[] and Class&lt;Transport&gt;</p>',
        'code.html': '<pre><code>&lt;Card title="x"&gt; {xs.map((x) =&gt; x)}</code></pre><p>Prose with {braces} and a < b.</p>',
      }),
    );
    expect(r.rawSourcePages.map((p) => p.page).sort()).toEqual(['raw.html', 'tag.html']);
  });
});
