/**
 * Table-driven: every dangerous tag/attribute, at several depths, in every context a raw element
 * can appear in (page, paragraph, components, a snippet, a snippet's children, SVG, lists), is
 * rendered by the page renderer and the output parsed by a real HTML parser (htmlparser2) to check
 * that nothing dangerous survives anywhere, that the harmless element around it does, and that an
 * `unsafe-html`/`unsafe-link`/`external-embed` warning names the file it came from.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseDocument } from 'htmlparser2';
import type { Element } from 'domhandler';
import { afterAll, describe, expect, it } from 'vitest';
import type { PageContent } from '../../../renderer/types.js';
import { elements, htmlProblems } from '../html-check.js';
import { makeCtx, render } from './helpers.js';

/** A payload: the dangerous markup, and whether its own tag is one a page may keep. */
interface Payload {
  name: string;
  html: string;
  /** `keeps`: an element with class "kept" must survive (only the bad part goes). */
  keeps: boolean;
  svg?: boolean;
  /** Not an element to the MDX parser (`<base>`, `<meta>`): shown as text, so nothing to warn about. */
  asText?: boolean;
}

const P = (name: string, html: string, keeps = false, svg = false): Payload => ({ name, html, keeps, svg });
const T = (name: string, html: string): Payload => ({ name, html, keeps: false, asText: true });

const PAYLOADS: Payload[] = [
  P('img onerror', '<img class="kept" src="x.png" onerror="alert(1)" />', true),
  P('img ONERROR', '<img class="kept" src="x.png" ONERROR="alert(1)" />', true),
  P('img onError jsx', '<img class="kept" src="x.png" onError={"alert(1)"} />', true),
  P('img src javascript', '<img class="kept" src="javascript:alert(1)" />', true),
  P('img src data html', '<img class="kept" src="data:text/html,<script>alert(1)</script>" />', true),
  P('img src data svg', '<img class="kept" src="data:image/svg+xml,<svg onload=alert(1)>" />', true),
  P('img srcset javascript', '<img class="kept" src="a.png" srcSet="javascript:alert(1) 1x, b.png 2x" />', true),
  // An outside image becomes a visible placeholder (outside-media.ts), not an <img>: not "kept".
  P('img src protocol-relative', '<img class="kept" src="//evil.example/x.png" />'),
  P('img src backslash', '<img class="kept" src="/\\evil.example/x.png" />', true),
  P('button onclick', '<button class="kept" onclick="alert(1)">b</button>'),
  P('div onmouseover', '<div class="kept" onmouseover="alert(1)">d</div>', true),
  P('span onclick', '<span class="kept" onClick="alert(1)">s</span>', true),
  P('a javascript', '<a class="kept" href="javascript:alert(1)">a</a>', true),
  P('a JaVaScRiPt tab', '<a class="kept" href="JaVa&#9;ScRiPt:alert(1)">a</a>', true),
  // Only the entities JSX strings commonly hold are decoded; `&colon;` stays literal (a broken relative link).
  P('a entity colon', '<a class="kept" href="javascript&colon;alert(1)">a</a>', true),
  P('a leading space ctrl', '<a class="kept" href=" &#1;javascript:alert(1)">a</a>', true),
  P('a vbscript', '<a class="kept" href="vbscript:msgbox(1)">a</a>', true),
  P('a data html', '<a class="kept" href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">a</a>', true),
  P('a xlink:href', '<a class="kept" xlink:href="javascript:alert(1)">a</a>', true),
  P('a target blank', '<a class="kept" href="https://example.com/" target="_blank">a</a>', true),
  P('iframe srcdoc', '<iframe srcdoc="<script>alert(1)</script>"></iframe>'),
  P('iframe local srcdoc', '<iframe class="kept" src="/embeds/demo.html" srcDoc="<script>alert(1)</script>"></iframe>', true),
  P('iframe javascript', '<iframe src="javascript:alert(1)"></iframe>'),
  P('iframe external', '<iframe src="https://evil.example/"></iframe>'),
  P('object', '<object data="javascript:alert(1)"><b class="kept">fallback</b></object>', true),
  P('embed', '<embed src="javascript:alert(1)" />'),
  P('link stylesheet', '<link rel="stylesheet" href="https://evil.example/x.css" />'),
  P('input autofocus onfocus', '<input class="kept" autofocus onfocus="alert(1)" />', true),
  P('button formaction', '<button formaction="javascript:alert(1)">go</button>'),
  P('input formaction', '<input class="kept" type="submit" formAction="javascript:alert(1)" />', true),
  P('form action', '<form action="javascript:alert(1)"><b class="kept">f</b></form>', true),
  T('base', '<base href="https://evil.example/" />'),
  T('meta refresh', '<meta httpEquiv="refresh" content="0;url=javascript:alert(1)" />'),
  T('meta refresh dash', '<meta http-equiv="refresh" content="0;url=https://evil.example/" />'),
  P('script', '<script>alert(1)</script>'),
  P('sCrIpT case', '<sCrIpT>alert(1)</sCrIpT>'),
  P('style', '<style>{`body{background:url(https://evil.example/x)}`}</style>'),
  P('textarea', '<textarea>alert(1)</textarea>'),
  P('video poster', '<video class="kept" poster="javascript:alert(1)" src="/clip.mp4"></video>', true),
  P('audio onplay', '<audio class="kept" src="/a.mp3" onplay="alert(1)"></audio>', true),
  P('source src', '<video class="kept"><source src="javascript:alert(1)" /></video>', true),
  P('details ontoggle', '<details class="kept" open ontoggle="alert(1)"><summary>s</summary>x</details>', true),
  P('td background', '<table><tbody><tr><td class="kept" background="javascript:alert(1)">c</td></tr></tbody></table>', true),
  P('svg onload', '<svg class="kept" onload="alert(1)" viewBox="0 0 1 1"></svg>', true, true),
  P('svg use href', '<svg class="kept"><use href="data:image/svg+xml,<svg onload=alert(1)>" xlink:href="javascript:alert(1)" /></svg>', true, true),
  P('svg a', '<svg class="kept"><a href="javascript:alert(1)"><text>t</text></a></svg>', true, true),
  P('svg foreignobject', '<svg class="kept"><foreignObject><img src="x" onerror="alert(1)" /></foreignObject></svg>', true, true),
  P('svg path onclick', '<svg class="kept"><path d="M0 0" onclick="alert(1)" /></svg>', true, true),
  P('math href', '<math href="javascript:alert(1)"><mi class="kept">x</mi></math>'),
  P('data attr breakout', '<div class="kept" data-x={"\\"><script>alert(1)</script>"}>d</div>', true),
  P('title attr breakout', '<span class="kept" title="&quot; onmouseover=&quot;alert(1)">s</span>', true),
  P('style attr', '<div class="kept" style="color:red">d</div>', true),
];

