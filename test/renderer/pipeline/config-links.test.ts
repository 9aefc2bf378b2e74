/**
 * Every link and attribute the layout writes from docs.json (navbar, primary button, footer
 * socials, tabs, anchors, sidebar links, the logo's link, redirects, the banner) is checked on the
 * exported documents with a real HTML parser: nothing runs script and nothing breaks out.
 */
import { parseDocument } from 'htmlparser2';
import type { Element } from 'domhandler';
import { describe, expect, it } from 'vitest';
import { exportSite } from '../../../renderer/index.js';
import { tempSite } from '../load/site-fixtures.js';
import { elements, htmlProblems } from '../html-check.js';
import { sharedRenderPool } from '../../helpers/render-pool.js';

const JS = 'javascript:alert(1)';
const BREAK = '"><img src=x onerror=alert(2)>';

const docs = {
  name: `Acme ${BREAK}`,
  description: BREAK,
  logo: { light: '/logo.png', href: JS },
  navbar: { links: [{ label: BREAK, href: JS }, { label: 'v', href: ' \u0001vbscript:x' }], primary: { type: 'button', label: 'p', href: 'JaVaScRiPt:alert(3)' } },
  footer: { socials: { github: JS, x: 'data:text/html,<script>alert(4)</script>' }, links: [{ header: BREAK, items: [{ label: 'l', href: JS }] }] },
  banner: { content: `<a href="${JS}">b</a> <img src=x onerror=alert(5)>` },
  redirects: [{ source: '/r1', destination: JS }, { source: '/r2', destination: `/x${BREAK}` }],
  navigation: {
    tabs: [
      { tab: `T ${BREAK}`, groups: [{ group: `G ${BREAK}`, pages: ['index', { title: `S ${BREAK}`, href: JS }] }] },
      { tab: 'Ext', href: JS },
    ],
    global: { anchors: [{ anchor: BREAK, href: 'vbscript:msgbox(1)', icon: BREAK }] },
  },
};

/** The layout's own scripts, stylesheets, metadata and buttons, which are not from the config. */
const layoutOwn = (el: Element): boolean =>
  (el.name === 'script' && (el.attribs['src'] ?? '').startsWith('/_static/')) ||
  (el.name === 'script' && !el.attribs['src'] && (el.attribs['type'] === 'application/json' || el.attribs['data-theme-init'] !== undefined || el.parent?.type === 'tag' && (el.parent as Element).name === 'head')) ||
  (el.name === 'link' && !/^(?:https?:)?\/\//.test(el.attribs['href'] ?? '')) ||
  (el.name === 'meta' && (el.attribs['http-equiv'] !== 'refresh' || /^0; url=\/(?![/\\])/.test(el.attribs['content'] ?? ''))) ||
  el.name === 'style' ||
  // The "Was this page helpful?" control (renderer/layout/templates/page-feedback.ejs): no action, posted by feedback.js.
  (el.name === 'form' && el.attribs['class'] === 'page-feedback-form' && el.attribs['action'] === undefined) ||
  (el.name === 'textarea' && el.attribs['id'] === 'feedback-form-input') ||
  (el.name === 'button' && Object.keys(el.attribs).every((a) => !a.startsWith('on')));

describe('links and text from docs.json in the exported documents', () => {
  it('hold no script URL, no handler and no broken-out markup in any document', async () => {
    const sourceDir = tempSite({ 'docs.json': JSON.stringify(docs), 'index.mdx': '---\ntitle: Home\n---\n\nHi.\n', 'logo.png': 'png' });
    const result = await exportSite({ pool: sharedRenderPool(), sourceDir });
    const documents = [...result.files.keys()].filter((p) => p.endsWith('.html'));
    expect(documents).toEqual(expect.arrayContaining(['index.html', '404.html']));
    // A script URL or markup as a redirect destination is refused (warned) once, for every writer.
    expect(documents).not.toContain('r1.html');
    expect(result.warnings.filter((w) => w.code === 'redirect-invalid').map((w) => w.message.split(':')[0])).toEqual(['redirect /r1 → javascript', 'redirect /r2 → /x"><img src=x onerror=alert(2)>']);
    const nginx = new TextDecoder().decode(result.files.get('nginx-redirects.conf'));
    expect(nginx).not.toMatch(/javascript|onerror/);
    const problems: string[] = [];
    for (const name of documents) {
      const html = new TextDecoder().decode(result.files.get(name));
      problems.push(...htmlProblems(html, layoutOwn).map((p) => `${name}: ${p}`));
      const imgs = elements(parseDocument(html).children).filter((el) => el.name === 'img' && el.attribs['src'] === 'x');
      if (imgs.length > 0) problems.push(`${name}: <img src=x> broke out`);
    }
    expect(problems).toEqual([]);
  }, 60_000);
});