/** How a payload is placed on the page; `snippet` contexts write the payload into a snippet file. */
interface Context {
  name: string;
  page: (inner: string, id: string) => string;
  snippet?: (inner: string) => string;
}

const wrapDepth = (inner: string, depth: number, tags: string[]): string => {
  let html = inner;
  for (let i = 0; i < depth; i++) {
    const tag = tags[i % tags.length] as string;
    html = `<${tag}>${html}</${tag}>`;
  }
  return html;
};

const CONTEXTS: Context[] = [
  { name: 'top level block', page: (x) => `Intro\n\n${x}\n\nOutro\n` },
  { name: 'inline in a paragraph', page: (x) => `Some text ${x} more text.\n` },
  { name: 'in a list item', page: (x) => `- item ${x}\n- other\n` },
  { name: 'in a markdown table cell', page: (x) => `| a | b |\n|---|---|\n| ${x.replace(/\|/g, '&#124;')} | z |\n` },
  { name: 'in <Note>', page: (x) => `<Note>\n\n${x}\n\n</Note>\n` },
  { name: 'in <Card> children', page: (x) => `<Card title="c">\n${x}\n</Card>\n` },
  { name: 'in <Tabs><Tab>', page: (x) => `<Tabs>\n<Tab title="t">\n\n${x}\n\n</Tab>\n</Tabs>\n` },
  { name: 'in <details> with markdown', page: (x) => `<details>\n<summary>More</summary>\n\n**bold** ${x}\n\n</details>\n` },
  { name: 'in <svg>', page: (x) => `<svg viewBox="0 0 10 10"><g>${x}</g></svg>\n` },
  {
    name: 'in a snippet',
    page: (_x, id) => `import Snip from '/snippets/${id}.mdx';\n\n<Snip />\n`,
    snippet: (x) => `Snippet text\n\n${x}\n`,
  },
  {
    name: 'as children of a snippet',
    page: (x, id) => `import Wrap from '/snippets/${id}.mdx';\n\n<Wrap>\n\n${x}\n\n</Wrap>\n`,
    snippet: () => '<div class="wrap">\n\n{children}\n\n</div>\n',
  },
  {
    name: 'in an arrow component',
    page: (x, id) => `import { Box } from '/snippets/${id}.jsx';\n\n<Box>\n${x}\n</Box>\n`,
    snippet: () => 'export const Box = ({ children }) => (\n  <section className="box">\n    {children}\n  </section>\n);\n',
  },
];

const DEPTHS = [0, 1, 3, 12];
const WRAPPERS = ['div', 'span', 'p', 'section', 'blockquote', 'em'];

const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'html-policy-'));
fs.mkdirSync(path.join(repo, 'snippets'));
afterAll(() => fs.rmSync(repo, { recursive: true, force: true }));
const ctx = makeCtx({ repoRoot: repo, assets: { 'x.png': '/_assets/x.1.png', 'a.png': '/_assets/a.1.png', 'b.png': '/_assets/b.1.png', 'clip.mp4': '/_assets/clip.1.mp4', 'a.mp3': '/_assets/a.1.mp3' } });

/** Markup the renderer's own components write (the copy button of a code block, tab buttons). */
const componentButton = (el: Element): boolean => el.name === 'button' && /^(?:c-|tab)/.test(el.attribs['class'] ?? '') && Object.keys(el.attribs).every((a) => !a.startsWith('on'));

const SECURITY_CODES = new Set(['unsafe-html', 'unsafe-link', 'external-embed', 'external-image', 'external-media']);

interface Case {
  id: string;
  payload: Payload;
  context: Context;
  depth: number;
}

const cases: Case[] = [];
for (const context of CONTEXTS) {
  for (const payload of PAYLOADS) {
    if (context.name === 'in <svg>' && !payload.svg && payload.name.startsWith('svg')) continue;
    for (const depth of DEPTHS) cases.push({ id: `c${cases.length}`, payload, context, depth });
  }
}

function renderCase(c: Case): { page: PageContent; file: string } {
  const inner = wrapDepth(c.payload.html, c.depth, WRAPPERS);
  const ext = c.context.name === 'in an arrow component' ? 'jsx' : 'mdx';
  let file = `guides/${c.id}.mdx`;
  if (c.context.snippet) {
    fs.writeFileSync(path.join(repo, 'snippets', `${c.id}.${ext}`), c.context.snippet(inner));
    if (c.context.name === 'in a snippet') file = `snippets/${c.id}.mdx`;
  }
  const page = render(c.context.page(inner, c.id), { file: `guides/${c.id}.mdx`, ctx });
  return { page, file };
}

describe('raw HTML policy: every element, at any depth, in any context', () => {
  it(`covers ${PAYLOADS.length} payloads × ${CONTEXTS.length} contexts × ${DEPTHS.length} depths`, () => {
    expect(cases.length).toBeGreaterThan(2000);
  });

  it('leaves nothing dangerous in the parsed output, keeps the harmless element, and names the file in a warning', () => {
    const failures: string[] = [];
    for (const c of cases) {
      const label = `${c.payload.name} / ${c.context.name} / depth ${c.depth}`;
      const { page, file } = renderCase(c);
      const problems = htmlProblems(page.html, componentButton);
      if (problems.length > 0) failures.push(`${label}: ${problems.join('; ')}`);
      if (c.payload.asText && !page.html.includes(`&lt;${c.payload.html.slice(1, 5)}`)) failures.push(`${label}: not shown as text`);
      if (c.payload.keeps) {
        const kept = elements(parseDocument(page.html).children).some((el) => /\bkept\b/.test(el.attribs['class'] ?? ''));
        if (!kept) failures.push(`${label}: the harmless element was removed too`);
      }
      const harmless = c.payload.asText || ['style attr', 'a target blank', 'a entity colon'].includes(c.payload.name) || c.payload.name.endsWith('breakout');
      if (!harmless) {
        const warned = page.warnings.some((w) => SECURITY_CODES.has(w.code) && w.file === file);
        if (!warned) failures.push(`${label}: no warning naming ${file} (got ${JSON.stringify(page.warnings)})`);
      }
    }
    expect(failures.slice(0, 40)).toEqual([]);
  });

  it('says what was removed, where', () => {
    const page = render('Text\n\n<div class="box"><span><img src="/x.png" onerror="alert(1)" /></span></div>\n', { file: 'guides/w.mdx', ctx });
    expect(page.warnings).toEqual([{ code: 'unsafe-html', message: '<img>: removed onerror (event handler)', file: 'guides/w.mdx', line: 3 }]);
    expect(page.html).toContain('<div class="box"><span><img src="/_assets/x.1.png" loading="lazy"></span></div>');
  });

  it('keeps referrerpolicy on images and links: it only withholds the referrer, so it is no threat to report', () => {
    // A tracking pixel or badge written `<img referrerPolicy="no-referrer-when-downgrade" …>`
    // (CopilotKit's scarf.sh pixel) drew an unsafe-html warning for a harmless attribute.
    const page = render('<img src="/x.png" referrerPolicy="no-referrer" alt="x" />\n\n<a href="/guides/intro" referrerpolicy="origin">a</a>\n', { ctx });
    expect(page.warnings).toEqual([]);
    expect(page.html).toContain('<img src="/_assets/x.1.png" referrerpolicy="no-referrer" alt="x" loading="lazy">');
    expect(page.html).toMatch(/<a href="[^"]*" referrerpolicy="origin">a<\/a>/);
  });

  it('writes rel="noopener noreferrer" for target=_blank at any depth', () => {
    const page = render('<div><p><a href="https://example.com/" target="_blank">x</a></p></div>\n', { ctx });
    expect(page.html).toContain('<a href="https://example.com/" target="_blank" rel="noopener noreferrer">x</a>');
  });
});
